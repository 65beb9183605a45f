package io.wharf.client.internal.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

import io.wharf.client.RequestContent;
import io.wharf.io.Content;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.util.buffer.Retainable;

/**
 * Request content read from something that blocks (a file, an input stream), one buffer at a
 * time: {@link #read()} fills the one buffer this content owns and hands it out as a chunk;
 * the writer releases that chunk before it reads again, so the buffer is reused and the
 * memory held is one buffer whatever the length. {@link #read()} and {@link #demand} are
 * called by the writer's thread (a pool thread: {@link #isBlocking()} is true); {@link #fail}
 * by any thread, and closes the source so that a read blocked in it returns.
 */
abstract class StreamedContent implements RequestContent {

    private final String contentType;
    private final ByteBuffer buffer;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final BufferHold outstanding = new BufferHold();
    private volatile Throwable failure;
    private boolean ended;

    StreamedContent(String contentType, int readSize) {
        this.contentType = contentType;
        this.buffer = ByteBuffer.allocate(readSize);
    }

    /**
     * Reads up to {@code into.remaining()} bytes, blocking if need be.
     *
     * @return the count read, or -1 at the end
     */
    protected abstract int readSome(ByteBuffer into) throws IOException;

    /** Closes what is read from. */
    protected abstract void closeSource() throws IOException;

    @Override
    public Content.Chunk read() {
        Throwable failed = failure;
        if (failed != null) {
            return Content.Chunk.from(failed);
        }
        if (ended) {
            return Content.Chunk.EOF;
        }
        if (!outstanding.tryAcquire()) {
            throw new IllegalStateException("read before the previous chunk of " + this + " was released");
        }
        try {
            buffer.clear();
            int count = 0;
            while (count == 0) {
                count = readSome(buffer);
            }
            buffer.flip();
            if (count < 0) {
                outstanding.release();
                ended = true;
                close();
                return Content.Chunk.EOF;
            }
            return Content.Chunk.from(buffer, false, outstanding);
        } catch (Throwable x) {
            outstanding.release();
            Throwable cause = failure != null ? failure : x;
            fail(cause);
            return Content.Chunk.from(cause);
        }
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        // Reads block rather than return null: content is always available to read.
        onContentAvailable.run();
    }

    @Override
    public void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        close();
    }

    private void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                closeSource();
            } catch (IOException ignored) {
                // Nothing more to read from it either way.
            }
        }
    }

    @Override
    public boolean isBlocking() {
        return true;
    }

    @Override
    public String getContentType() {
        return contentType;
    }

    /** Counts the references to the one buffer: 0 when the writer may read again. */
    private static final class BufferHold implements Retainable {
        private final AtomicInteger references = new AtomicInteger();

        boolean tryAcquire() {
            return references.compareAndSet(0, 1);
        }

        @Override
        public void retain() {
            if (references.getAndIncrement() <= 0) {
                references.decrementAndGet();
                throw new IllegalStateException("retain of a released content buffer");
            }
        }

        @Override
        public boolean release() {
            int left = references.decrementAndGet();
            if (left < 0) {
                references.incrementAndGet();
                throw new IllegalStateException("release of a released content buffer");
            }
            return left == 0;
        }

        @Override
        public boolean isRetained() {
            return references.get() > 1;
        }
    }
}
