package io.wharf.server.handler.gzip;

import io.wharf.http.BadMessageException;
import io.wharf.http.compression.ContentDecoder;
import io.wharf.http.compression.DecoderLimits;
import io.wharf.http.compression.GzipDecoder;
import io.wharf.http.compression.InflaterPool;
import io.wharf.io.Content;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * A {@link Content.Source} that reads gzip content from another source and yields it
 * inflated, within {@link DecoderLimits}: what a {@link GzipRequest} reads through. Content
 * that inflates past the limits yields a failure chunk carrying a {@link BadMessageException}
 * 413; corrupt or truncated content one carrying a 400. Either way the source underneath is
 * failed too, so the rest of the body is not read and the connection is not reused. A body
 * with no bytes at all is empty content, not an error.
 *
 * <p><b>Threads.</b> One reader at a time, as {@link Content} says; {@link #fail} and
 * {@link #close} may come from another thread, so the state is guarded by this object's lock,
 * which is never held while a demand callback runs.
 *
 * <p><b>Buffers.</b> Each chunk read from it is a buffer of {@code bufferSize} bytes borrowed
 * from the pool; the reader owns the chunk and its release returns the buffer. This source
 * holds at most one compressed chunk of the source underneath between reads (when the
 * inflated output filled a buffer before the chunk was used up) and releases it when it is
 * used up, on failure, or on {@link #close()}. The inflater is borrowed by the decoder while it
 * inflates and given back at the end of the content, on failure or on {@code close()}.
 */
final class InflatedContent implements Content.Source {

    private enum State {
        /** Inflating. */
        READING,
        /** The inflated content ended; reads return EOF. */
        FINISHED,
        /** Failed or closed; reads return the failure. */
        FAILED
    }

    private final Content.Source source;
    private final ContentDecoder decoder;
    private final ByteBufferPool pool;
    private final int bufferSize;
    private State state = State.READING;
    private Throwable failure;
    /** The compressed chunk being inflated, owned by this source, or null. */
    private Content.Chunk input;
    private boolean sawBytes;

    InflatedContent(Content.Source source, InflaterPool inflaters, DecoderLimits limits, ByteBufferPool pool, int bufferSize) {
        this.source = source;
        this.decoder = new GzipDecoder(inflaters, limits);
        this.pool = pool;
        this.bufferSize = bufferSize;
    }

    @Override
    public Content.Chunk read() {
        Throwable failed;
        synchronized (this) {
            switch (state) {
                case FINISHED -> {
                    return Content.Chunk.EOF;
                }
                case FAILED -> {
                    return Content.Chunk.from(failure);
                }
                case READING -> {
                }
            }
            try {
                return inflate();
            } catch (RuntimeException x) {
                failed = x;
                failLocked(x);
            }
        }
        source.fail(failed);
        return Content.Chunk.from(failed);
    }

    /** @return the next inflated chunk, EOF, a failure from the source, or null when the source has nothing now */
    private Content.Chunk inflate() {
        while (true) {
            if (input == null) {
                Content.Chunk chunk = source.read();
                if (chunk == null) {
                    return null;
                }
                if (chunk.getFailure() != null) {
                    failLocked(chunk.getFailure());
                    return chunk;
                }
                if (!chunk.hasRemaining() && !chunk.isLast()) {
                    chunk.release();
                    continue;
                }
                input = chunk;
            }
            if (!sawBytes && !input.hasRemaining()) {
                // A gzip body with no bytes at all: empty content.
                releaseInput();
                decoder.abort();
                state = State.FINISHED;
                return Content.Chunk.EOF;
            }
            sawBytes = true;
            RetainableByteBuffer output = pool.acquire(bufferSize, false);
            ContentDecoder.Progress progress;
            try {
                progress = decoder.decode(input.getByteBuffer(), input.isLast(), output.byteBuffer());
            } catch (RuntimeException x) {
                output.release();
                throw x;
            }
            boolean last = progress == ContentDecoder.Progress.FINISHED;
            if (progress != ContentDecoder.Progress.OUTPUT_FULL) {
                // NEEDS_INPUT and FINISHED both mean the chunk was used up.
                releaseInput();
            }
            if (last) {
                state = State.FINISHED;
            }
            if (output.byteBuffer().hasRemaining()) {
                return Content.Chunk.from(output.byteBuffer(), last, output);
            }
            output.release();
            if (last) {
                return Content.Chunk.EOF;
            }
        }
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        boolean ready;
        synchronized (this) {
            ready = state != State.READING || input != null;
        }
        if (ready) {
            onContentAvailable.run();
        } else {
            source.demand(onContentAvailable);
        }
    }

    @Override
    public void fail(Throwable cause) {
        synchronized (this) {
            if (state == State.READING) {
                failLocked(cause);
            }
        }
        source.fail(cause);
    }

    /**
     * Gives back the inflater and any compressed chunk held; later reads fail. Called when the
     * handler's callback completes. Does nothing more when the content already ended or failed.
     */
    void close() {
        synchronized (this) {
            if (state == State.READING) {
                failLocked(new IllegalStateException("request content read after its handler completed"));
            }
        }
    }

    /** @return the {@link BadMessageException} the content failed with, or null */
    synchronized BadMessageException getFailure() {
        return failure instanceof BadMessageException bad ? bad : null;
    }

    private void failLocked(Throwable cause) {
        state = State.FAILED;
        failure = cause;
        releaseInput();
        decoder.abort();
    }

    private void releaseInput() {
        Content.Chunk held = input;
        if (held != null) {
            input = null;
            held.release();
        }
    }

    @Override
    public synchronized String toString() {
        return "InflatedContent@" + Integer.toHexString(hashCode()) + "[" + state + " " + decoder + "]";
    }
}
