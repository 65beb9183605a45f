package io.wharf.io;

import java.util.concurrent.Executor;

import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The base of most connections: it holds the endpoint and an executor, and turns "the
 * endpoint is fillable" into a call to {@link #onFillable()}.
 *
 * <p>A subclass reads in {@link #onFillable()} until {@link EndPoint#fill} returns 0, then
 * calls {@link #fillInterested()} to wait for more. {@link #onFillable()} runs on the thread
 * the execution strategy picks: the selector's own thread when this connection declares
 * {@link InvocationType#NON_BLOCKING} through {@link #invocationType()}, another otherwise.
 *
 * <p>Buffers: this class holds none. A subclass that follows the rule "no buffer until there
 * are bytes" acquires its read buffer in {@code onFillable()} and releases it when empty.
 */
public abstract class AbstractConnection implements Connection {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractConnection.class);

    private final EndPoint endPoint;
    private final Executor executor;
    private final Callback readCallback = new ReadCallback();

    protected AbstractConnection(EndPoint endPoint, Executor executor) {
        this.endPoint = endPoint;
        this.executor = executor;
    }

    @Override
    public EndPoint getEndPoint() {
        return endPoint;
    }

    /** @return the executor for work that must leave the current thread */
    public Executor getExecutor() {
        return executor;
    }

    /** Asks to be called at {@link #onFillable()} when bytes arrive. */
    public void fillInterested() {
        endPoint.fillInterested(readCallback);
    }

    /** @return false when an interest was already registered */
    public boolean tryFillInterested() {
        return endPoint.tryFillInterested(readCallback);
    }

    /** @return whether this connection waits for bytes */
    public boolean isFillInterested() {
        return endPoint.isFillInterested();
    }

    /** Bytes (or the end of input) can be read from the endpoint. */
    public abstract void onFillable();

    /**
     * Waiting for bytes failed (the endpoint closed, timed out, or failed). By default the
     * endpoint is closed with the cause.
     */
    protected void onFillInterestedFailed(Throwable cause) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Fill interest failed {}", this, cause);
        }
        endPoint.close(cause);
    }

    @Override
    public void onOpen() {
    }

    @Override
    public void onClose(Throwable cause) {
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "@" + Integer.toHexString(hashCode()) + "{" + endPoint + "}";
    }

    /** The read callback: its invocation type is the connection's. */
    private final class ReadCallback implements Callback {
        @Override
        public void succeeded() {
            onFillable();
        }

        @Override
        public void failed(Throwable cause) {
            onFillInterestedFailed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return AbstractConnection.this.invocationType();
        }

        @Override
        public String toString() {
            return "ReadCallback@" + AbstractConnection.this;
        }
    }
}
