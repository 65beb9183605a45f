package io.wharf.http2.frames.internal;

import java.nio.ByteBuffer;

import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Bytes the frame parser must keep across reads — a frame payload split between two network
 * buffers, or the fragments of a header block — in one pooled buffer, borrowed when the first
 * byte arrives and given back as soon as the bytes are used.
 *
 * <p>Capacities are reserved before bytes are copied and are always bounded by the caller (a
 * frame length already checked against SETTINGS_MAX_FRAME_SIZE, or the header block limit).
 * Not thread-safe: owned by one parser, on the thread that parses.
 */
public final class PayloadBuffer {

    private final ByteBufferPool pool;
    private RetainableByteBuffer buffer;

    public PayloadBuffer(ByteBufferPool pool) {
        this.pool = pool;
    }

    /** @return whether no byte is held (and no buffer borrowed) */
    public boolean isEmpty() {
        return buffer == null;
    }

    /** @return the number of bytes held */
    public int length() {
        return buffer == null ? 0 : buffer.remaining();
    }

    /**
     * Makes room for {@code total} bytes in all, borrowing a buffer or moving to a larger one
     * (at least twice as large, so many small additions copy little).
     */
    public void reserve(int total) {
        if (buffer == null) {
            buffer = pool.acquire(total, false);
        } else if (buffer.capacity() < total) {
            RetainableByteBuffer larger = pool.acquire(Math.max(total, 2 * buffer.capacity()), false);
            ByteBuffers.append(larger.byteBuffer(), buffer.byteBuffer());
            buffer.release();
            buffer = larger;
        }
    }

    /** Copies {@code length} bytes from absolute index {@code offset} of {@code source}; room must be reserved. */
    public void append(ByteBuffer source, int offset, int length) {
        if (length == 0) {
            return;
        }
        reserve(length() + length);
        ByteBuffer target = buffer.byteBuffer();
        int end = target.limit();
        target.limit(end + length);
        target.put(end, source, offset, length);
    }

    /** @return the bytes held, in flush mode; valid until {@link #release()} */
    public ByteBuffer bytes() {
        return buffer == null ? ByteBuffers.EMPTY : buffer.byteBuffer();
    }

    /** Forgets the bytes and gives the buffer back to the pool. */
    public void release() {
        if (buffer != null) {
            RetainableByteBuffer released = buffer;
            buffer = null;
            released.release();
        }
    }
}
