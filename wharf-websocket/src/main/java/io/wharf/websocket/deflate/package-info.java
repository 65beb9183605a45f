/**
 * permessage-deflate (RFC 7692) for Wharf's WebSocket sessions, server and client:
 * {@link io.wharf.websocket.deflate.PerMessageDeflateFactory} negotiates it and pools the
 * inflaters and deflaters its sessions borrow.
 */
package io.wharf.websocket.deflate;
