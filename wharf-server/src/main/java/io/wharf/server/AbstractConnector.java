package io.wharf.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.GracefulConnection;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.component.ContainerLifeCycle;
import io.wharf.util.thread.Scheduler;

/**
 * What every connector shares: the server's executor, scheduler and buffer pool, the
 * connection factories by protocol, the idle timeout, the set of open connections and
 * graceful shutdown. Subclasses accept endpoints and call {@link #newConnection(EndPoint)},
 * {@link #onOpened(Connection)} and {@link #onClosed(EndPoint)}.
 */
public abstract class AbstractConnector extends ContainerLifeCycle implements Connector {

    private static final AtomicLong IDS = new AtomicLong();

    private final Server server;
    private final Map<String, ConnectionFactory> factories = new LinkedHashMap<>();
    // By endpoint, not connection: an upgrade (PROXY, TLS) replaces an endpoint's connection.
    private final Set<EndPoint> endPoints = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> allClosed = new CompletableFuture<>();
    private volatile Duration idleTimeout = Duration.ofSeconds(30);
    private volatile String name;
    private volatile boolean shutdown;

    /**
     * @param factories the protocols, the first being the one each connection starts with; at
     *     least one, since a connector has no protocol of its own (the core of the server names
     *     no protocol: HTTP/1.1 and HTTP/2 are its plug-ins)
     * @throws IllegalArgumentException when none is given
     */
    protected AbstractConnector(Server server, ConnectionFactory... factories) {
        if (factories.length == 0) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " needs at least one connection factory,"
                    + " the protocol its connections start with: pass new io.wharf.server.http1.HttpConnectionFactory()"
                    + " for HTTP/1.1");
        }
        this.server = server;
        for (ConnectionFactory factory : factories) {
            addConnectionFactory(factory);
        }
        this.name = getClass().getSimpleName() + "@" + IDS.incrementAndGet();
    }

    /** Adds a factory (replacing the one of the same protocol); only while stopped. */
    public final synchronized void addConnectionFactory(ConnectionFactory factory) {
        if (isRunning()) {
            throw new IllegalStateException("connection factories are set while " + name + " is stopped");
        }
        ConnectionFactory old = factories.put(factory.getProtocol(), factory);
        if (old != null) {
            removeBean(old);
        }
        addBean(factory);
    }

    @Override
    public Server getServer() {
        return server;
    }

    @Override
    public Executor getExecutor() {
        return server.getThreadPool();
    }

    @Override
    public Scheduler getScheduler() {
        return server.getScheduler();
    }

    @Override
    public ByteBufferPool getByteBufferPool() {
        return server.getByteBufferPool();
    }

    @Override
    public synchronized ConnectionFactory getConnectionFactory(String protocol) {
        return factories.get(protocol);
    }

    @Override
    public synchronized <T extends ConnectionFactory> T getConnectionFactory(Class<T> type) {
        for (ConnectionFactory factory : factories.values()) {
            if (type.isInstance(factory)) {
                return type.cast(factory);
            }
        }
        return null;
    }

    @Override
    public synchronized List<String> getProtocols() {
        return new ArrayList<>(factories.keySet());
    }

    @Override
    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    /** Sets how long a connection may stay silent before it is closed (default 30 s). */
    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    @Override
    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    /** @return the number of open connections */
    public int getConnectionCount() {
        return endPoints.size();
    }

    @Override
    public Connection newConnection(EndPoint endPoint) {
        ConnectionFactory first;
        synchronized (this) {
            first = factories.values().iterator().next();
        }
        endPoint.setIdleTimeout(idleTimeout.toMillis());
        return first.newConnection(this, endPoint);
    }

    /** A connection opened; its endpoint is tracked until it closes. */
    protected void onOpened(Connection connection) {
        EndPoint endPoint = connection.getEndPoint();
        endPoints.add(endPoint);
        if (shutdown) {
            GracefulConnection.shutdown(endPoint);
        }
    }

    /** An endpoint closed. */
    protected void onClosed(EndPoint endPoint) {
        endPoints.remove(endPoint);
        if (shutdown && endPoints.isEmpty()) {
            allClosed.complete(null);
        }
    }

    /**
     * Stops taking new connections and asks each open one to finish its in-flight request
     * and close; idle ones close at once. The request reaches the connection that speaks the
     * protocol, through TLS and any other {@link io.wharf.io.Connection.Carrier}
     * ({@link GracefulConnection#shutdown(EndPoint)}).
     *
     * @return completed when every connection has closed
     */
    public CompletableFuture<Void> shutdown() {
        shutdown = true;
        stopAccepting();
        for (EndPoint endPoint : endPoints) {
            GracefulConnection.shutdown(endPoint);
        }
        if (endPoints.isEmpty()) {
            allClosed.complete(null);
        }
        return allClosed;
    }

    /** Stops accepting new connections; open ones carry on. */
    protected abstract void stopAccepting();

    @Override
    protected void doStop() throws Exception {
        stopAccepting();
        for (EndPoint endPoint : endPoints) {
            endPoint.close();
        }
        endPoints.clear();
        super.doStop();
    }

    @Override
    public String toString() {
        return name + getProtocols();
    }
}
