/**
 * HTTP/2, not exported: the transport, the connection over an HTTP/2 session in its client
 * role, and the stream that carries one exchange; the only internal package that uses
 * wharf-http2. Uses {@code http1} for the route's opening and the HTTP/1.1 fallback of the
 * dynamic transports.
 */
package io.wharf.client.internal.http2;
