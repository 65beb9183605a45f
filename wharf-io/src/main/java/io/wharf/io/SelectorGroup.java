package io.wharf.io;

import java.io.Closeable;
import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.wharf.io.internal.AcceptingChannel;
import io.wharf.io.internal.ConnectingChannel;
import io.wharf.io.internal.SelectorLoop;
import io.wharf.io.internal.SocketChannelEndPoint;
import io.wharf.util.component.ContainerLifeCycle;
import io.wharf.util.thread.AdaptiveExecutionStrategy;
import io.wharf.util.thread.ExecutionStrategy;
import io.wharf.util.thread.Scheduler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N selectors (default: one per core) that watch socket channels and turn readiness into
 * tasks, run by an adaptive execution strategy per selector.
 *
 * <p>Used by server connectors (channels accepted here with {@link #acceptor} or elsewhere
 * and handed over with {@link #accept}) and by the client connector ({@link #connect}, with
 * an asynchronous connect timeout). For each channel it creates an {@link EndPoint} and asks
 * its {@link Opener} for the {@link Connection}, on the selector thread: openers and
 * {@link Connection#onOpen()} must not block.
 *
 * <p>Each selector's production occupies one thread of the executor while it runs.
 */
public class SelectorGroup extends ContainerLifeCycle {

    private static final Logger LOG = LoggerFactory.getLogger(SelectorGroup.class);

    /** What a group asks of its owner. Called on selector threads; must not block. */
    public interface Opener {
        /**
         * @param endPoint the new endpoint, not yet opened
         * @param attachment what was passed to {@link #accept} or {@link #connect}
         * @return the connection to speak over it
         */
        Connection newConnection(EndPoint endPoint, Object attachment) throws IOException;

        /** Sets socket options on a channel accepted by {@link #acceptor}. */
        default void configureAccepted(SocketChannel channel) throws IOException {
        }

        /** A connect or the opening of a channel failed; the channel is closed. */
        default void openFailed(SocketChannel channel, Throwable cause, Object attachment) {
        }

        /** A connection was opened; {@code attachment} is what was passed to {@link #accept} or {@link #connect}. */
        default void opened(Connection connection, Object attachment) {
        }

        /** An endpoint closed. */
        default void closed(EndPoint endPoint, Throwable cause) {
        }
    }

    private final Executor executor;
    private final Scheduler scheduler;
    private final Opener opener;
    private final SelectorLoop[] loops;
    private final AtomicInteger next = new AtomicInteger();
    private final Function<ExecutionStrategy.Producer, ExecutionStrategy> strategyFactory;
    private volatile long idleTimeout = 30_000;
    private volatile long connectTimeout = 15_000;

    /**
     * @param executor runs the selectors' production and the tasks they hand off
     * @param scheduler runs idle and connect timeouts
     * @param selectors how many selectors; 0 or less for one per core
     * @param opener creates connections for new endpoints
     */
    public SelectorGroup(Executor executor, Scheduler scheduler, int selectors, Opener opener) {
        this.executor = executor;
        this.scheduler = scheduler;
        this.opener = opener;
        this.strategyFactory = producer -> new AdaptiveExecutionStrategy(producer, executor);
        int count = selectors > 0 ? selectors : Runtime.getRuntime().availableProcessors();
        this.loops = new SelectorLoop[count];
        for (int i = 0; i < count; i++) {
            loops[i] = new SelectorLoop(i, executor, strategyFactory, opener::closed);
            addBean(loops[i], true);
        }
    }

    /** @return the idle timeout given to new endpoints */
    public Duration getIdleTimeout() {
        return Duration.ofMillis(idleTimeout);
    }

    /** Sets the idle timeout given to new endpoints; zero for none. */
    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout.toMillis();
    }

    /** @return how long {@link #connect} waits for a connection */
    public Duration getConnectTimeout() {
        return Duration.ofMillis(connectTimeout);
    }

    /** Sets how long {@link #connect} waits for a connection. */
    public void setConnectTimeout(Duration connectTimeout) {
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("connect timeout must be positive: " + connectTimeout);
        }
        this.connectTimeout = connectTimeout.toMillis();
    }

    /** @return the number of selectors */
    public int getSelectorCount() {
        return loops.length;
    }

    /** @return the number of endpoints open now */
    public int getOpenEndPoints() {
        int total = 0;
        for (SelectorLoop loop : loops) {
            total += loop.openEndPoints();
        }
        return total;
    }

    /** @return the executor that runs selector tasks */
    public Executor getExecutor() {
        return executor;
    }

    /** @return the scheduler of timeouts */
    public Scheduler getScheduler() {
        return scheduler;
    }

    private SelectorLoop chooseLoop() {
        if (!isRunning()) {
            throw new IllegalStateException(this + " is not running");
        }
        return loops[Math.floorMod(next.getAndIncrement(), loops.length)];
    }

    /**
     * Accepts connections from {@code server} on one selector, without a dedicated thread.
     * Each accepted channel is configured ({@link Opener#configureAccepted}) and handed to
     * {@link #accept}.
     *
     * @return closing it stops accepting (the server channel is not closed)
     */
    public Closeable acceptor(ServerSocketChannel server) throws IOException {
        server.configureBlocking(false);
        SelectorLoop loop = chooseLoop();
        AcceptingChannel accepting = new AcceptingChannel(server, loop, this::acceptFromSelector);
        loop.submit((Runnable) accepting::register);
        return accepting;
    }

    private void acceptFromSelector(SocketChannel channel) {
        try {
            opener.configureAccepted(channel);
            accept(channel, null);
        } catch (Throwable x) {
            fail(channel, x, null);
        }
    }

    /**
     * Takes over a connected channel (accepted elsewhere, or connected at once): it is made
     * non-blocking and registered with a selector, where its endpoint and connection open.
     */
    public void accept(SocketChannel channel, Object attachment) {
        SelectorLoop loop;
        try {
            loop = chooseLoop();
            channel.configureBlocking(false);
        } catch (Throwable x) {
            fail(channel, x, attachment);
            return;
        }
        loop.submit((Runnable) () -> open(loop, channel, null, attachment));
    }

    /**
     * Connects {@code channel} to {@code address} asynchronously; the connection opens on a
     * selector, or {@link Opener#openFailed} is told (a {@link SocketTimeoutException} after
     * the connect timeout).
     */
    public void connect(SocketChannel channel, SocketAddress address, Object attachment) {
        SelectorLoop loop;
        try {
            loop = chooseLoop();
            channel.configureBlocking(false);
            if (channel.connect(address)) {
                loop.submit((Runnable) () -> open(loop, channel, null, attachment));
                return;
            }
        } catch (Throwable x) {
            fail(channel, x, attachment);
            return;
        }
        ConnectingChannel connecting = new ConnectingChannel(channel, address,
            key -> open(loop, channel, key, attachment), cause -> fail(channel, cause, attachment));
        connecting.scheduleTimeout(scheduler, connectTimeout);
        loop.submit((Runnable) () -> connecting.register(loop.selector()));
    }

    /** Creates the endpoint and connection of a connected channel; on the selector thread. */
    private void open(SelectorLoop loop, SocketChannel channel, SelectionKey existingKey, Object attachment) {
        SocketChannelEndPoint endPoint = null;
        try {
            SelectionKey key = existingKey != null ? existingKey : channel.register(loop.selector(), 0);
            key.interestOps(0);
            endPoint = new SocketChannelEndPoint(channel, loop, key, executor);
            endPoint.setIdleTimeout(idleTimeout);
            Connection connection = opener.newConnection(endPoint, attachment);
            endPoint.setConnection(connection);
            key.attach(endPoint);
            loop.onEndPointOpened();
            endPoint.onOpen();
            connection.onOpen();
            opener.opened(connection, attachment);
        } catch (Throwable x) {
            if (endPoint != null && endPoint.getConnection() != null) {
                endPoint.close(x);
            } else {
                fail(channel, x, attachment);
            }
        }
    }

    private void fail(SocketChannel channel, Throwable cause, Object attachment) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Could not open {}", channel, cause);
        }
        try {
            channel.close();
        } catch (IOException x) {
            cause.addSuppressed(x);
        }
        try {
            opener.openFailed(channel, cause instanceof ClosedChannelException closed ? closed : cause, attachment);
        } catch (Throwable x) {
            LOG.warn("openFailed threw for {}", channel, x);
        }
    }

    @Override
    public String toString() {
        return "SelectorGroup@" + Integer.toHexString(hashCode()) + "{" + state() + ",selectors=" + loops.length
            + ",endpoints=" + getOpenEndPoints() + "}";
    }
}
