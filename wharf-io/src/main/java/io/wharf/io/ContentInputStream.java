package io.wharf.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.Semaphore;

/**
 * A blocking {@link InputStream} over a {@link Content.Source}: a read that finds no chunk
 * demands one and waits. For BLOCKING code only — never on a selector thread.
 *
 * <p>Used by one thread at a time. It holds at most one chunk, released once consumed — the
 * last one too, which may carry bytes in a pooled buffer — or on {@link #close()}, which also
 * reads and releases whatever content is immediately available.
 */
public final class ContentInputStream extends InputStream {

    private final Content.Source source;
    private final Semaphore available = new Semaphore(0);
    private final byte[] one = new byte[1];
    /** The chunk being read, never a consumed last one: that is released at once (it may hold a pooled buffer). */
    private Content.Chunk chunk;
    /** Whether the last chunk was reached (and released). */
    private boolean ended;
    /** The failure the source ended with, thrown by every read after it. */
    private IOException failure;

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
            if (current == null) {
                return -1;
            }
            if (current.hasRemaining()) {
                int count = Math.min(length, current.remaining());
                current.getByteBuffer().get(bytes, offset, count);
                if (!current.hasRemaining() && current.isLast()) {
                    end();
                }
                return count;
            }
            if (current.isLast()) {
                end();
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
        if (ended) {
            return;
        }
        while (true) {
            Content.Chunk next = source.read();
            if (next == null) {
                return;
            }
            next.release();
            if (next.isLast()) {
                ended = true;
                return;
            }
        }
    }

    /** @return the chunk to read from, or null after the last one; throws the source's failure */
    private Content.Chunk nextChunk() throws IOException {
        if (failure != null) {
            throw failure;
        }
        while (!ended && (chunk == null || !chunk.hasRemaining() && !chunk.isLast())) {
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
        if (ended) {
            return null;
        }
        Throwable cause = chunk.getFailure();
        if (cause != null) {
            failure = cause instanceof IOException io ? io : new IOException(cause);
            end();
            throw failure;
        }
        return chunk;
    }

    /** The last chunk was read: released now, remembered as the end. */
    private void end() {
        ended = true;
        releaseChunk();
    }

    private void releaseChunk() {
        Content.Chunk current = chunk;
        if (current != null) {
            chunk = null;
            current.release();
        }
    }
}
