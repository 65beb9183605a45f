/**
 * Wharf's asynchronous HTTP client: {@code HttpClient}, requests and responses with listeners
 * for every event (content with demand), destinations with bounded queues and connection
 * pools, HTTP/1.1 over TCP and Unix domain sockets, HTTP/2 (h2 by ALPN, h2c with prior
 * knowledge, or either as the server picks: {@code HttpTransport}), https over TLS, HTTP and SOCKS5 proxies,
 * redirects, cookies, gzip decoding, authentication ({@code Authentication} and its store);
 * {@code io.wharf.client.auth} holds the Basic and Digest schemes, on top of the core;
 * {@code io.wharf.client.reactive}, the same as
 * {@code java.util.concurrent.Flow} publishers; {@code io.wharf.client.transport}, what a
 * transport reads of its client (the immutable settings snapshot).
 * HTTP/2 needs {@code io.wharf.http2} in the module graph, which this module only requires
 * statically: an HTTP/1.1 client runs without it.
 * {@code io.wharf.client.internal} and its packages (http1, http2, route, pool, content, cookie,
 * auth) hold the transports and are not exported.
 */
module io.wharf.client {
    requires transitive io.wharf.io;
    requires transitive io.wharf.http;
    requires org.slf4j;
    // HTTP/2 only when present: an HTTP/1.1 client runs without wharf-http2 (an HTTP/2 client
    // needs io.wharf.http2 in the module graph, and says so when it is not).
    requires static transitive io.wharf.http2;

    exports io.wharf.client;
    exports io.wharf.client.reactive;
    exports io.wharf.client.auth;
    exports io.wharf.client.transport;
}
