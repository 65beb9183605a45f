package io.wharf.client.transport;

import java.util.List;
import java.util.function.Function;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.connect.ClientConnector;
import io.wharf.util.Promise;

/**
 * What a {@link Transport} and its connections see of one destination of the client: where it
 * is (its origin, and the route there: direct or through a proxy), the client's settings and
 * connector, and the calls by which connections and pools give news of themselves. The client
 * makes one per origin and proxy, with its queue of exchanges and its {@link ConnectionPool};
 * the application sees the same object as an {@code io.wharf.client.Destination}.
 *
 * <p><b>Threads.</b> Any method, any thread; none blocks. The news calls ({@link #process},
 * {@link #release}, {@link #connectionClosed}, ...) may hand the caller's thread a queued
 * exchange to send, so a transport calls them where it could send one (not under its own locks).
 * <b>Buffers.</b> None.
 */
public interface TransportDestination {

    /** @return the origin's scheme, lower case: {@code http} or {@code https} */
    String scheme();

    /** @return the origin's host name or IP literal, lower case (an IPv6 literal in brackets) */
    String host();

    /** @return the origin's port */
    int port();

    /** @return whether the origin is {@code https}: its connections must be secure */
    default boolean isSecure() {
        return "https".equals(scheme());
    }

    /** @return whether the route to the origin goes through a proxy (see {@link #openRoute}) */
    boolean isProxied();

    /**
     * @return the client's settings when this destination was made (they size its pool); a
     *     connection reads its buffers and limits from them
     */
    ClientSettings settings();

    /** @return the client's connector: its executor, scheduler, buffer pool and TLS settings */
    ClientConnector connector();

    /**
     * Opens a network connection along this destination's route, as the client's own transports
     * do: TCP to the origin (or the client's Unix domain socket), through the proxy's tunnel when
     * {@link #isProxied()} (CONNECT or SOCKS5, with the proxy's credentials), then TLS with the
     * origin when {@link #isSecure()} (SNI, host name verification, the client's trust) offering
     * {@code protocols} by ALPN. The promise gets {@code factory}'s connection once the route is
     * open (after the TLS handshake for a secure origin), on a selector thread, or the failure.
     *
     * @param factory makes the connection that takes over the endpoint (the decrypted one for a
     *     secure origin); a {@link ClientConnection} that is also an {@link Connection}, typically
     */
    void openRoute(List<String> protocols, Function<EndPoint, Connection> factory, Promise<Connection> promise);

    /**
     * @return a new pool of the client's kind for {@code transport}'s connections here, sized by
     *     {@link #settings()} (at most {@code maxConnectionsPerDestination} connections, each
     *     carrying at most {@code maxConnectionUsage} exchanges over its life), in which a
     *     connection carries {@code maxMultiplex} exchanges at once until it says otherwise
     *     ({@link ClientConnection#getMaxMultiplex()}, {@link #setMaxMultiplex})
     */
    ConnectionPool newConnectionPool(Transport transport, int maxMultiplex);

    /** Hands queued exchanges to free connections, asking the pool for more when none is free: a connection opened or freed up. */
    void process();

    /** {@code connection}'s exchange is over and left it reusable: it goes back to the pool, and the queue is served. */
    void release(ClientConnection connection);

    /** {@code connection}'s peer changed how many exchanges it may carry at once (HTTP/2 SETTINGS). */
    void setMaxMultiplex(ClientConnection connection, int maxMultiplex);

    /**
     * {@code connection} closed: it leaves the pool (idempotent).
     *
     * @param process whether to serve the queue now (false while the caller still has an
     *     exchange of its own to fail or retry first)
     */
    void connectionClosed(ClientConnection connection, boolean process);

    /** Opening a connection failed with {@code cause}: the oldest queued exchange fails with it; the rest get another try. */
    void connectFailed(Throwable cause);
}
