package io.wharf.client.transport;

import java.util.function.IntSupplier;

/**
 * The connections of one destination. The destination asks it for a connection for the
 * exchange at the head of its queue, and asks it to open more when none is free; connections
 * come back when their exchange is over and leave when they close.
 *
 * <p>This is the seam between a destination and its transport's way of sharing connections.
 * The client's own pool ({@link TransportDestination#newConnectionPool}, what
 * {@link Transport#newConnectionPool} gives by default) gives each HTTP/1.1 connection to one
 * exchange at a time, and an HTTP/2 connection to many at once, up to the streams its peer
 * allows — behind these same methods; a transport may bring a pool of its own. Every method may
 * be called from any thread, and none may block.
 */
public interface ConnectionPool {

    /** @return a free open connection, now held by the caller for one exchange; null when none is free */
    ClientConnection acquire();

    /**
     * Opens new connections, without waiting, while fewer than the demand are being opened and
     * the pool has room; each one that opens is offered to the destination's queue.
     *
     * @param exchanges how many exchanges wait for a connection, asked again before each
     *     further connection: one that opened at once (loopback) may already have taken an
     *     exchange, which then needs no connection of its own
     */
    void tryCreate(IntSupplier exchanges);

    /** As {@link #tryCreate(IntSupplier)} for a fixed number of exchanges (pre-opening). */
    default void tryCreate(int exchanges) {
        tryCreate(() -> exchanges);
    }

    /**
     * Told when an exchange was given the connection {@link #acquire} returned, after it left the
     * count of exchanges that wait ({@link #tryCreate}'s supplier). A pool that counts a
     * connection it has just opened as still being opened until then never opens one more for
     * an exchange that has one: a thread counting between the acquire and the count going down
     * sees the exchange as waiting, and the connection as on its way. The default does nothing.
     */
    default void taken(ClientConnection connection) {
    }

    /** Gives back a connection held for an exchange that is over and left it reusable. */
    void release(ClientConnection connection);

    /** Takes a closed connection out of the pool, dropping the caller's hold if it had one. */
    void remove(ClientConnection connection);

    /**
     * Sets how many exchanges {@code connection} may carry at once from now on: what its peer
     * allows (an HTTP/2 server's SETTINGS_MAX_CONCURRENT_STREAMS).
     */
    void setMaxMultiplex(ClientConnection connection, int maxMultiplex);

    /** Closes every connection and refuses new ones. */
    void close();

    /** @return connections open or being opened */
    int getConnectionCount();

    /** @return open connections that nobody holds */
    int getIdleConnectionCount();

    /** @return connections held for an exchange */
    int getActiveConnectionCount();
}
