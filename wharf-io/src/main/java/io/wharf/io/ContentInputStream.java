package io.wharf.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.Semaphore;

/**
 * A blocking {@link InputStream} over a {@link Content.Source}: a read that finds no chunk
 * demands one and waits. For BLOCKING code only — never on a selector thread.
 *
 * <p>Used by one thread at a time. It holds at most one chunk, released once consumed or on
 * {@link #close()}, which also reads and releases whatever content is immediately available.
 */
public final class ContentInputStream extends InputStream {

    private final Content.Source source;
    private final Semaphore available = new Semaphore(0);
    private final byte[] one = new byte[1];
    private Content.Chunk chunk;

    public ContentInputStream(Content.Source source) {
        this.source = source;
    }

    @Override
    public int read() throws IOException {
        int read = read(one, 0, 1);
        return read < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (true) {
            Content.Chunk current = nextChunk();
            if (current.hasRemaining()) {
                int count = Math.min(length, current.remaining());
                current.getByteBuffer().get(bytes, offset, count);
                return count;
            }
            if (current.isLast()) {
                return -1;
            }
            releaseChunk();
        }
    }

    @Override
    public int available() {
        Content.Chunk current = chunk;
        return current == null ? 0 : current.remaining();
    }

    @Override
    public void close() {
        releaseChunk();
        while (true) {
            Content.Chunk next = source.read();
            if (next == null) {
                return;
            }
            next.release();
            if (next.isLast()) {
                chunk = next;
                return;
            }
        }
    }

    private Content.Chunk nextChunk() throws IOException {
        while (chunk == null || !chunk.hasRemaining() && !chunk.isLast()) {
            releaseChunk();
            Content.Chunk next = source.read();
            if (next == null) {
                source.demand(available::release);
                try {
                    available.acquire();
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for content");
                }
                continue;
            }
            chunk = next;
        }
        Throwable failure = chunk.getFailure();
        if (failure != null) {
            throw failure instanceof IOException io ? io : new IOException(failure);
        }
        return chunk;
    }

    private void releaseChunk() {
        Content.Chunk current = chunk;
        if (current != null && !current.isLast()) {
            chunk = null;
            current.release();
        }
    }
}
