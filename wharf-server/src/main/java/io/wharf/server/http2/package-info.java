/**
 * HTTP/2 for the server: {@link io.wharf.server.http2.Http2ConnectionFactory} (h2 over TLS,
 * chosen by ALPN) and {@link io.wharf.server.http2.Http2CleartextConnectionFactory} (h2c, by
 * prior knowledge or HTTP/1.1 Upgrade). Streams reach the same Handler API as HTTP/1.1 requests.
 */
package io.wharf.server.http2;
