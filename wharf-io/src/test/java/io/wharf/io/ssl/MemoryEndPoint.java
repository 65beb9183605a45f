package io.wharf.io.ssl;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

import io.wharf.io.AbstractEndPoint;
import io.wharf.io.EofException;
import io.wharf.util.buffer.ByteBuffers;

/**
 * Test helper: one end of an in-memory byte pipe. Each end buffers at most {@code capacity}
 * bytes that its peer flushed and it has not read, so with a small capacity every flush is
 * partial and every read short: the TLS layer above meets all its waits. Wake-ups (readable,
 * writable) run on the executor, never inline. Shutting the output is a FIN; closing is a FIN
 * plus "broken pipe" for the peer's later writes.
 */
final class MemoryEndPoint extends AbstractEndPoint {

    private final Object lock;
    private final Executor executor;
    private final ByteBuffer inbound;
    private MemoryEndPoint peer;
    // Guarded by lock:
    private boolean inputEnded;
    private boolean fillWanted;
    private boolean writeWanted;

    private MemoryEndPoint(Object lock, Executor executor, int capacity) {
        super(null, executor);
        this.lock = lock;
        this.executor = executor;
        this.inbound = ByteBuffer.allocate(capacity).limit(0);
    }

    /** @return two connected ends, each buffering at most {@code capacity} bytes */
    static MemoryEndPoint[] pipe(int capacity, Executor executor) {
        Object lock = new Object();
        MemoryEndPoint a = new MemoryEndPoint(lock, executor, capacity);
        MemoryEndPoint b = new MemoryEndPoint(lock, executor, capacity);
        a.peer = b;
        b.peer = a;
        return new MemoryEndPoint[] {a, b};
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
