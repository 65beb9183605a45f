package io.wharf.io.internal;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;

import io.wharf.io.AbstractEndPoint;
import io.wharf.io.EofException;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBuffers;

/**
 * An {@link io.wharf.io.EndPoint} over a non-blocking {@link SocketChannel}: TCP, or a Unix
 * domain socket (JEP 380), which the JDK serves through the same channel type.
 *
 * <h2>Interest updates, lock-free</h2>
 * The interest the endpoint wants and whether an update is pending are kept in one atomic
 * int. Any thread may add interest ({@link #needsFillInterest()},
 * {@link #onIncompleteFlush()}); only the selector thread touches the key. When the
 * selector selects the key, {@link #onSelected()} removes the ready operations from the
 * wanted set and marks an update pending; adders that find an update pending just add their
 * bit, knowing the selector will apply the latest set in {@link #updateKey()}; an adder that
 * finds none pending marks one and submits this endpoint to the selector. The compare-and-set
 * on one word means no update overwrites another and no wanted bit is lost.
 *
 * <h2>Idle timeout, swept</h2>
 * No scheduled task: the loop's {@link IdleSweep} walks the keys on the selector thread and
 * calls {@link #checkIdleTimeout(long)}; a new idle timeout is told to the loop so that its sweep
 * period fits the smallest timeout.
 *
 * <p>Buffers: none held. {@code fill} appends to the caller's buffer.
 */
public final class SocketChannelEndPoint extends AbstractEndPoint implements Selectable {

    private static final int PENDING = 1 << 16;
    private static final int OPS = 0xFFFF;
    private static final VarHandle INTEREST;

    static {
        try {
            INTEREST = MethodHandles.lookup().findVarHandle(SocketChannelEndPoint.class, "interest", int.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final SocketChannel channel;
    private final SelectorLoop loop;
    private final SelectionKey key;
    @SuppressWarnings("unused") // accessed through INTEREST
    private volatile int interest;

    /** @param executor runs the connection's idle expiry, among others ({@link AbstractEndPoint}) */
    public SocketChannelEndPoint(SocketChannel channel, SelectorLoop loop, SelectionKey key, Executor executor) {
        super(null, executor);
        this.channel = channel;
        this.loop = loop;
        this.key = key;
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        try {
            return channel.getLocalAddress();
        } catch (IOException x) {
            return null;
        }
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        try {
            return channel.getRemoteAddress();
        } catch (IOException x) {
            return null;
        }
    }

    @Override
    public Object getTransport() {
        return channel;
    }

    /** Whether the last fill left room in its buffer: the reading thread's. */
    private boolean drained;

    @Override
    public boolean isDrained() {
        return drained;
    }

    @Override
    public int fill(ByteBuffer buffer) throws IOException {
        if (isInputShutdown()) {
            Throwable closed = closeCause();
            if (closed != null) {
                // Closed here, not by the peer: a read racing with the close (closing a channel
                // makes the selector report it readable) must not pass for the peer's end of input.
                throw closed instanceof IOException io ? io : new EofException("Closed: " + closed.getMessage(), closed);
            }
            return -1;
        }
        int position = ByteBuffers.flipToFill(buffer);
        int room = buffer.remaining();
        int filled;
        try {
            filled = channel.read(buffer);
        } catch (IOException x) {
            close(x);
            throw x;
        } finally {
            ByteBuffers.flipToFlush(buffer, position);
        }
        // A read that left room took all the socket had (TCP gives what there is, up to the room).
        drained = filled >= 0 && filled < room;
        if (filled > 0) {
            notIdle();
        } else if (filled < 0) {
            onInputEnd();
        }
        return filled;
    }

    @Override
    public boolean flush(ByteBuffer... buffers) throws IOException {
        if (isOutputShutdown()) {
            throw new EofException("Output shut: " + this);
        }
        long flushed;
        try {
            flushed = buffers.length == 1 ? channel.write(buffers[0]) : channel.write(buffers);
        } catch (IOException x) {
            close(x);
            throw x;
        }
        if (flushed > 0) {
            notIdle();
        }
        for (ByteBuffer buffer : buffers) {
            if (buffer.hasRemaining()) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected void needsFillInterest() {
        addInterest(SelectionKey.OP_READ);
    }

    @Override
    protected void onIncompleteFlush() {
        addInterest(SelectionKey.OP_WRITE);
    }

    private void addInterest(int operation) {
        while (true) {
            int current = (int) INTEREST.getVolatile(this);
            int next = current | operation | PENDING;
            if (current == next) {
                return;
            }
            if (INTEREST.compareAndSet(this, current, next)) {
                if ((current & PENDING) == 0) {
                    loop.submit(this);
                }
                return;
            }
        }
    }

    @Override
    public Runnable onSelected() {
        int ready;
        try {
            ready = key.readyOps();
        } catch (CancelledKeyException x) {
            close(new EofException("Selection key cancelled: " + this));
            return null;
        }
        while (true) {
            int current = (int) INTEREST.getVolatile(this);
            if (INTEREST.compareAndSet(this, current, (current & ~ready) | PENDING)) {
                break;
            }
        }
        boolean readable = (ready & SelectionKey.OP_READ) != 0;
        boolean writable = (ready & SelectionKey.OP_WRITE) != 0;
        if (readable && writable) {
            return new ReadWrite();
        }
        if (readable) {
            return fillInterest();
        }
        if (writable) {
            return writeFlusher();
        }
        return null;
    }

    @Override
    public void updateKey() {
        int operations;
        while (true) {
            int current = (int) INTEREST.getVolatile(this);
            operations = current & OPS;
            if (INTEREST.compareAndSet(this, current, operations)) {
                break;
            }
        }
        try {
            if (key.isValid() && key.interestOps() != operations) {
                key.interestOps(operations);
            }
        } catch (CancelledKeyException x) {
            close(new EofException("Selection key cancelled: " + this));
        } catch (Throwable x) {
            close(x);
        }
    }

    /** The loop's {@link IdleSweep} checks this endpoint's idle timeout; selector thread. */
    void checkIdleTimeout(long nowNanos) {
        sweepIdle(nowNanos);
    }

    @Override
    protected void onIdleTimeoutSet(long idleTimeoutMillis) {
        loop.idleTimeoutSet(idleTimeoutMillis);
    }

    @Override
    public void onSelectorClosing() {
        close(new EofException("Selector closing"));
    }

    @Override
    protected void doShutdownOutput() throws IOException {
        if (channel.isOpen()) {
            channel.shutdownOutput();
        }
    }

    @Override
    protected void doClose() throws IOException {
        try {
            channel.close();
        } finally {
            // A registered channel's socket is released when the selector deregisters the key.
            loop.wakeupForClose();
        }
    }

    @Override
    protected void onClosed(Throwable cause) {
        loop.onEndPointClosed(this, cause);
    }

    /** @return the interest wanted now, for tests and dumps */
    int wantedInterest() {
        return (int) INTEREST.getVolatile(this) & OPS;
    }

    /** Both directions became ready in one selection. Rare: allocated on demand. */
    private final class ReadWrite implements Invocable.Task {
        @Override
        public void run() {
            completeWrite();
            fillable();
        }

        @Override
        public InvocationType invocationType() {
            return fillInterest().invocationType().combine(writeFlusher().invocationType());
        }
    }

    @Override
    public String toString() {
        String keyState;
        try {
            keyState = key.isValid() ? Integer.toString(key.interestOps()) : "invalid";
        } catch (CancelledKeyException x) {
            keyState = "cancelled";
        }
        return super.toString() + "{wanted=" + wantedInterest() + ",key=" + keyState + "}";
    }
}
