package io.wharf.client.transport;

import java.util.List;

import io.wharf.util.Promise;

/**
 * How an {@code HttpClient} speaks to its destinations: which connections it opens and how they
 * are shared. This is the client's transport SPI: the built-in HTTP/1.1 and HTTP/2 transports
 * (chosen with {@code HttpTransport}) implement it, and so can another module (HTTP/3 will), whose
 * transport is given to the client's constructor ({@code new HttpClient(transport)}). The client
 * keeps everything above the transport the same over any of them: the request and its
 * listeners, the destination's queue, timeouts, redirects, cookies, authentication, decoding.
 *
 * <pre>
 *  HttpClient ──► destination (TransportDestination): a bounded queue of exchanges
 *                   │ pool.acquire() a free connection, or pool.tryCreate(n) ──► Transport.connect
 *                   ▼
 *                 ClientConnection.send(TransportExchange) ──► request out, response events in
 *                   │ the exchange over: destination.release(connection) or connectionClosed
 * </pre>
 *
 * <p>The SPI names only its own types and those of the layers below the client (wharf-http's
 * fields and heads, wharf-io's content chunks and connector, wharf-util's promises): the client's
 * API ({@code Request}, {@code Response}) stands on it, never the reverse.
 *
 * <p><b>Threads.</b> Any thread may call any method; none may block (the caller may be a
 * selector thread: a transport that must resolve a name or wait does it on
 * {@link TransportDestination#connector()}'s executor).
 */
public interface Transport {

    /**
     * Opens a new connection to {@code destination}; the promise gets it, or the failure. Called
     * by the destination's pool when it needs one more; the connection is the pool's from then on.
     */
    void connect(TransportDestination destination, Promise<ClientConnection> promise);

    /**
     * @return the pool that shares this transport's connections to {@code destination}, made
     *     once when the destination is made; by default the client's own pool, where each
     *     connection carries one exchange at a time until it says otherwise
     *     ({@link ClientConnection#getMaxMultiplex()})
     */
    default ConnectionPool newConnectionPool(TransportDestination destination) {
        return destination.newConnectionPool(this, 1);
    }

    /**
     * @return the application protocols this transport offers by ALPN on TLS connections, most
     *     preferred first ({@code h2}, {@code http/1.1}); empty for a transport that opens no TLS
     *     connection of the client's connector
     */
    List<String> applicationProtocols();
}
