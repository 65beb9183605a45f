package io.wharf.io;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.wharf.util.Callback;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.Retainable;

/**
 * Content moving through a message: a request body read by a handler, a response body
 * written by one, a client's upload or download. A body is read from a {@link Source} as
 * {@link Chunk}s and written to a {@link Sink}.
 *
 * <p><b>Reading.</b> {@link Source#read()} returns a chunk now or null when none is ready;
 * after a null the reader calls {@link Source#demand(Runnable)} and is called back, once,
 * when reading may return something. The last chunk says {@link Chunk#isLast()}; a failed
 * source returns a failure chunk. <b>Ownership.</b> Whoever reads a chunk owns one
 * reference to it and releases it when done with its bytes (a chunk is often a slice of a
 * pooled network buffer, which goes back to the pool only when every chunk of it is
 * released). Reading and demanding are done by one reader at a time.
 *
 * <p><b>Writing.</b> {@link Sink#write(boolean, ByteBuffer, Callback)} writes a buffer and
 * completes the callback when the bytes are gone (the caller must not touch the buffer
 * until then); one write at a time.
 */
public final class Content {

    private Content() {
    }

    /** A piece of content, the end of it, or a failure. */
    public interface Chunk extends Retainable {

        /** The end of the content, with no bytes. Not counted: retain and release do nothing. */
        Chunk EOF = new Empty(true);

        /** No bytes and not the end: what a source returns when a read made no progress. Not counted. */
        Chunk EMPTY = new Empty(false);

        /** @return the bytes, in flush mode; empty for {@link #EOF} and failures */
        ByteBuffer getByteBuffer();

        /** @return whether this is the last chunk of the content */
        boolean isLast();

        /** @return the failure when this chunk reports one, else null */
        default Throwable getFailure() {
            return null;
        }

        /** @return the number of bytes left in this chunk */
        default int remaining() {
            return getByteBuffer().remaining();
        }

        /** @return whether this chunk has bytes left */
        default boolean hasRemaining() {
            return getByteBuffer().hasRemaining();
        }

        /**
         * @param owner the reference-counted resource the bytes belong to; the chunk
         *     retains/releases it; null for bytes nobody pools
         * @return a chunk of {@code buffer}'s remaining bytes
         */
        static Chunk from(ByteBuffer buffer, boolean last, Retainable owner) {
            return new Bytes(buffer, last, owner);
        }

        /** @return a chunk of bytes that are not pooled (release does nothing but count) */
        static Chunk from(ByteBuffer buffer, boolean last) {
            return new Bytes(buffer, last, null);
        }

        /** @return a chunk that reports {@code failure}; it is last and has no bytes */
        static Chunk from(Throwable failure) {
            return new Failure(failure);
        }

        /** @return whether {@code chunk} is non-null and reports a failure */
        static boolean isFailure(Chunk chunk) {
            return chunk != null && chunk.getFailure() != null;
        }
    }

    /** A body to read; see {@link Content}. */
    public interface Source {

        /** @return a chunk the caller now owns, or null when none is ready yet */
        Chunk read();

        /** Asks to be called back once when {@link #read()} may return non-null. */
        void demand(Runnable onContentAvailable);

        /** Aborts the source: later reads return a failure chunk with {@code cause}. */
        void fail(Throwable cause);

        /** @return the total length when known in advance, else -1 */
        default long getLength() {
            return -1;
        }
    }

    /** A body to write; see {@link Content}. */
    public interface Sink {

        /**
         * Writes {@code buffer} (null or empty allowed, typically with {@code last}) and
         * completes {@code callback} when it is gone.
         *
         * @param last whether this is the last write of the content
         */
        void write(boolean last, ByteBuffer buffer, Callback callback);
    }

    /** A chunk with no bytes that nobody pools: retain and release do nothing. */
    private interface Uncounted extends Chunk {
        @Override
        default ByteBuffer getByteBuffer() {
            return ByteBuffers.EMPTY;
        }

        @Override
        default boolean canRetain() {
            return false;
        }

        @Override
        default void retain() {
        }

        @Override
        default boolean release() {
            return false;
        }

        @Override
        default boolean isRetained() {
            return false;
        }
    }

    private record Empty(boolean isLast) implements Uncounted {
    }

    private record Failure(Throwable getFailure) implements Uncounted {
        private Failure {
            Objects.requireNonNull(getFailure, "failure");
        }

        @Override
        public boolean isLast() {
            return true;
        }
    }

    /** Bytes, possibly belonging to a pooled owner; counts its own references. */
    private static final class Bytes implements Chunk {
        private final ByteBuffer buffer;
        private final boolean last;
        private final Retainable owner;
        private final java.util.concurrent.atomic.AtomicInteger references = new java.util.concurrent.atomic.AtomicInteger(1);

        Bytes(ByteBuffer buffer, boolean last, Retainable owner) {
            this.buffer = Objects.requireNonNull(buffer, "buffer");
            this.last = last;
            this.owner = owner;
        }

        @Override
        public ByteBuffer getByteBuffer() {
            return buffer;
        }

        @Override
        public boolean isLast() {
            return last;
        }

        @Override
        public void retain() {
            if (references.getAndUpdate(count -> count > 0 ? count + 1 : count) <= 0) {
                throw new IllegalStateException("chunk already released: " + this);
            }
            if (owner != null) {
                owner.retain();
            }
        }

        @Override
        public boolean release() {
            int left = references.updateAndGet(count -> count > 0 ? count - 1 : -1);
            if (left < 0) {
                throw new IllegalStateException("chunk released more often than retained: " + this);
            }
            if (owner != null) {
                owner.release();
            }
            return left == 0;
        }

        @Override
        public boolean isRetained() {
            return references.get() > 1;
        }

        @Override
        public String toString() {
            return "Chunk[" + buffer.remaining() + " bytes" + (last ? ", last" : "") + "]";
        }
    }
}
