package io.wharf.http2.session;

import java.io.IOException;
import java.nio.ByteBuffer;

import io.wharf.io.EndPoint;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The reading half of an HTTP/2 connection of either role: fills a network buffer from the
 * endpoint and hands it to the {@link Http2Session} until no more bytes are there. The
 * connection calls {@link #read()} from its {@code onFillable()} and sets fill interest, or
 * closes, as it answers.
 *
 * <p><b>Threads.</b> One reading thread at a time (the connection's). <b>Buffers.</b> The network
 * buffer is borrowed from the pool when bytes arrive; DATA chunks are slices that retain it, so a
 * buffer still referenced is let go (its last chunk releases it) and a fresh one taken for the
 * next read; an empty, unreferenced buffer goes back at once: an idle connection holds none.
 */
public final class NetworkReader {

    private final Http2Session session;
    private final EndPoint endPoint;
    private final ByteBufferPool pool;
    private final int bufferSize;
    private RetainableByteBuffer network;
    /** Whether the last fill took all the endpoint had: after parsing it, wait for fill interest rather than fill again. */
    private boolean drained;

    public NetworkReader(Http2Session session, ByteBufferPool pool, int bufferSize) {
        this.session = session;
        this.endPoint = session.getEndPoint();
        this.pool = pool;
        this.bufferSize = bufferSize;
    }

    /** Takes bytes read before this connection took over (an upgrade's leftovers), parsed at the next {@link #read()}. */
    public void prefill(RetainableByteBuffer prefilled) {
        network = prefilled;
    }

    /** @return whether bytes wait to be parsed (then read at once rather than waiting for fill interest) */
    public boolean hasBytes() {
        return network != null && network.hasRemaining();
    }

    /**
     * Parses what is buffered, then fills and parses until no bytes are left.
     *
     * @return 0 when the endpoint has no more bytes now (set fill interest), -1 at the end of input
     * @throws IOException when reading failed; the buffer was released
     */
    public int read() throws IOException {
        try {
            while (true) {
                if (hasBytes()) {
                    session.parse(network);
                }
                if (drained && !hasBytes()) {
                    // A read now would nearly always find nothing: one frame answers one request.
                    drained = false;
                    releaseIfUnused();
                    return 0;
                }
                int filled = fill();
                if (filled > 0) {
                    drained = endPoint.isDrained();
                    continue;
                }
                releaseIfUnused();
                return filled;
            }
        } catch (IOException | RuntimeException x) {
            releaseIfUnused();
            throw x;
        }
    }

    /** Reads into the network buffer, taking a new one when chunks still reference the current one. */
    private int fill() throws IOException {
        if (network != null && network.isRetained()) {
            RetainableByteBuffer referenced = network;
            network = null;
            referenced.release();
        }
        if (network == null) {
            network = pool.acquire(bufferSize, true);
        }
        ByteBuffer buffer = network.byteBuffer();
        buffer.clear().limit(0);
        return endPoint.fill(buffer);
    }

    private void releaseIfUnused() {
        RetainableByteBuffer buffer = network;
        if (buffer != null && !buffer.hasRemaining()) {
            network = null;
            buffer.release();
        }
    }
}
