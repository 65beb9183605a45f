package io.wharf.io;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadPendingException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.io.internal.FillInterest;
import io.wharf.io.internal.WriteFlusher;
import io.wharf.util.Callback;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.util.thread.Scheduler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every {@link EndPoint} shares: the open/half-closed/closed state, the pending read
 * ({@link FillInterest}) and write ({@link WriteFlusher}), the idle timeout, upgrade and
 * the close sequence. Subclasses move the bytes ({@link #fill}, {@link #flush}) and arrange
 * to be told of readability and writability ({@link #needsFillInterest()},
 * {@link #onIncompleteFlush()}), then call {@link #fillable()} and {@link #completeWrite()}.
 *
 * <p>Threading: any thread may read, write, register interest or close; the state changes
 * are atomic. The connection's callbacks run on whichever thread completes them.
 *
 * <p>Idle timeout: the hot path only stores a timestamp. With a scheduler, one scheduled check
 * per endpoint, rescheduled for the time left since the last byte moved. Without one, an
 * owner may sweep the endpoint instead ({@link #sweepIdle(long)}, told of timeout changes by
 * {@link #onIdleTimeoutSet(long)}): selector loops do so for their socket endpoints.
 */
public abstract class AbstractEndPoint implements EndPoint {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractEndPoint.class);
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(AbstractEndPoint.class, "state", Half.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    /** Which directions are still open. */
    private enum Half {
        NEW, OPEN, INPUT_SHUT, OUTPUT_SHUT, CLOSED
    }

    private final long createdTimeStamp = System.currentTimeMillis();
    private final Scheduler scheduler;
    private final Executor executor;
    private final FillInterest fillInterest = new FillInterest(this::needsFillInterest);
    private final WriteFlusher writeFlusher = new WriteFlusher(new WriteFlusher.Flusher() {
        @Override
        public boolean flush(ByteBuffer... buffers) throws IOException {
            return AbstractEndPoint.this.flush(buffers);
        }

        @Override
        public void onIncompleteFlush() {
            AbstractEndPoint.this.onIncompleteFlush();
        }
    });
    @SuppressWarnings("unused") // accessed through STATE
    private volatile Half state = Half.NEW;
    private volatile Connection connection;
    private volatile long idleTimeout;
    private volatile long lastActivityNanos = System.nanoTime();
    /**
     * On a swept endpoint (no scheduler), {@link #notIdle()} sets this instead of reading the
     * clock on every read and write; the next sweep turns it into the sweep's time.
     */
    private volatile boolean active;
    private volatile Scheduler.Task idleCheck;
    /** Why this side closed the endpoint, when it was with a cause; set before the channel closes. */
    private volatile Throwable closeCause;

    /**
     * @param scheduler runs the idle timeout checks; null for no scheduled checks (no idle
     *     timeout, unless the endpoint is swept with {@link #sweepIdle(long)})
     * @param executor runs events that must not run on the caller's thread ({@link Connection#onInputShutdown()},
     *     the idle expiry of a swept endpoint)
     */
    protected AbstractEndPoint(Scheduler scheduler, Executor executor) {
        this.scheduler = scheduler;
        this.executor = executor;
    }

    // ---- subclass contract ----

    /** Arranges for {@link #fillable()} to be called when reading may make progress. */
    protected abstract void needsFillInterest() throws IOException;

    /** Arranges for {@link #completeWrite()} to be called when writing may make progress. */
    protected abstract void onIncompleteFlush();

    /** Half-closes the transport's output. */
    protected abstract void doShutdownOutput() throws IOException;

    /** Closes the transport. Called once. */
    protected abstract void doClose() throws IOException;

    /** Readability arrived: completes the fill interest. */
    protected final void fillable() {
        fillInterest.fillable();
    }

    /** Writability arrived: continues the pending write. */
    protected final void completeWrite() {
        writeFlusher.completeWrite();
    }

    /** @return the pending-read task, for selectors that run it directly */
    protected final FillInterest fillInterest() {
        return fillInterest;
    }

    /** @return the pending-write task, for selectors that run it directly */
    protected final WriteFlusher writeFlusher() {
        return writeFlusher;
    }

    /**
     * Records that bytes moved, postponing the idle timeout. Subclasses call it on progress.
     * A swept endpoint only raises a flag here, read by its next sweep: no clock is read per
     * read or write, and the expiry may come up to one more sweep period late.
     */
    protected final void notIdle() {
        if (scheduler != null) {
            lastActivityNanos = System.nanoTime();
        } else if (!active) {
            active = true;
        }
    }

    /**
     * Records the end of input seen by {@link #fill}; closes when output is shut too,
     * else tells the connection asynchronously.
     */
    protected final void onInputEnd() {
        while (true) {
            Half current = (Half) STATE.getVolatile(this);
            switch (current) {
                case NEW, OPEN -> {
                    if (STATE.compareAndSet(this, current, Half.INPUT_SHUT)) {
                        tellInputShutdown();
                        return;
                    }
                }
                case OUTPUT_SHUT -> {
                    close(null);
                    return;
                }
                default -> {
                    return;
                }
            }
        }
    }

    private void tellInputShutdown() {
        Connection connection = this.connection;
        if (connection == null || executor == null) {
            return;
        }
        try {
            executor.execute(() -> {
                if (isOpen() && !isOutputShutdown()) {
                    connection.onInputShutdown();
                }
            });
        } catch (RejectedExecutionException x) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("Could not tell {} of input shutdown", connection, x);
            }
        }
    }

    // ---- EndPoint ----

    @Override
    public void onOpen() {
        if (STATE.compareAndSet(this, Half.NEW, Half.OPEN)) {
            // The exact time, not the activity flag: the first sweep may be a long period away.
            lastActivityNanos = System.nanoTime();
            scheduleIdleCheck(idleTimeout);
        }
    }

    @Override
    public boolean isOpen() {
        return STATE.getVolatile(this) != Half.CLOSED;
    }

    @Override
    public boolean isInputShutdown() {
        Half current = (Half) STATE.getVolatile(this);
        return current == Half.INPUT_SHUT || current == Half.CLOSED;
    }

    @Override
    public boolean isOutputShutdown() {
        Half current = (Half) STATE.getVolatile(this);
        return current == Half.OUTPUT_SHUT || current == Half.CLOSED;
    }

    @Override
    public long getCreatedTimeStamp() {
        return createdTimeStamp;
    }

    @Override
    public void shutdownOutput() {
        while (true) {
            Half current = (Half) STATE.getVolatile(this);
            switch (current) {
                case NEW, OPEN -> {
                    if (STATE.compareAndSet(this, current, Half.OUTPUT_SHUT)) {
                        try {
                            doShutdownOutput();
                        } catch (IOException x) {
                            close(x);
                        }
                        return;
                    }
                }
                case INPUT_SHUT -> {
                    close(null);
                    return;
                }
                default -> {
                    return;
                }
            }
        }
    }

    @Override
    public void close(Throwable cause) {
        if (cause != null && closeCause == null && isOpen()) {
            // Before the state changes: a read that sees the endpoint closed also sees why.
            closeCause = cause;
        }
        Half previous = (Half) STATE.getAndSet(this, Half.CLOSED);
        if (previous == Half.CLOSED) {
            return;
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("Close {}", this, cause);
        }
        Scheduler.Task check = idleCheck;
        if (check != null) {
            check.cancel();
        }
        try {
            doClose();
        } catch (Throwable x) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("Close failed {}", this, x);
            }
        }
        Throwable failure = cause != null ? cause : new EofException("Closed: " + this);
        fillInterest.onFail(failure);
        writeFlusher.onClose(cause != null ? cause : new ClosedChannelException());
        Connection connection = this.connection;
        if (connection != null) {
            try {
                connection.onClose(cause);
            } catch (Throwable x) {
                LOG.warn("onClose failed for {}", connection, x);
            }
        }
        onClosed(cause);
    }

    /**
     * @return the cause this side closed the endpoint with (an idle timeout, a failure), or null
     *     while it is open, or when it closed without a cause. Set before the transport closes:
     *     a read that races with the close (a selector may report a channel it is closing as
     *     readable before the pending read is failed) fails with it instead of reporting the
     *     peer's end of input
     */
    protected final Throwable closeCause() {
        return closeCause;
    }

    /** Called last in the close sequence; subclasses release what they hold. */
    protected void onClosed(Throwable cause) {
    }

    @Override
    public void fillInterested(Callback callback) {
        // Not through FillInterest.register, which calls tryRegister: one call less on the hottest path (see FillInterest.CALLBACK).
        if (!fillInterest.tryRegister(callback)) {
            throw new ReadPendingException();
        }
    }

    @Override
    public boolean tryFillInterested(Callback callback) {
        return fillInterest.tryRegister(callback);
    }

    @Override
    public boolean isFillInterested() {
        return fillInterest.isInterested();
    }

    @Override
    public void write(Callback callback, ByteBuffer... buffers) {
        writeFlusher.write(callback, buffers);
    }

    /** @return whether a write is in progress */
    public boolean isWritePending() {
        return writeFlusher.isPending();
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public void setConnection(Connection connection) {
        this.connection = connection;
    }

    @Override
    public void upgrade(Connection next) {
        Connection previous = connection;
        RetainableByteBuffer unused = previous instanceof Connection.UpgradeFrom from ? from.onUpgradeFrom() : null;
        if (LOG.isDebugEnabled()) {
            LOG.debug("Upgrade {} -> {} with {}", previous, next, unused);
        }
        if (previous != null) {
            previous.onClose(null);
        }
        setConnection(next);
        if (unused != null) {
            if (next instanceof Connection.UpgradeTo to) {
                to.onUpgradeTo(unused);
            } else {
                int dropped = unused.remaining();
                unused.release();
                if (dropped > 0) {
                    LOG.warn("{} dropped {} unused bytes when upgrading to {}, which cannot take them", this, dropped, next);
                }
            }
        }
        next.onOpen();
        if (previous instanceof GracefulConnection stopped && stopped.isShutdown()) {
            // A stop that reached the previous connection, perhaps after it read it as this
            // endpoint's connection: the next one finishes too. The stop sets its flag before it
            // reads the endpoint's connection again; this set the connection before reading the
            // flag, so one of the two always hands it on.
            GracefulConnection.shutdown(this);
        }
    }

    // ---- idle timeout ----

    @Override
    public long getIdleTimeout() {
        return idleTimeout;
    }

    @Override
    public void setIdleTimeout(long idleTimeoutMillis) {
        long previous = idleTimeout;
        idleTimeout = idleTimeoutMillis;
        onIdleTimeoutSet(idleTimeoutMillis);
        if (STATE.getVolatile(this) == Half.NEW) {
            return;
        }
        if (idleTimeoutMillis > 0 && (previous <= 0 || idleTimeoutMillis < previous)) {
            Scheduler.Task check = idleCheck;
            if (check != null) {
                check.cancel();
            }
            scheduleIdleCheck(idleTimeoutMillis);
        }
    }

    private void scheduleIdleCheck(long delayMillis) {
        if (delayMillis <= 0 || scheduler == null || !isOpen()) {
            return;
        }
        try {
            idleCheck = scheduler.schedule(this::checkIdle, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException x) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("No idle timeout for {}: scheduler not running", this);
            }
        }
    }

    /**
     * The idle timeout was set (on any thread, also before {@link #onOpen()}). Endpoints whose
     * idle timeouts are swept rather than scheduled tell their sweeper here. By default nothing.
     */
    protected void onIdleTimeoutSet(long idleTimeoutMillis) {
    }

    /** The scheduled check: expires the endpoint, or schedules itself again for the time left. */
    private void checkIdle() {
        long timeout = idleTimeout;
        if (timeout <= 0 || !isOpen()) {
            return;
        }
        long idleMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastActivityNanos);
        if (idleMillis < timeout) {
            scheduleIdleCheck(timeout - idleMillis);
            return;
        }
        if (expireIdle(idleMillis, timeout)) {
            scheduleIdleCheck(timeout);
        }
    }

    /**
     * The swept check, for endpoints constructed without a scheduler whose owner walks them
     * periodically (a selector loop, on its own thread). When the idle timeout expired, the
     * expiry ({@link Connection#onIdleExpired}, then close or keep open) is handed to the
     * executor, as the connection may do work that must not run on the sweeping thread; the
     * idle time restarts now, so later sweeps do not hand it again. Activity is seen at the
     * first sweep after it, so an endpoint expires between one and two sweep periods after
     * its timeout. Allocates only on expiry.
     */
    protected final void sweepIdle(long nowNanos) {
        long timeout = idleTimeout;
        if (timeout <= 0 || STATE.getVolatile(this) == Half.NEW || !isOpen()) {
            return;
        }
        if (active) {
            // Bytes moved since the last sweep: idle from now on.
            active = false;
            lastActivityNanos = nowNanos;
            return;
        }
        long idleMillis = TimeUnit.NANOSECONDS.toMillis(nowNanos - lastActivityNanos);
        if (idleMillis < timeout) {
            return;
        }
        lastActivityNanos = nowNanos;
        Runnable expiry = () -> {
            if (isOpen()) {
                expireIdle(idleMillis, timeout);
            }
        };
        if (executor == null) {
            expiry.run();
            return;
        }
        try {
            executor.execute(expiry);
        } catch (RejectedExecutionException x) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("Idle expiry of {} runs on the sweeping thread: executor not running", this);
            }
            expiry.run();
        }
    }

    /** @return true when the connection kept the endpoint open, false when it was closed */
    private boolean expireIdle(long idleMillis, long timeout) {
        TimeoutException expired = new TimeoutException("Idle timeout expired: " + idleMillis + "/" + timeout + " ms");
        Connection connection = this.connection;
        boolean close = connection == null || connection.onIdleExpired(expired);
        if (LOG.isDebugEnabled()) {
            LOG.debug("Idle timeout {} close={} {}", expired.getMessage(), close, this);
        }
        if (close) {
            close(expired);
            return false;
        }
        // Kept open: idle from now, exactly.
        lastActivityNanos = System.nanoTime();
        return true;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "@" + Integer.toHexString(hashCode())
            + "{" + getLocalSocketAddress() + "<->" + getRemoteSocketAddress() + "," + STATE.getVolatile(this)
            + ",fill=" + (fillInterest.isInterested() ? "interested" : "-") + ",write=" + (writeFlusher.isPending() ? "pending" : "-")
            + ",idle=" + idleTimeout + "}";
    }
}
