package io.wharf.io;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.thread.Scheduler;

/**
 * One end of an in-memory byte pipe, for tests and in-process connectors: the server's
 * {@code LocalConnector} speaks HTTP over it without a socket. Each end buffers at most {@code capacity}
 * bytes that its peer flushed and it has not read, so with a small capacity every flush is
 * partial and every read short: the TLS layer above meets all its waits. Wake-ups (readable,
 * writable) run on the executor, never inline. Shutting the output is a FIN; closing is a FIN
 * plus "broken pipe" for the peer's later writes.
 */
public final class MemoryEndPoint extends AbstractEndPoint {

    private final Object lock;
    private final Executor executor;
    private final ByteBuffer inbound;
    private MemoryEndPoint peer;
    // Guarded by lock:
    private boolean inputEnded;
    private boolean fillWanted;
    private boolean writeWanted;

    private volatile java.util.function.Consumer<Throwable> closeListener = cause -> { };

    private MemoryEndPoint(Object lock, Executor executor, Scheduler scheduler, int capacity) {
        super(scheduler, executor);
        this.lock = lock;
        this.executor = executor;
        this.inbound = ByteBuffer.allocate(capacity).limit(0);
    }

    /** @return two connected ends, each buffering at most {@code capacity} bytes */
    public static MemoryEndPoint[] pipe(int capacity, Executor executor) {
        return pipe(capacity, executor, null);
    }

    /**
     * @param scheduler runs idle timeouts; null for none
     * @return two connected ends, each buffering at most {@code capacity} bytes
     */
    public static MemoryEndPoint[] pipe(int capacity, Executor executor, Scheduler scheduler) {
        Object lock = new Object();
        MemoryEndPoint a = new MemoryEndPoint(lock, executor, scheduler, capacity);
        MemoryEndPoint b = new MemoryEndPoint(lock, executor, scheduler, capacity);
        a.peer = b;
        b.peer = a;
        return new MemoryEndPoint[] {a, b};
    }

    /** Sets what to tell, once, after this end closed (the cause, or null for a normal close). */
    public void setCloseListener(java.util.function.Consumer<Throwable> listener) {
        this.closeListener = listener;
    }

    @Override
    protected void onClosed(Throwable cause) {
        closeListener.accept(cause);
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return null;
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return null;
    }

    @Override
    public Object getTransport() {
        return inbound;
    }

    @Override
    public int fill(ByteBuffer buffer) throws IOException {
        if (isInputShutdown()) {
            return -1;
        }
        int moved;
        boolean ended;
        boolean wakeWriter = false;
        synchronized (lock) {
            moved = ByteBuffers.append(buffer, inbound);
            ended = moved == 0 && inputEnded && !inbound.hasRemaining();
            if (moved > 0 && peer.writeWanted) {
                peer.writeWanted = false;
                wakeWriter = true;
            }
        }
        if (wakeWriter) {
            executor.execute(peer::writable);
        }
        if (ended) {
            onInputEnd();
            return -1;
        }
        return moved;
    }

    @Override
    public boolean flush(ByteBuffer... buffers) throws IOException {
        if (isOutputShutdown()) {
            throw new EofException("Output shut: " + this);
        }
        boolean wakeReader = false;
        synchronized (lock) {
            if (!peer.isOpen()) {
                throw new IOException("Broken pipe: the peer closed");
            }
            int moved = 0;
            for (ByteBuffer buffer : buffers) {
                moved += ByteBuffers.append(peer.inbound, buffer);
            }
            if (moved > 0 && peer.fillWanted) {
                peer.fillWanted = false;
                wakeReader = true;
            }
        }
        if (wakeReader) {
            executor.execute(peer::readable);
        }
        return !ByteBuffers.hasRemaining(buffers);
    }

    @Override
    protected void needsFillInterest() {
        boolean now;
        synchronized (lock) {
            now = inbound.hasRemaining() || inputEnded;
            fillWanted = !now;
        }
        if (now) {
            executor.execute(this::readable);
        }
    }

    @Override
    protected void onIncompleteFlush() {
        boolean now;
        synchronized (lock) {
            now = peer.inbound.limit() < peer.inbound.capacity() || peer.inbound.position() > 0 || !peer.isOpen();
            writeWanted = !now;
        }
        if (now) {
            executor.execute(this::writable);
        }
    }

    @Override
    protected void doShutdownOutput() {
        endPeerInput();
    }

    @Override
    protected void doClose() {
        endPeerInput();
        boolean wakeWriter;
        synchronized (lock) {
            wakeWriter = peer.writeWanted;
            peer.writeWanted = false;
        }
        if (wakeWriter) {
            executor.execute(peer::writable);
        }
    }

    private void endPeerInput() {
        boolean wakeReader;
        synchronized (lock) {
            peer.inputEnded = true;
            wakeReader = peer.fillWanted;
            peer.fillWanted = false;
        }
        if (wakeReader) {
            executor.execute(peer::readable);
        }
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return super.toString() + "{inbound=" + inbound.remaining() + ",ended=" + inputEnded + ",fillWanted=" + fillWanted
                + ",writeWanted=" + writeWanted + "}";
        }
    }

    private void readable() {
        fillable();
    }

    private void writable() {
        completeWrite();
    }
}
