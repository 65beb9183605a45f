package io.wharf.client;

/**
 * Which HTTP versions an {@link HttpClient} speaks, and how it picks one per destination; given
 * to its constructor ({@code new HttpClient(HttpTransport.DYNAMIC)}) and fixed for its life.
 * These are the built-in transports; a transport of another module, an implementation of
 * {@link io.wharf.client.transport.Transport}, is given to {@code new HttpClient(transport)}
 * instead.
 *
 * <table>
 *   <caption>What each choice speaks</caption>
 *   <tr><th>choice</th><th>https (ALPN offers)</th><th>http</th></tr>
 *   <tr><td>{@link #HTTP_1_1}</td><td>HTTP/1.1 ({@code http/1.1})</td><td>HTTP/1.1</td></tr>
 *   <tr><td>{@link #HTTP_2}</td><td>HTTP/2 ({@code h2}; a server without it fails the connection)</td><td>h2c, prior knowledge</td></tr>
 *   <tr><td>{@link #DYNAMIC}</td><td>whichever the server picks ({@code h2}, {@code http/1.1})</td><td>HTTP/1.1</td></tr>
 *   <tr><td>{@link #DYNAMIC_PRIOR_KNOWLEDGE}</td><td>whichever the server picks ({@code h2}, {@code http/1.1})</td><td>h2c, prior knowledge</td></tr>
 * </table>
 *
 * <p>Over HTTP/2 a destination keeps few connections, each carrying as many exchanges at once as
 * the server's SETTINGS_MAX_CONCURRENT_STREAMS allows; requests, listeners, content and
 * timeouts are the same, and {@link Response#getVersion()} says which version answered.
 */
public enum HttpTransport {
    /** HTTP/1.1 only: the default. */
    HTTP_1_1,
    /** HTTP/2 only: h2 by ALPN for https, h2c with prior knowledge for http. */
    HTTP_2,
    /** h2 or http/1.1 by ALPN for https, as the server picks; HTTP/1.1 for http. */
    DYNAMIC,
    /** h2 or http/1.1 by ALPN for https, as the server picks; h2c with prior knowledge for http. */
    DYNAMIC_PRIOR_KNOWLEDGE
}
