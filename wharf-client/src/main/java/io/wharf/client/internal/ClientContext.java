package io.wharf.client.internal;

import java.net.CookieStore;
import java.net.URI;
import java.util.concurrent.Executor;

import io.wharf.client.AuthenticationStore;
import io.wharf.client.Origin;
import io.wharf.client.transport.ClientSettings;
import io.wharf.http.compression.InflaterPool;
import io.wharf.io.connect.ClientConnector;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.Scheduler;

/**
 * What the client's internals need of their {@code HttpClient}, and nothing more: its current
 * {@linkplain #settings() settings snapshot}, its running state, the connector's parts, the
 * stores it follows requests up with, and the way to a destination. The client implements it
 * with a private object, so that no internal class reads the client's getters (and the client
 * stays the only public face of its settings).
 *
 * <p><b>Threads.</b> Any method, any thread; none blocks. <b>Buffers.</b> None.
 */
public interface ClientContext {

    /** @return the client's settings as they are now: a new snapshot after every setter called since start */
    ClientSettings settings();

    /** @return whether the client is running (new exchanges are refused once it stops) */
    boolean isRunning();

    /** @return the connector that opens the client's connections */
    ClientConnector connector();

    /** @return the connector's executor */
    default Executor executor() {
        return connector().getExecutor();
    }

    /** @return the connector's scheduler */
    default Scheduler scheduler() {
        return connector().getScheduler();
    }

    /** @return the total timeouts of the client's requests, checked on the connector's scheduler */
    Deadlines deadlines();

    /** @return the connector's buffer pool */
    default ByteBufferPool byteBufferPool() {
        return connector().getByteBufferPool();
    }

    /** @return the store cookies go into and come from, or null when cookies are off (may change at any time) */
    CookieStore cookieStore();

    /** @return the credentials 401 challenges are answered with */
    AuthenticationStore authenticationStore();

    /** @return the gzip inflaters, made at start */
    InflaterPool inflaters();

    /** @return the destination of {@code origin} through the proxy that applies to it, made at its first use */
    HttpDestination destination(Origin origin);

    /** @return a new GET request to {@code uri} (a pushed response's request, for one) */
    HttpRequest newRequest(URI uri);
}
