package io.wharf.client;

/**
 * The requests of one {@link Origin} and the connections that carry them, as seen from
 * outside: a read-only view for monitoring and tests. Every method may be called from any
 * thread; the numbers are snapshots.
 */
public interface Destination {

    /** @return the origin this destination serves */
    Origin getOrigin();

    /** @return the proxy its connections go through, or null when they go direct */
    Proxy getProxy();

    /** @return the requests waiting for a connection */
    int getQueuedRequestCount();

    /** @return the connections open or being opened */
    int getConnectionCount();

    /** @return the open connections that carry no exchange now */
    int getIdleConnectionCount();

    /** @return the connections that carry an exchange now */
    int getActiveConnectionCount();
}
