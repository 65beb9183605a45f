package io.wharf.server;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.component.LifeCycle;
import io.wharf.util.thread.Scheduler;

/**
 * Where connections come from: a TCP or Unix socket ({@link ServerConnector}) or memory
 * ({@link LocalConnector}). A connector opens an endpoint per client and asks its first
 * {@link ConnectionFactory} for a connection; it tracks open connections so the server can
 * stop gracefully. Its methods are thread-safe.
 */
public interface Connector extends LifeCycle {

    /** @return the server this connector belongs to */
    Server getServer();

    /** @return the executor for blocking work */
    Executor getExecutor();

    /** @return the scheduler of timeouts */
    Scheduler getScheduler();

    /** @return the pool every connection of this connector borrows buffers from */
    ByteBufferPool getByteBufferPool();

    /** @return the factory speaking {@code protocol}, or null */
    ConnectionFactory getConnectionFactory(String protocol);

    /** @return the first factory of type {@code type}, or null */
    <T extends ConnectionFactory> T getConnectionFactory(Class<T> type);

    /** @return the protocol names of the factories, first the one each connection starts with */
    List<String> getProtocols();

    /** @return how long a connection may stay silent */
    Duration getIdleTimeout();

    /** @return the name of this connector, for logs and dumps */
    String getName();

    /** @return whether the connector is shutting down: connections finish their request and close */
    boolean isShutdown();

    /**
     * Called by a connection factory chain when a connection opens; the first factory's
     * connection is made by the connector itself.
     */
    Connection newConnection(EndPoint endPoint);
}
