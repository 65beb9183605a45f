package io.wharf.http.compression;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.wharf.util.buffer.ByteBuffers;

/**
 * What the gzip and zlib decoders share: the {@link ContentDecoder} contract around one
 * format-specific {@link #step} — argument checks, the output buffer flipped to fill and back,
 * counting the compressed bytes, finishing, and aborting (which gives the inflater back) on
 * any failure. Subclasses keep only the state of their own framing.
 *
 * <p>Used by one thread at a time, like every {@link ContentDecoder}.
 */
abstract class InflatingDecoder implements ContentDecoder {

    /** Where the decoder is, apart from its format's framing. */
    private enum Lifecycle {
        DECODING, FINISHED, FAILED
    }

    /** The inflater borrowed for the format's deflate data. */
    protected final BoundedInflater inflater;
    private final String format;
    private Lifecycle lifecycle = Lifecycle.DECODING;
    private long compressedBytes;

    /**
     * @param format the format's name in messages, e.g. {@code "gzip"}
     * @param nowrap whether the format needs raw deflate inflaters (gzip) or zlib ones
     */
    InflatingDecoder(InflaterPool pool, DecoderLimits limits, String format, boolean nowrap) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(limits, "limits");
        if (pool.isNowrap() != nowrap) {
            throw new IllegalArgumentException(nowrap
                ? format + " needs an inflater pool of raw deflate (nowrap) inflaters: " + pool
                : format + " needs an inflater pool of " + format + " (not nowrap) inflaters: " + pool);
        }
        this.inflater = new BoundedInflater(pool, limits, format);
        this.format = format;
    }

    @Override
    public final Progress decode(ByteBuffer input, boolean last, ByteBuffer output) {
        Objects.requireNonNull(input, "input");
        if (lifecycle != Lifecycle.DECODING) {
            throw new IllegalStateException(format + " decoder is " + lifecycle.name().toLowerCase() + ": cannot decode more");
        }
        if (output.capacity() == 0) {
            throw new IllegalArgumentException("output buffer has no capacity: " + output);
        }
        int inputBefore = input.position();
        int start = ByteBuffers.flipToFill(output);
        try {
            Progress progress = step(input, last, output);
            if (progress == Progress.FINISHED) {
                lifecycle = Lifecycle.FINISHED;
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

    /**
     * Decodes what it can of {@code input} into {@code output} (in fill mode).
     *
     * @throws io.wharf.http.BadMessageException when the content is corrupt or over a limit
     */
    protected abstract Progress step(ByteBuffer input, boolean last, ByteBuffer output);

    /** @return the bytes of compressed content consumed before this call, for the format's checks */
    protected final long compressedBytesSoFar() {
        return compressedBytes;
    }

    /** @return the format's framing state, for {@link #toString()} */
    protected abstract String framingState();

    @Override
    public final void abort() {
        if (lifecycle != Lifecycle.DECODING) {
            return;
        }
        lifecycle = Lifecycle.FAILED;
        inflater.release();
    }

    @Override
    public final boolean isFinished() {
        return lifecycle == Lifecycle.FINISHED;
    }

    @Override
    public final long getInflatedBytes() {
        return inflater.inflated();
    }

    @Override
    public final long getCompressedBytes() {
        return compressedBytes;
    }

    @Override
    public String toString() {
        String state = lifecycle == Lifecycle.DECODING ? framingState() : lifecycle.name();
        return getClass().getSimpleName() + "@" + Integer.toHexString(hashCode()) + "[" + state
            + " in=" + compressedBytes + " out=" + inflater.inflated() + "]";
    }
}
