package io.wharf.client.internal;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.wharf.client.Destination;
import io.wharf.client.Origin;
import io.wharf.client.Proxy;
import io.wharf.client.internal.pool.MultiplexConnectionPool;
import io.wharf.client.internal.route.EndPointOpening;
import io.wharf.client.internal.route.ForwardProxy;
import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.ClientSettings;
import io.wharf.client.transport.ConnectionPool;
import io.wharf.client.transport.Transport;
import io.wharf.client.transport.TransportDestination;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;
import io.wharf.http.PreEncodedHttpField;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.connect.ClientConnector;
import io.wharf.util.Promise;

/**
 * The exchanges bound for one {@link Origin}: a bounded queue in front of a
 * {@link ConnectionPool}. {@link #send} queues an exchange and {@link #process} hands queued
 * exchanges to free connections, asking the pool to open more (up to its maximum) when none
 * is free; a connection that frees up or opens calls {@link #process} again. It is both the
 * application's read-only {@link Destination} and the {@link TransportDestination} its
 * transport's connections and pool see.
 *
 * <p><b>Threads.</b> Any thread may call any method; the queue is lock-free and
 * {@link #process} may run on several threads at once (each exchange is taken by one).
 * Nothing here blocks. <b>Buffers.</b> None.
 */
public final class HttpDestination implements Destination, TransportDestination {

    private final ClientContext context;
    /** The client's settings when this destination was made: they size its pool. */
    private final ClientSettings settings;
    private final Origin origin;
    private final Proxy proxy;
    private final ForwardProxy forwardProxy;
    private final ConnectionPool pool;
    /** The Host field of every request here, made once. */
    private final HttpField hostField;
    /** The last User-Agent field made, reused while the client's user agent stays the same. */
    private volatile HttpField userAgentField;
    private final Deque<HttpExchange> queue = new ConcurrentLinkedDeque<>();
    private final AtomicInteger queued = new AtomicInteger();

    /** @param proxy the proxy the connections go through, or null for direct */
    public HttpDestination(ClientContext context, Origin origin, Proxy proxy, Transport transport) {
        this.context = context;
        this.settings = context.settings();
        this.origin = origin;
        this.proxy = proxy;
        this.forwardProxy = ForwardProxy.of(origin, proxy);
        this.pool = transport.newConnectionPool(this);
        this.hostField = new PreEncodedHttpField(HttpHeader.HOST, origin.authority());
    }

    /** @return the Host field of requests to this origin */
    HttpField hostField() {
        return hostField;
    }

    /** @return a User-Agent field saying {@code agent}: the same instance while the agent stays the same */
    HttpField userAgentField(String agent) {
        HttpField field = userAgentField;
        if (field == null || !field.getValue().equals(agent)) {
            field = new PreEncodedHttpField(HttpHeader.USER_AGENT, agent);
            userAgentField = field;
        }
        return field;
    }

    /** @return the client's parts this destination and its connections use */
    public ClientContext context() {
        return context;
    }

    @Override
    public ClientSettings settings() {
        return settings;
    }

    @Override
    public String scheme() {
        return origin.scheme();
    }

    @Override
    public String host() {
        return origin.host();
    }

    @Override
    public int port() {
        return origin.port();
    }

    @Override
    public boolean isProxied() {
        return proxy != null;
    }

    @Override
    public ClientConnector connector() {
        return context.connector();
    }

    @Override
    public void openRoute(List<String> protocols, Function<EndPoint, Connection> factory, Promise<Connection> promise) {
        new EndPointOpening(context.connector(), settings, origin, proxy, protocols, factory, promise).open();
    }

    @Override
    public ConnectionPool newConnectionPool(Transport transport, int maxMultiplex) {
        return new MultiplexConnectionPool(this, transport, settings.maxConnectionsPerDestination(),
                settings.maxConnectionUsage(), maxMultiplex, settings.connectionStrategy());
    }

    @Override
    public Origin getOrigin() {
        return origin;
    }

    @Override
    public Proxy getProxy() {
        return proxy;
    }

    /** @return how requests go to the HTTP proxy in absolute form (plain http through an HTTP proxy), or null */
    ForwardProxy getForwardProxy() {
        return forwardProxy;
    }

    /** Queues {@code exchange}, or fails it when the queue is full or the client stopped. */
    void send(HttpExchange exchange) {
        if (!context.isRunning()) {
            exchange.abort(new RejectedExecutionException(context + " is not running"));
            return;
        }
        int max = exchange.getRequest().settings().maxRequestsQueuedPerDestination();
        if (queued.incrementAndGet() > max) {
            queued.decrementAndGet();
            exchange.abort(new RejectedExecutionException("queue of " + origin + " is full: " + max
                    + " requests already wait for a connection (HttpClient.setMaxRequestsQueuedPerDestination)"));
            return;
        }
        exchange.getRequest().events().queued(exchange.getRequest());
        queue.offer(exchange);
        process();
    }

    /** Queues again, first in line, an exchange whose connection failed before its response began. */
    public void resend(HttpExchange exchange) {
        queued.incrementAndGet();
        queue.offerFirst(exchange);
        process();
    }

    /** Takes an aborted exchange out of the queue. */
    void remove(HttpExchange exchange) {
        if (queue.remove(exchange)) {
            queued.decrementAndGet();
        }
    }

    @Override
    public void process() {
        while (!queue.isEmpty()) {
            ClientConnection connection = pool.acquire();
            if (connection == null) {
                pool.tryCreate(queued::get);
                return;
            }
            // Counted out before it leaves the queue: a thread counting the queue to decide
            // whether to open a connection must never count an exchange that already has one.
            queued.decrementAndGet();
            HttpExchange exchange = queue.poll();
            if (exchange == null) {
                queued.incrementAndGet();
                pool.release(connection);
                // An exchange may have been queued between the poll and the release.
                continue;
            }
            if (!exchange.associate(connection)) {
                // Aborted while queued: the connection goes back unused.
                pool.release(connection);
                continue;
            }
            // After the count went down: until now a connection just opened still counted as
            // opening, for a thread counting meanwhile. The loop looks at the queue again after
            // this, for an exchange that such a thread left to it.
            pool.taken(connection);
            if (!connection.send(exchange)) {
                exchange.disassociate(connection);
                queued.incrementAndGet();
                queue.offerFirst(exchange);
            }
        }
    }

    @Override
    public void release(ClientConnection connection) {
        pool.release(connection);
        process();
    }

    @Override
    public void setMaxMultiplex(ClientConnection connection, int maxMultiplex) {
        pool.setMaxMultiplex(connection, maxMultiplex);
        process();
    }

    @Override
    public void connectionClosed(ClientConnection connection, boolean process) {
        pool.remove(connection);
        if (process && context.isRunning()) {
            process();
        }
    }

    @Override
    public void connectFailed(Throwable cause) {
        HttpExchange exchange = queue.poll();
        if (exchange != null) {
            queued.decrementAndGet();
            exchange.abort(cause instanceof SocketTimeoutException timedOut ? connectTimeout(timedOut) : cause);
        }
        if (context.isRunning()) {
            process();
        }
    }

    private TimeoutException connectTimeout(SocketTimeoutException cause) {
        TimeoutException timeout = new TimeoutException("connect timeout of " + context.settings().connectTimeout().toMillis()
                + " ms elapsed connecting to " + origin);
        timeout.initCause(cause);
        return timeout;
    }

    /** Fails every queued exchange and closes every connection: the client stops. */
    public void close() {
        pool.close();
        HttpExchange exchange;
        while ((exchange = queue.poll()) != null) {
            queued.decrementAndGet();
            exchange.abort(new IOException("the client stopped before the request was sent"));
        }
    }

    @Override
    public int getQueuedRequestCount() {
        // Below zero for a moment while process() counts out an exchange still being queued.
        return Math.max(0, queued.get());
    }

    @Override
    public int getConnectionCount() {
        return pool.getConnectionCount();
    }

    @Override
    public int getIdleConnectionCount() {
        return pool.getIdleConnectionCount();
    }

    @Override
    public int getActiveConnectionCount() {
        return pool.getActiveConnectionCount();
    }

    @Override
    public String toString() {
        return "HttpDestination[" + origin + (proxy == null ? "" : " via " + proxy) + ", queued=" + queued.get() + ", " + pool + "]";
    }
}
