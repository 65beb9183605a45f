package io.wharf.http2.frames;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The bytes of frames a {@link FrameGenerator} wrote, in order, ready for one gather write:
 * pooled buffers holding frame headers, control payloads and header blocks, and slices of the
 * caller's DATA payloads, which are never copied.
 *
 * <p><b>Ownership.</b> The pooled buffers belong to this object until {@link #release()}, which
 * the writer calls once the bytes are written (or will never be). The DATA slices belong to
 * whoever passed them to the generator: that buffer must not change until the write is done.
 * Consecutive control frames share one pooled buffer.
 *
 * <p>Not thread-safe: filled by the generating thread, then handed with the write to the
 * thread that completes it. Reusable after {@link #release()}.
 */
public final class FrameBuffers {

    private final ByteBufferPool pool;
    private final boolean direct;
    private ByteBuffer[] buffers = new ByteBuffer[8];
    private RetainableByteBuffer[] owned = new RetainableByteBuffer[4];
    private int size;
    private int ownedSize;
    /** The pooled buffer that new bytes may still be appended to, when it is the last entry. */
    private RetainableByteBuffer tail;
    private int writeStart = -1;

    /**
     * @param pool where the buffers for frame bytes come from
     * @param direct whether to take direct buffers (for a socket) or heap ones (for TLS, which copies anyway)
     */
    public FrameBuffers(ByteBufferPool pool, boolean direct) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.direct = direct;
    }

    /** @return whether its pooled buffers are direct (bytes for a socket) */
    public boolean isDirect() {
        return direct;
    }

    /** @return the number of buffers to write */
    public int size() {
        return size;
    }

    /** @return whether there is nothing to write */
    public boolean isEmpty() {
        return size == 0;
    }

    /** @return the buffers to write, in order, each in flush mode; a new array */
    public ByteBuffer[] toArray() {
        return Arrays.copyOf(buffers, size);
    }

    /** @return the buffer at {@code index} */
    public ByteBuffer get(int index) {
        Objects.checkIndex(index, size);
        return buffers[index];
    }

    /** @return the bytes left to write in all buffers */
    public long remaining() {
        long remaining = 0;
        for (int i = 0; i < size; i++) {
            remaining += buffers[i].remaining();
        }
        return remaining;
    }

    /** Gives every pooled buffer back and forgets every entry; the object may be filled again. */
    public void release() {
        Arrays.fill(buffers, 0, size, null);
        size = 0;
        for (int i = 0; i < ownedSize; i++) {
            RetainableByteBuffer buffer = owned[i];
            owned[i] = null;
            buffer.release();
        }
        ownedSize = 0;
        tail = null;
        writeStart = -1;
    }

    /**
     * Starts writing up to {@code maxBytes} at the end of the last pooled buffer, or of a new one.
     *
     * @return the buffer in fill mode: its position where the bytes go, its limit {@code maxBytes} further
     */
    ByteBuffer beginWrite(int maxBytes) {
        if (writeStart >= 0) {
            throw new IllegalStateException("a write is already open");
        }
        if (tail == null || buffers[size - 1] != tail.byteBuffer() || tail.space() < maxBytes) {
            tail = pool.acquire(maxBytes, direct);
            own(tail);
            add(tail.byteBuffer());
        }
        ByteBuffer buffer = tail.byteBuffer();
        writeStart = buffer.position();
        int end = buffer.limit();
        buffer.limit(end + maxBytes).position(end);
        return buffer;
    }

    /** Ends the write {@link #beginWrite} opened: the bytes up to the buffer's position are kept. */
    void endWrite(ByteBuffer buffer) {
        buffer.limit(buffer.position()).position(writeStart);
        writeStart = -1;
    }

    /** Adds bytes that belong to the caller (a DATA slice, shared padding): written, never released. */
    void add(ByteBuffer bytes) {
        if (size == buffers.length) {
            buffers = Arrays.copyOf(buffers, size * 2);
        }
        buffers[size++] = bytes;
    }

    /** Takes ownership of a pooled buffer, released by {@link #release()}; its bytes are added separately. */
    void own(RetainableByteBuffer buffer) {
        if (ownedSize == owned.length) {
            owned = Arrays.copyOf(owned, ownedSize * 2);
        }
        owned[ownedSize++] = buffer;
    }

    /** @return a pooled buffer of at least {@code size} bytes, owned by this object, not yet added */
    RetainableByteBuffer acquire(int size) {
        RetainableByteBuffer buffer = pool.acquire(size, direct);
        own(buffer);
        return buffer;
    }

    @Override
    public String toString() {
        return "FrameBuffers[" + size + " buffers, " + remaining() + " bytes, " + ownedSize + " pooled]";
    }
}
