package io.wharf.http.compression;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;
import io.wharf.util.buffer.ByteBuffers;

/**
 * Decodes a body in the {@code deflate} content coding of HTTP (RFC 9110 §8.4.1.2), which is
 * the zlib format (RFC 1950): a 2-byte header, deflate data and an Adler-32 checksum, checked
 * by zlib itself. Incremental and within {@link DecoderLimits} (its header-field limit does not
 * apply). Raw deflate data without the zlib header, which some old servers sent as
 * {@code deflate}, is rejected as corrupt; so is anything after the end of the stream, and an
 * empty body.
 *
 * <p>Threads, buffers, native memory and hostile input: see {@link ContentDecoder}.
 */
public final class ZlibDecoder implements ContentDecoder {

    private enum State {
        /** Inflating. */
        DATA,
        /** The zlib stream ended; the body must end too. */
        STREAM_END,
        /** The body ended with the stream. */
        FINISHED,
        /** Failed or aborted. */
        FAILED
    }

    private final BoundedInflater inflater;
    private State state = State.DATA;
    private long compressedBytes;

    /** A decoder with {@link DecoderLimits#DEFAULT}. */
    public ZlibDecoder(InflaterPool pool) {
        this(pool, DecoderLimits.DEFAULT);
    }

    /**
     * @param pool where to borrow the inflater from; its inflaters must expect zlib framing
     * @param limits the limits to enforce
     * @throws IllegalArgumentException when the pool's inflaters read raw deflate data
     */
    public ZlibDecoder(InflaterPool pool, DecoderLimits limits) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(limits, "limits");
        if (pool.isNowrap()) {
            throw new IllegalArgumentException("zlib needs an inflater pool of zlib (not nowrap) inflaters: " + pool);
        }
        this.inflater = new BoundedInflater(pool, limits, "zlib");
    }

    @Override
    public Progress decode(ByteBuffer input, boolean last, ByteBuffer output) {
        Objects.requireNonNull(input, "input");
        if (state == State.FINISHED || state == State.FAILED) {
            throw new IllegalStateException("zlib decoder is " + state.name().toLowerCase() + ": cannot decode more");
        }
        if (output.capacity() == 0) {
            throw new IllegalArgumentException("output buffer has no capacity: " + output);
        }
        int inputBefore = input.position();
        int start = ByteBuffers.flipToFill(output);
        try {
            Progress progress = step(input, last, output);
            if (progress == Progress.FINISHED) {
                state = State.FINISHED;
            }
            return progress;
        } catch (RuntimeException | Error failure) {
            abort();
            throw failure;
        } finally {
            compressedBytes += input.position() - inputBefore;
            ByteBuffers.flipToFlush(output, start);
        }
    }

    private Progress step(ByteBuffer input, boolean last, ByteBuffer output) {
        if (state == State.DATA) {
            if (last && compressedBytes == 0 && !input.hasRemaining()) {
                throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "zlib content is empty");
            }
            switch (inflater.inflate(input, output, null)) {
                case STREAM_END -> state = State.STREAM_END;
                case OUTPUT_FULL -> {
                    return Progress.OUTPUT_FULL;
                }
                case NEEDS_INPUT -> {
                    if (last) {
                        throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "zlib content truncated");
                    }
                    return Progress.NEEDS_INPUT;
                }
            }
        }
        if (input.hasRemaining()) {
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "bytes after the end of the zlib content");
        }
        return last ? Progress.FINISHED : Progress.NEEDS_INPUT;
    }

    @Override
    public void abort() {
        if (state == State.FINISHED || state == State.FAILED) {
            return;
        }
        state = State.FAILED;
        inflater.release();
    }

    @Override
    public boolean isFinished() {
        return state == State.FINISHED;
    }

    @Override
    public long getInflatedBytes() {
        return inflater.inflated();
    }

    @Override
    public long getCompressedBytes() {
        return compressedBytes;
    }

    @Override
    public String toString() {
        return "ZlibDecoder@" + Integer.toHexString(hashCode()) + "[" + state + " in=" + compressedBytes + " out=" + inflater.inflated() + "]";
    }
}
