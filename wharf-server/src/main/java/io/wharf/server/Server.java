package io.wharf.server;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.http.DateField;
import io.wharf.server.internal.DateTicker;
import io.wharf.server.internal.ServerWideAnswer;
import io.wharf.util.Callback;
import io.wharf.util.buffer.BucketedByteBufferPool;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.component.ContainerLifeCycle;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.util.thread.Scheduler;
import io.wharf.util.thread.TimerScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server: connectors that accept connections, one handler tree that answers requests,
 * and what they share — a thread pool (BLOCKING handlers run on a pool thread that is idle,
 * else on a new virtual thread, by default), a scheduler of timeouts, a buffer pool, a cached {@code Date} field and an error
 * handler.
 *
 * <pre>{@code
 * Server server = new Server(8080, new HttpConnectionFactory());
 * server.setHandler(Handler.of((request, response, callback) -> {
 *     Response.write(response, true, "Hello", callback);
 *     return true;
 * }));
 * server.start();
 * }</pre>
 *
 * <p>Stopping is graceful: connectors stop accepting, in-flight requests finish (up to the
 * stop timeout), idle connections close, then everything stops. Configure before starting;
 * the handler may be replaced while running.
 */
public class Server extends ContainerLifeCycle {

    private static final Logger LOG = LoggerFactory.getLogger(Server.class);

    private final QueuedThreadPool threadPool;
    private final Scheduler scheduler = new TimerScheduler();
    private final ByteBufferPool byteBufferPool;
    private final List<Connector> connectors = new CopyOnWriteArrayList<>();
    private final Handler.Wrapper root = new Handler.Wrapper();
    private volatile ErrorHandler errorHandler = new ErrorHandler();
    private volatile Duration stopTimeout = Duration.ofSeconds(10);
    private volatile Thread shutdownHook;

    /** A server with no connector yet, a default thread pool and a default buffer pool. */
    public Server() {
        this(new QueuedThreadPool(), new BucketedByteBufferPool());
    }

    /**
     * A server with one {@link ServerConnector} on {@code port} (0 for any free one) speaking
     * {@code factories}: {@code new Server(8080, new HttpConnectionFactory())} for plain HTTP/1.1
     * ({@link io.wharf.server.http1.HttpConnectionFactory}).
     *
     * @param factories the connector's protocols, at least one, the first being the one each
     *     connection starts with
     * @throws IllegalArgumentException when no factory is given
     */
    public Server(int port, ConnectionFactory... factories) {
        this();
        ServerConnector connector = new ServerConnector(this, factories);
        connector.setPort(port);
        addConnector(connector);
    }

    public Server(QueuedThreadPool threadPool, ByteBufferPool byteBufferPool) {
        this.threadPool = threadPool;
        this.byteBufferPool = byteBufferPool;
        threadPool.setName("wharf");
        threadPool.setUseVirtualThreads(true);
        addBean(threadPool, true);
        addBean(scheduler, true);
        // After the scheduler it ticks on, so started after it and stopped before it.
        addBean(new DateTicker(DateField.SYSTEM, scheduler), true);
        addBean(byteBufferPool, false);
        root.setServer(this);
        addBean(root, true);
    }

    /** @return the pool that runs blocking work and selector production */
    public QueuedThreadPool getThreadPool() {
        return threadPool;
    }

    /** @return the scheduler of timeouts */
    public Scheduler getScheduler() {
        return scheduler;
    }

    /** @return the pool of network buffers */
    public ByteBufferPool getByteBufferPool() {
        return byteBufferPool;
    }

    /** @return the cached {@code Date} field, ticked once a second while the server runs */
    public DateField getDateField() {
        return DateField.SYSTEM;
    }

    /** Adds a connector; while running it is started at once. */
    public void addConnector(Connector connector) {
        if (connector.getServer() != this) {
            throw new IllegalArgumentException(connector + " belongs to another server");
        }
        connectors.add(connector);
        addBean(connector, true);
    }

    /** @return the connectors */
    public List<Connector> getConnectors() {
        return List.copyOf(connectors);
    }

    /** @return the root handler, or null */
    public Handler getHandler() {
        return root.getHandler();
    }

    /** Sets the root handler; while running it is started and the old one stopped. */
    public void setHandler(Handler handler) {
        root.setHandler(handler);
    }

    /** @return what answers errors (HTML, JSON or text) */
    public ErrorHandler getErrorHandler() {
        return errorHandler;
    }

    public void setErrorHandler(ErrorHandler errorHandler) {
        this.errorHandler = errorHandler;
    }

    /** @return how long a graceful stop waits for in-flight requests (default 10 s) */
    public Duration getStopTimeout() {
        return stopTimeout;
    }

    public void setStopTimeout(Duration stopTimeout) {
        this.stopTimeout = stopTimeout;
    }

    /** Stops the server gracefully when the JVM exits (Ctrl-C). */
    public void setStopAtShutdown(boolean stop) {
        if (stop && shutdownHook == null) {
            shutdownHook = new Thread(() -> {
                try {
                    stop();
                } catch (Exception x) {
                    LOG.warn("Stop at shutdown failed", x);
                }
            }, "wharf-shutdown");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } else if (!stop && shutdownHook != null) {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
            shutdownHook = null;
        }
    }

    /**
     * Runs the handler tree on {@code request}: when no handler takes it, answers 404, or for
     * a target without a path ({@link Request#getPathInContext()} empty) 200 with {@code Allow}
     * to {@code OPTIONS *} and 405 to {@code CONNECT}; fails the callback when a handler
     * throws (the connection then answers 500, or the status of a
     * {@link io.wharf.http.BadMessageException}, and closes). Called by connections.
     */
    public void handle(Request request, Response response, Callback callback) {
        try {
            if (!root.handle(request, response, callback)) {
                ServerWideAnswer.answer(request, response, callback);
            }
        } catch (Throwable x) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("Handler failed for {}", request, x);
            }
            // The callback answers 500 (or the status of a BadMessageException) and closes.
            callback.failed(x);
        }
    }

    /** @return a URI of the first network connector, for logs and demos, or null */
    public URI getURI() {
        for (Connector connector : connectors) {
            if (connector instanceof ServerConnector network && network.getLocalPort() > 0) {
                String host = network.getHost() == null ? "localhost" : network.getHost();
                return URI.create("http://" + host + ":" + network.getLocalPort() + "/");
            }
        }
        return null;
    }

    /** Waits until the server has stopped. */
    public void join() throws InterruptedException {
        threadPool.join();
    }

    @Override
    protected void doStop() throws Exception {
        CompletableFuture<?>[] shutdowns = connectors.stream()
                .filter(AbstractConnector.class::isInstance)
                .map(connector -> ((AbstractConnector) connector).shutdown())
                .toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(shutdowns).get(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException x) {
            LOG.warn("Stopping with requests still in flight after {}", stopTimeout);
        }
        super.doStop();
    }
}
