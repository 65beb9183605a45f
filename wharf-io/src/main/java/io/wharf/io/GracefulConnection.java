package io.wharf.io;

/**
 * A connection that can finish the work under way and then close, for a graceful stop: an
 * HTTP/1.1 connection ends its response in flight, an HTTP/2 one sends GOAWAY and lets its
 * streams finish, a WebSocket one sends a 1001 close frame. Each then closes its endpoint
 * itself; an idle one closes at once.
 *
 * <p>Who calls it: a server stopping gracefully calls {@link #shutdown(EndPoint)} for each
 * network endpoint it accepted, on the stopping thread. The endpoint's connection may carry
 * the protocol on an inner endpoint ({@link Connection.Carrier}: TLS carries the application's
 * connection on its decrypted endpoint); the request is handed inwards to the connection that
 * speaks the protocol, so over TLS the protocol's goodbye comes first and the TLS close_notify
 * follows it, when that connection closes the decrypted endpoint.
 *
 * <p>Threads: {@link #shutdown()} may be called from any thread, at any time, more than once.
 */
public interface GracefulConnection {

    /** Closes now when idle, else once the work under way is done (within the protocol's own rules). Thread-safe. */
    void shutdown();

    /**
     * Whether a stop reached this connection. An endpoint that {@linkplain EndPoint#upgrade
     * upgrades} from a connection that says so hands the stop on to the next one, which a stop
     * under way may never reach otherwise (it read the endpoint's connection before the
     * upgrade). A connection that an upgrade can replace must answer it truly, and set it
     * before anything else it does in {@link #shutdown()}.
     *
     * @return true once {@link #shutdown()} was called; false by default
     */
    default boolean isShutdown() {
        return false;
    }

    /**
     * Asks the connection that speaks the protocol on {@code endPoint} to finish: the endpoint's
     * connection if it is a {@link GracefulConnection}, else, through every
     * {@link Connection.Carrier} on the way, the connection carried inside. Where the innermost
     * connection cannot finish gracefully, its endpoint closes (over TLS, the decrypted one, so
     * a close_notify is still attempted).
     */
    static void shutdown(EndPoint endPoint) {
        EndPoint current = endPoint;
        // Bounded: each carrier made its inner endpoint, so the chain has no cycle, and upgrades
        // on one endpoint are few; the bound guards a wrong carrier.
        for (int depth = 0; depth < 16; depth++) {
            Connection connection = current.getConnection();
            if (connection instanceof GracefulConnection graceful) {
                graceful.shutdown();
                if (current.getConnection() == connection) {
                    return;
                }
                // An upgrade replaced it meanwhile: the next connection is asked too. The
                // upgrade hands the stop on as well when it sees it (EndPoint#upgrade); a
                // connection takes more than one stop.
                continue;
            }
            if (!(connection instanceof Connection.Carrier carrier)) {
                break;
            }
            current = carrier.getCarriedEndPoint();
        }
        current.close();
    }
}
