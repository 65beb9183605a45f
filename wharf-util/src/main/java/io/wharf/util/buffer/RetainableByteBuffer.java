package io.wharf.util.buffer;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reference-counted {@link ByteBuffer}, usually borrowed from a {@link ByteBufferPool}.
 *
 * <p>The buffer is kept in <em>flush mode</em>: the bytes it holds lie between position and
 * limit; an empty buffer has position = limit = 0. Code that fills it appends after the limit
 * (see {@link ByteBuffers#append}); code that drains it advances the position.
 *
 * <p>Ownership: whoever acquired it (or retained it) releases it once. After the last
 * release the {@link ByteBuffer} must not be touched: it may already serve someone else.
 */
public interface RetainableByteBuffer extends Retainable {

    /** @return the underlying buffer, in flush mode */
    ByteBuffer byteBuffer();

    /** @return whether the memory is outside the Java heap */
    default boolean isDirect() {
        return byteBuffer().isDirect();
    }

    /** @return the number of bytes held */
    default int remaining() {
        return byteBuffer().remaining();
    }

    /** @return whether any bytes are held */
    default boolean hasRemaining() {
        return byteBuffer().hasRemaining();
    }

    /** @return the capacity of the buffer */
    default int capacity() {
        return byteBuffer().capacity();
    }

    /** @return how many more bytes can be appended after the limit */
    default int space() {
        ByteBuffer buffer = byteBuffer();
        return buffer.capacity() - buffer.limit();
    }

    /** Empties the buffer: position = limit = 0. */
    default void clear() {
        byteBuffer().position(0).limit(0);
    }

    /**
     * Wraps a buffer that belongs to no pool. Reference counting works as for pooled buffers;
     * the last release only marks it freed.
     */
    static RetainableByteBuffer wrap(ByteBuffer buffer) {
        return new Unpooled(buffer);
    }

    /** A reference-counted buffer with no pool behind it. */
    final class Unpooled implements RetainableByteBuffer {
        private final ByteBuffer buffer;
        private final AtomicInteger references = new AtomicInteger(1);

        private Unpooled(ByteBuffer buffer) {
            this.buffer = buffer;
        }

        @Override
        public ByteBuffer byteBuffer() {
            return buffer;
        }

        @Override
        public void retain() {
            while (true) {
                int count = references.get();
                if (count <= 0) {
                    throw new IllegalStateException("Retain of a released buffer " + this);
                }
                if (references.compareAndSet(count, count + 1)) {
                    return;
                }
            }
        }

        @Override
        public boolean release() {
            int count = references.decrementAndGet();
            if (count < 0) {
                references.incrementAndGet();
                throw new IllegalStateException("Release of a released buffer " + this);
            }
            return count == 0;
        }

        @Override
        public boolean isRetained() {
            return references.get() > 1;
        }

        @Override
        public String toString() {
            return "Unpooled@" + Integer.toHexString(hashCode()) + "[r=" + references.get() + "," + buffer + "]";
        }
    }
}
