package io.wharf.http.compression;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;
import io.wharf.util.buffer.ByteBuffers;

/**
 * The inflating core of a {@link ContentDecoder}: borrows an {@link Inflater} for one deflate
 * stream at a time, inflates into a window of the output no larger than what the
 * {@link DecoderLimits} still allow plus one byte, and counts what goes in and out, so that a
 * bomb fails as soon as it passes the limit and never writes more than one byte beyond it.
 *
 * <p>Used by its decoder's thread only. The decoder owns the buffers; this keeps no reference
 * to them once {@link #inflate} returns.
 */
final class BoundedInflater {

    /** Why {@link #inflate} returned. */
    enum Outcome {
        /** The deflate stream ended; the input's position is just past it; the inflater is released. */
        STREAM_END,
        /** All the input was taken. */
        NEEDS_INPUT,
        /** The output window is full. */
        OUTPUT_FULL
    }

    private final InflaterPool pool;
    private final DecoderLimits limits;
    /** The format's name for reasons: "gzip" or "zlib". */
    private final String format;
    private CodecPool.Lease<Inflater> lease;
    private long inflated;
    private long compressed;

    BoundedInflater(InflaterPool pool, DecoderLimits limits, String format) {
        this.pool = pool;
        this.limits = limits;
        this.format = format;
    }

    /**
     * Inflates from {@code input} into {@code output} until the stream ends, the input is all
     * taken or the output is full.
     *
     * @param input compressed bytes, in flush mode
     * @param output in fill mode: bytes are written from its position up to its limit
     * @param checksum updated with every inflated byte, or null
     * @throws BadMessageException 400 for corrupt data, 413 past a limit; the caller then releases
     */
    Outcome inflate(ByteBuffer input, ByteBuffer output, CRC32 checksum) {
        if (lease == null) {
            lease = pool.acquire();
        }
        Inflater inflater = lease.codec();
        inflater.setInput(input);
        try {
            while (true) {
                int from = output.position();
                int inputBefore = input.position();
                int produced = inflateWindow(inflater, output);
                int taken = input.position() - inputBefore;
                compressed += taken;
                inflated += produced;
                if (checksum != null && produced > 0) {
                    checksum(output, from, checksum);
                }
                checkLimits();
                if (inflater.finished()) {
                    release();
                    return Outcome.STREAM_END;
                }
                if (inflater.needsDictionary()) {
                    throw new BadMessageException(HttpStatus.BAD_REQUEST_400, format + " content needs a preset dictionary, which HTTP cannot supply");
                }
                if (!output.hasRemaining()) {
                    return Outcome.OUTPUT_FULL;
                }
                if (inflater.needsInput()) {
                    return Outcome.NEEDS_INPUT;
                }
                if (produced == 0 && taken == 0) {
                    throw new BadMessageException(HttpStatus.BAD_REQUEST_400, format + " content is corrupt: the inflater made no progress");
                }
            }
        } finally {
            if (lease != null) {
                // Drop the inflater's reference to the caller's buffer.
                inflater.setInput(ByteBuffers.EMPTY);
            }
        }
    }

    /** Inflates into at most the bytes the limit still allows, plus one to detect passing it. */
    private int inflateWindow(Inflater inflater, ByteBuffer output) {
        long allowed = limits.maxInflatedBytes() - inflated + 1;
        int limit = output.limit();
        int window = (int) Math.min(output.remaining(), allowed);
        output.limit(output.position() + window);
        try {
            return inflater.inflate(output);
        } catch (DataFormatException corrupt) {
            // zlib's messages are fixed texts ("invalid block type"), never the peer's bytes.
            String detail = corrupt.getMessage() == null ? "invalid deflate data" : corrupt.getMessage();
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400, format + " content is corrupt: " + detail, corrupt);
        } finally {
            output.limit(limit);
        }
    }

    private void checkLimits() {
        if (inflated > limits.maxInflatedBytes()) {
            throw new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413,
                "inflated content larger than " + limits.maxInflatedBytes() + " bytes");
        }
        int ratio = limits.maxRatio();
        if (ratio > 0 && inflated > limits.ratioGraceBytes()) {
            long bound = compressed > Long.MAX_VALUE / ratio ? Long.MAX_VALUE : ratio * compressed;
            if (inflated > bound) {
                throw new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413,
                    "inflated content more than " + ratio + " times larger than its " + format + " form");
            }
        }
    }

    /** Adds the bytes of {@code output} from {@code from} to its position to {@code checksum}. */
    private static void checksum(ByteBuffer output, int from, CRC32 checksum) {
        int to = output.position();
        int limit = output.limit();
        output.limit(to).position(from);
        checksum.update(output);
        output.limit(limit);
    }

    /** Gives the inflater back, if one is borrowed; the next {@link #inflate} borrows a fresh one. */
    void release() {
        CodecPool.Lease<Inflater> held = lease;
        if (held != null) {
            lease = null;
            held.release();
        }
    }

    /** @return the bytes inflated so far, over all streams */
    long inflated() {
        return inflated;
    }

    /** @return the deflate bytes taken so far, over all streams */
    long compressed() {
        return compressed;
    }
}
