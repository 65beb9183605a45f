package io.wharf.server.proxy.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.GracefulConnection;
import io.wharf.server.ConnectionFactory;
import io.wharf.server.Connector;
import io.wharf.server.ProxyHeader;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.util.thread.Scheduler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first connection on an endpoint behind a PROXY-protocol balancer: it reads the PROXY
 * header with a {@link ProxyHeaderParser}, then makes the next protocol's connection over a
 * {@link ProxiedEndPoint} (which reports the header's addresses) and upgrades the real
 * endpoint to it, handing over the bytes it read past the header.
 *
 * <p><b>Threads.</b> It never blocks, so {@link #onFillable()} runs on the selector thread;
 * the header timeout runs on the scheduler and only closes the endpoint.
 *
 * <p><b>Buffers.</b> A pooled buffer is borrowed only while bytes are being read and is
 * returned before waiting for more; after the header, the buffer with what follows passes to
 * the next connection ({@link Connection.UpgradeFrom}). When that connection cannot take
 * bytes ({@link Connection.UpgradeTo}) and some followed the header, the connection is closed
 * rather than losing them.
 *
 * <p><b>Failures.</b> A malformed or over-long header, the end of input before the header
 * ends, or the header timeout close the connection without a response (a PROXY peer speaks
 * no HTTP yet); each is logged at debug.
 */
public final class ProxyConnection extends AbstractConnection implements Connection.UpgradeFrom, GracefulConnection {

    private static final Logger LOG = LoggerFactory.getLogger(ProxyConnection.class);

    /** Where the header exchange is; only one of completion and expiry wins. */
    private enum Phase {
        READING, UPGRADED, EXPIRED
    }

    private final Connector connector;
    private final String nextProtocol;
    private final int bufferSize;
    private final Duration headerTimeout;
    private final ProxyHeaderParser parser;
    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.READING);
    /** Set by a graceful stop. */
    private volatile boolean shutdown;
    private volatile Scheduler.Task timeoutTask;
    // Touched only by the thread running onFillable.
    private RetainableByteBuffer buffer;

    /**
     * @param nextProtocol the protocol of the connection to make after the header
     * @param maxV2Length the most bytes of a version 2 header
     * @param headerTimeout how long the whole header may take to arrive
     * @param bufferSize the size of the read buffer, which the next connection inherits
     */
    public ProxyConnection(Connector connector, EndPoint endPoint, String nextProtocol, int maxV2Length,
                           Duration headerTimeout, int bufferSize) {
        super(endPoint, connector.getExecutor());
        this.connector = connector;
        this.nextProtocol = nextProtocol;
        this.headerTimeout = headerTimeout;
        this.bufferSize = bufferSize;
        this.parser = new ProxyHeaderParser(maxV2Length);
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        try {
            timeoutTask = connector.getScheduler().schedule(this::expire, headerTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException x) {
            LOG.debug("No PROXY header timeout for {}: the scheduler is not running", this);
        }
        fillInterested();
    }

    private void expire() {
        if (phase.compareAndSet(Phase.READING, Phase.EXPIRED)) {
            LOG.debug("PROXY header not complete within {} on {}", headerTimeout, this);
            getEndPoint().close(new TimeoutException("PROXY header not complete within " + headerTimeout.toMillis() + " ms"));
        }
    }

    @Override
    public void onFillable() {
        try {
            while (true) {
                if (buffer == null) {
                    buffer = connector.getByteBufferPool().acquire(bufferSize, true);
                }
                ByteBuffer bytes = buffer.byteBuffer();
                if (bytes.hasRemaining()) {
                    ProxyHeader header = parser.parse(bytes);
                    if (header != null) {
                        proceed(header);
                        return;
                    }
                }
                bytes.clear().limit(0);
                int filled = getEndPoint().fill(bytes);
                if (filled == 0) {
                    releaseBuffer();
                    fillInterested();
                    return;
                }
                if (filled < 0) {
                    fail(new IOException("end of input before the PROXY header was complete"));
                    return;
                }
            }
        } catch (ProxyHeaderException | IOException x) {
            fail(x);
        }
    }

    private void fail(Throwable cause) {
        LOG.debug("Closing {}: {}", this, cause.getMessage());
        releaseBuffer();
        getEndPoint().close(cause);
    }

    /** Makes the next connection over the proxied endpoint and upgrades to it. */
    private void proceed(ProxyHeader header) {
        if (!phase.compareAndSet(Phase.READING, Phase.UPGRADED)) {
            // The header timeout closed the endpoint meanwhile.
            releaseBuffer();
            return;
        }
        cancelTimeout();
        ConnectionFactory factory = connector.getConnectionFactory(nextProtocol);
        if (factory == null) {
            LOG.warn("{} has no connection factory for {}, the protocol after PROXY", connector, nextProtocol);
            fail(new IllegalStateException("no connection factory for " + nextProtocol));
            return;
        }
        EndPoint real = getEndPoint();
        Connection next = factory.newConnection(connector, new ProxiedEndPoint(real, header));
        if (!(next instanceof Connection.UpgradeTo) && buffer.byteBuffer().hasRemaining()) {
            fail(new IllegalStateException(next.getClass().getSimpleName() + " cannot take the bytes that followed the PROXY header"));
            return;
        }
        LOG.debug("PROXY header {} on {}; upgrading to {}", header, this, next);
        real.upgrade(next);
    }

    @Override
    public RetainableByteBuffer onUpgradeFrom() {
        RetainableByteBuffer unused = buffer;
        buffer = null;
        if (unused != null && !unused.byteBuffer().hasRemaining()) {
            unused.release();
            return null;
        }
        return unused;
    }

    private void releaseBuffer() {
        RetainableByteBuffer held = buffer;
        if (held != null) {
            buffer = null;
            held.release();
        }
    }

    private void cancelTimeout() {
        Scheduler.Task task = timeoutTask;
        if (task != null) {
            task.cancel();
        }
    }

    /**
     * Closes at once before the header: no request can be in flight yet. After it, the endpoint
     * hands the stop to the connection that took over ({@link GracefulConnection#isShutdown()}).
     */
    @Override
    public void shutdown() {
        shutdown = true;
        if (phase.get() == Phase.READING) {
            getEndPoint().close();
        }
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public void onClose(Throwable cause) {
        // Also called by the upgrade. The buffer is only ever held by the thread in
        // onFillable, which returns it itself when it sees the endpoint closed.
        cancelTimeout();
        super.onClose(cause);
    }

    @Override
    public String toString() {
        return "ProxyConnection@" + Integer.toHexString(hashCode()) + "{" + phase.get() + "->" + nextProtocol + "," + getEndPoint() + "}";
    }
}
