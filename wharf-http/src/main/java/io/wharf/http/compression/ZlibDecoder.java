package io.wharf.http.compression;

import java.nio.ByteBuffer;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;

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
public final class ZlibDecoder extends InflatingDecoder {

    private enum State {
        /** Inflating. */
        DATA,
        /** The zlib stream ended; the body must end too. */
        STREAM_END
    }

    private State state = State.DATA;

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
        super(pool, limits, "zlib", false);
    }

    @Override
    protected Progress step(ByteBuffer input, boolean last, ByteBuffer output) {
        if (state == State.DATA) {
            if (last && compressedBytesSoFar() == 0 && !input.hasRemaining()) {
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
    protected String framingState() {
        return state.name();
    }
}
