package io.wharf.client.internal;

import java.util.List;

import io.wharf.util.Promise;

/**
 * How the client speaks to a destination: which connections it opens and how they are shared.
 * {@code Http1Transport} opens HTTP/1.1 connections over TCP (or a Unix domain socket), each
 * carrying one exchange at a time; {@code Http2Transport} opens HTTP/2 connections (or, the
 * dynamic kind, either protocol as ALPN settles it), each carrying many at once in the same
 * {@code MultiplexConnectionPool}. The destination, the exchange and the listeners do not
 * change. Any thread may call it.
 */
public interface Transport {

    /** Opens a new connection to {@code destination}; the promise gets it, or the failure. */
    void connect(HttpDestination destination, Promise<ClientConnection> promise);

    /** @return the pool that shares this transport's connections to {@code destination} */
    ConnectionPool newConnectionPool(HttpDestination destination);

    /**
     * @return the application protocols this transport offers by ALPN on TLS connections, most
     *     preferred first ({@code h2}, {@code http/1.1}); a TLS server that picks another fails the connection
     */
    List<String> applicationProtocols();
}
