package io.wharf.io.internal;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.util.Arrays;

import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write half of an endpoint: a lock-free state machine that gives
 * {@link io.wharf.io.EndPoint#write} its full-write semantics.
 *
 * <pre>
 *            write()                       all flushed
 *   IDLE ─────────────▶ WRITING ─────────────────────────────▶ IDLE  (callback succeeded)
 *                          │ bytes left
 *                          ▼                 writable, all flushed
 *                       PENDING ─▶ COMPLETING ───────────────────▶ IDLE
 *                          ▲            │ bytes left
 *                          └────────────┘
 *   any state ── onFail / onClose ──▶ FAILED (terminal: later writes fail at once)
 * </pre>
 *
 * <p>Any thread may call {@link #write}; a second write while one is in progress throws
 * {@link WritePendingException}, so bytes from two writers never interleave. When bytes are
 * left, the flusher asks the endpoint to watch for writability
 * ({@link Flusher#onIncompleteFlush()}); the selector then runs this object as a task
 * ({@link #run()} → {@link #completeWrite()}), whose invocation type is that of the pending
 * callback. A failure that races with a thread in WRITING or COMPLETING is left for that
 * thread to see when it tries to leave the state: the callback is completed exactly once.
 *
 * <p>The caller owns the buffers; the flusher only reads them until the callback completes.
 */
public final class WriteFlusher implements Invocable.Task {

    private static final Logger LOG = LoggerFactory.getLogger(WriteFlusher.class);
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WriteFlusher.class, "state", State.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    /** What the endpoint does for the flusher. */
    public interface Flusher {
        /** @return true when every buffer was fully written */
        boolean flush(ByteBuffer... buffers) throws IOException;

        /** Asks to be told (through {@link #completeWrite()}) when the endpoint can write again. */
        void onIncompleteFlush();
    }

    private sealed interface State {
    }

    private enum Simple implements State {
        IDLE, WRITING, COMPLETING
    }

    private record Pending(Callback callback, ByteBuffer[] buffers) implements State {
    }

    private record Failed(Throwable cause) implements State {
    }

    private final Flusher flusher;
    @SuppressWarnings("unused") // accessed through STATE
    private volatile State state = Simple.IDLE;

    public WriteFlusher(Flusher flusher) {
        this.flusher = flusher;
    }

    /**
     * Writes every byte of {@code buffers}, then completes {@code callback}.
     *
     * @throws WritePendingException when a write is in progress
     */
    public void write(Callback callback, ByteBuffer... buffers) {
        if (!STATE.compareAndSet(this, Simple.IDLE, Simple.WRITING)) {
            if (STATE.getVolatile(this) instanceof Failed failed) {
                callback.failed(copyOf(failed.cause));
                return;
            }
            throw new WritePendingException();
        }
        try {
            ByteBuffer[] left = flushSome(buffers);
            if (left == null) {
                leave(Simple.WRITING, Simple.IDLE, callback);
                return;
            }
            if (STATE.compareAndSet(this, Simple.WRITING, new Pending(callback, left))) {
                flusher.onIncompleteFlush();
                return;
            }
            failRaced(callback);
        } catch (Throwable x) {
            fail(Simple.WRITING, callback, x);
        }
    }

    /** The endpoint became writable: continues a pending write, if any. */
    public void completeWrite() {
        if (!(STATE.getVolatile(this) instanceof Pending pending) || !STATE.compareAndSet(this, pending, Simple.COMPLETING)) {
            return;
        }
        Callback callback = pending.callback;
        try {
            ByteBuffer[] left = flushSome(pending.buffers);
            if (left == null) {
                leave(Simple.COMPLETING, Simple.IDLE, callback);
                return;
            }
            State next = left == pending.buffers ? pending : new Pending(callback, left);
            if (STATE.compareAndSet(this, Simple.COMPLETING, next)) {
                flusher.onIncompleteFlush();
                return;
            }
            failRaced(callback);
        } catch (Throwable x) {
            fail(Simple.COMPLETING, callback, x);
        }
    }

    /**
     * Fails the write in progress, if any; an idle flusher stays usable.
     *
     * @return whether a write was failed (or will be, by the thread writing now)
     */
    public boolean onFail(Throwable cause) {
        while (true) {
            State current = (State) STATE.getVolatile(this);
            if (current == Simple.IDLE || current instanceof Failed) {
                return false;
            }
            if (STATE.compareAndSet(this, current, new Failed(cause))) {
                if (current instanceof Pending pending) {
                    pending.callback.failed(cause);
                }
                // WRITING or COMPLETING: that thread sees FAILED and fails its callback.
                return true;
            }
        }
    }

    /** The endpoint closed: fails any write in progress and every later one with {@code cause}. */
    public void onClose(Throwable cause) {
        while (true) {
            State current = (State) STATE.getVolatile(this);
            if (current instanceof Failed) {
                return;
            }
            if (STATE.compareAndSet(this, current, new Failed(cause))) {
                if (current instanceof Pending pending) {
                    pending.callback.failed(cause);
                }
                return;
            }
        }
    }

    /** @return whether a write is in progress */
    public boolean isPending() {
        State current = (State) STATE.getVolatile(this);
        return current != Simple.IDLE && !(current instanceof Failed);
    }

    /** @return whether the flusher failed (terminal) */
    public boolean isFailed() {
        return STATE.getVolatile(this) instanceof Failed;
    }

    @Override
    public void run() {
        completeWrite();
    }

    @Override
    public InvocationType invocationType() {
        return STATE.getVolatile(this) instanceof Pending pending ? pending.callback.invocationType() : InvocationType.NON_BLOCKING;
    }

    /**
     * Flushes, then drops the fully written buffers: null when the flusher reports all written.
     * A flusher that took every byte of the buffers but still holds some of them (a TLS layer
     * with encrypted bytes not yet on the network) returns false: the write stays pending, with
     * no buffer left, until a later flush reports it done.
     */
    private ByteBuffer[] flushSome(ByteBuffer[] buffers) throws IOException {
        if (flusher.flush(buffers)) {
            return null;
        }
        int first = 0;
        while (first < buffers.length && !buffers[first].hasRemaining()) {
            first++;
        }
        return first == 0 ? buffers : Arrays.copyOfRange(buffers, first, buffers.length);
    }

    private void leave(State from, State to, Callback callback) {
        if (STATE.compareAndSet(this, from, to)) {
            callback.succeeded();
        } else {
            failRaced(callback);
        }
    }

    /** Another thread moved us to FAILED while we were writing: complete our callback with its cause. */
    private void failRaced(Callback callback) {
        State current = (State) STATE.getVolatile(this);
        Throwable cause = current instanceof Failed failed ? failed.cause : new IllegalStateException("write state " + current);
        callback.failed(cause);
    }

    private void fail(State from, Callback callback, Throwable cause) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Write failed {}", this, cause);
        }
        if (STATE.compareAndSet(this, from, new Failed(cause))) {
            callback.failed(cause);
        } else {
            failRaced(callback);
        }
    }

    /** A failure reported again to a later writer gets its own exception, with the first as cause. */
    private static Throwable copyOf(Throwable cause) {
        IOException later = new IOException("Write after failure: " + cause, cause);
        return later;
    }

    @Override
    public String toString() {
        return "WriteFlusher@" + Integer.toHexString(hashCode()) + "{" + STATE.getVolatile(this) + "}";
    }
}
