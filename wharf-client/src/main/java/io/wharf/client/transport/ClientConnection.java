package io.wharf.client.transport;

/**
 * A connection of a {@link Transport} that carries exchanges to one destination: HTTP/1.1
 * carries one at a time, an HTTP/2 connection many at once behind the same calls. Made by
 * {@link Transport#connect} and held by its destination's {@link ConnectionPool}.
 *
 * <p>A connection tells its destination when it is free again
 * ({@link TransportDestination#release}), when it closed
 * ({@link TransportDestination#connectionClosed}) and, for a multiplexed protocol, how many
 * exchanges its peer allows ({@link TransportDestination#setMaxMultiplex}).
 *
 * <p><b>Threads.</b> Any thread may call any method; none blocks.
 */
public interface ClientConnection {

    /**
     * Starts carrying {@code exchange}: writes its request and tells it the events of its
     * response (see {@link TransportExchange}). The caller holds this connection from its pool
     * for the exchange; the connection gives it back (or removes itself) when the exchange is over.
     *
     * @return false when the connection closed before it could take the exchange: the caller
     *     queues it again (and the connection removed itself from its pool)
     */
    boolean send(TransportExchange exchange);

    /**
     * Ends {@code exchange} on this connection, if it still carries it, because it was aborted
     * (by the application, a timeout) with {@code cause}; its sides are already failed. A
     * connection that cannot stop one exchange alone (HTTP/1.1) closes itself.
     */
    void abort(TransportExchange exchange, Throwable cause);

    /**
     * @return how many exchanges it may carry at once (what an HTTP/2 server allows), or -1 to
     *     leave it to its pool
     */
    default int getMaxMultiplex() {
        return -1;
    }

    /** @return whether the connection can still carry exchanges */
    boolean isOpen();

    /** Closes the connection; an exchange it carries fails. */
    void close();
}
