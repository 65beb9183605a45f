/**
 * The core of the client's implementation, not exported: a request ({@code HttpRequest}) and the
 * conversation that follows it up (redirects, challenges, cookies, decoding), the exchange that
 * carries one hop, the destination that queues exchanges in front of a {@code ConnectionPool},
 * and the seams a transport plugs into ({@code Transport}, {@code ClientConnection},
 * {@code ClientContext}). It uses {@code route}, {@code content}, {@code cookie} and
 * {@code auth}; {@code pool}, {@code http1} and {@code http2} use it, never the other way.
 */
package io.wharf.client.internal;
