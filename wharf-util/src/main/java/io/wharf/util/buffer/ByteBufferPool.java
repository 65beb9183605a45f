package io.wharf.util.buffer;

import java.nio.ByteBuffer;

/**
 * Hands out {@link RetainableByteBuffer}s and takes them back on their last release.
 *
 * <p>Any thread may acquire; the buffer comes back empty (position = limit = 0) with a
 * capacity of at least the size asked for. The caller owns it and releases it once.
 */
public interface ByteBufferPool {

    /**
     * @param size the minimum capacity
     * @param direct whether to use off-heap memory
     * @return an empty buffer of at least {@code size} bytes, owned by the caller
     */
    RetainableByteBuffer acquire(int size, boolean direct);

    /** Drops every buffer the pool keeps for reuse; buffers in use are not affected. */
    void clear();

    /** A pool that allocates every time and keeps nothing: for tests and tools. */
    ByteBufferPool NON_POOLING = new ByteBufferPool() {
        @Override
        public RetainableByteBuffer acquire(int size, boolean direct) {
            ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
            return RetainableByteBuffer.wrap(buffer.limit(0));
        }

        @Override
        public void clear() {
        }

        @Override
        public String toString() {
            return "ByteBufferPool.NON_POOLING";
        }
    };
}
