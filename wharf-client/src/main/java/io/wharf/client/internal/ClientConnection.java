package io.wharf.client.internal;

/**
 * A connection of a {@link Transport} that carries exchanges to one destination: HTTP/1.1
 * over TCP carries one at a time ({@code Http1Connection}); an HTTP/2 connection
 * ({@code Http2ClientConnection}) carries many at once behind the same calls. Any thread may
 * call any method.
 */
public interface ClientConnection {

    /**
     * Starts carrying {@code exchange}: writes its request and reads its response. The caller
     * holds this connection from its pool for the exchange; the connection gives it back (or
     * removes itself) when the exchange is over.
     *
     * @return false when the connection closed before it could take the exchange: the caller
     *     queues it again (and the connection removed itself from its pool)
     */
    boolean send(HttpExchange exchange);

    /** Ends {@code exchange} on this connection, if it still carries it, by closing the connection with {@code cause}. */
    void abort(HttpExchange exchange, Throwable cause);

    /**
     * @return how many exchanges it may carry at once (what an HTTP/2 server allows), or -1 to
     *     leave it to its pool (one, for HTTP/1.1)
     */
    default int getMaxMultiplex() {
        return -1;
    }

    /** @return whether the connection can still carry exchanges */
    boolean isOpen();

    /** Closes the connection; an exchange it carries fails. */
    void close();
}
