package io.wharf.http.compression;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import io.wharf.util.buffer.ByteBuffers;

/**
 * Encodes one gzip stream (RFC 1952, a single member) incrementally: the 10-byte header, the
 * deflated content, and the trailer with the CRC-32 and the length of the content, written
 * into output buffers the caller supplies. A response's compressing content sink makes one
 * per response; the HTTP client makes one per compressed request body.
 *
 * <pre>{@code
 * GzipEncoder encoder = new GzipEncoder(deflaters);
 * // for each chunk of content; last is true for the final one
 * while (!encoder.encode(chunk, last ? Flush.FINISH : Flush.NONE, output))
 *     sendAndEmpty(output);      // output full: drain it, then call again with what is left of chunk
 * }</pre>
 *
 * <p><b>Threads.</b> One thread at a time: the one writing the response. Calls may come from
 * different threads in turn when the caller orders them (as a callback chain does).
 *
 * <p><b>Buffers.</b> The caller owns both buffers; both are in flush mode (the bytes held lie
 * between position and limit) and may be heap or direct, pooled
 * {@link io.wharf.util.buffer.RetainableByteBuffer#byteBuffer() retainable buffers} included.
 * {@code encode} advances the input's position over the bytes it took and appends compressed
 * bytes after the output's limit (compacting the output when its held bytes do not start at 0
 * and its end is full). The encoder keeps no reference to either buffer that it uses after
 * {@code encode} returns.
 *
 * <p><b>Native memory.</b> The encoder borrows a {@link Deflater} from its pool at its first
 * content and gives it back when the trailer is written, when {@link #abort()} is called or
 * when {@code encode} throws. A caller that gives up on the stream before it finishes must
 * call {@link #abort()}.
 */
public final class GzipEncoder {

    /** How much of the stream {@link #encode} must emit before it reports completion. */
    public enum Flush {
        /** Take all the input; the deflater may hold compressed bytes back for better compression. */
        NONE,
        /**
         * Take all the input and emit every byte it compresses to, ending on a byte boundary
         * (deflate's sync flush), so that the peer can decode all content sent so far; the
         * stream continues afterwards.
         */
        SYNC,
        /** Take all the input, then end the stream: the last deflate block and the trailer. */
        FINISH
    }

    private enum State {
        /** Writing the 10-byte header. */
        HEADER,
        /** Deflating content. */
        DEFLATING,
        /** The deflater was told to finish: emitting its last block. */
        FINISHING,
        /** Writing the 8-byte trailer. */
        TRAILER,
        /** The whole stream was written; the deflater is back in its pool. */
        FINISHED,
        /** Aborted or failed; the deflater is back in its pool. */
        ABORTED
    }

    /** Magic, CM = deflate, FLG = 0, MTIME = 0 (none), XFL = 0, OS = 255 (unknown). */
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
    private static final int TRAILER_LENGTH = 8;

    private final DeflaterPool pool;
    private final CRC32 checksum = new CRC32();
    private CodecPool.Lease<Deflater> lease;
    private State state = State.HEADER;
    /** Bytes of the header or of the trailer already written. */
    private int framingWritten;
    /** The trailer, once the content is all deflated. */
    private byte[] trailer;
    private long inputBytes;
    private long outputBytes;

    /**
     * @param pool where to borrow the deflater from; its deflaters must write raw deflate data
     * @throws IllegalArgumentException when the pool's deflaters write zlib framing
     */
    public GzipEncoder(DeflaterPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
        if (!pool.isNowrap()) {
            throw new IllegalArgumentException("gzip needs a deflater pool of raw deflate (nowrap) deflaters: " + pool);
        }
    }

    /**
     * Compresses {@code input} into {@code output} as far as {@code flush} asks.
     *
     * @param input the content to compress, in flush mode; its position advances over the bytes taken
     * @param flush how much to emit: see {@link Flush}. Once a call was made with
     *     {@link Flush#FINISH}, every later call must be too.
     * @param output where compressed bytes are appended, in flush mode
     * @return true when the step is complete: all of {@code input} was taken and, for
     *     {@link Flush#SYNC}, all of it emitted, for {@link Flush#FINISH}, the whole stream
     *     written (the encoder is then {@link #isFinished() finished}); false when
     *     {@code output} is full (possibly already on entry): drain it and call again with the
     *     rest of {@code input} and the same {@code flush}
     * @throws IllegalArgumentException when {@code output} has a capacity of 0
     * @throws IllegalStateException when the encoder is finished or aborted, or a call after
     *     {@link Flush#FINISH} asks for another flush (which aborts the encoder)
     */
    public boolean encode(ByteBuffer input, Flush flush, ByteBuffer output) {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(flush, "flush");
        if (state == State.FINISHED || state == State.ABORTED) {
            throw new IllegalStateException("gzip encoder is " + state.name().toLowerCase() + ": cannot encode more");
        }
        if (output.capacity() == 0) {
            throw new IllegalArgumentException("output buffer has no capacity: " + output);
        }
        if (state == State.FINISHING && flush != Flush.FINISH) {
            abort();
            throw new IllegalStateException("gzip encoder is finishing: encode must be called with FINISH until it returns true, not " + flush);
        }
        if (output.remaining() == output.capacity()) {
            return false;
        }
        int start = ByteBuffers.flipToFill(output);
        int outputBefore = output.position();
        boolean complete = false;
        try {
            complete = step(input, flush, output);
            return complete;
        } catch (RuntimeException | Error failure) {
            abort();
            throw failure;
        } finally {
            outputBytes += output.position() - outputBefore;
            ByteBuffers.flipToFlush(output, start);
        }
    }

    private boolean step(ByteBuffer input, Flush flush, ByteBuffer output) {
        if (state == State.HEADER) {
            if (!writeFraming(HEADER, output)) {
                return false;
            }
            state = State.DEFLATING;
        }
        if (state == State.DEFLATING || state == State.FINISHING) {
            if (!deflate(input, flush, output)) {
                return false;
            }
            if (flush != Flush.FINISH) {
                return true;
            }
            state = State.TRAILER;
            trailer = trailer();
            release();
        }
        // state == TRAILER
        if (!writeFraming(trailer, output)) {
            return false;
        }
        state = State.FINISHED;
        return true;
    }

    /** @return whether the deflate part of the step is complete */
    private boolean deflate(ByteBuffer input, Flush flush, ByteBuffer output) {
        if (lease == null) {
            lease = pool.acquire();
        }
        Deflater deflater = lease.codec();
        deflater.setInput(input);
        if (flush == Flush.FINISH && state == State.DEFLATING) {
            deflater.finish();
            state = State.FINISHING;
        }
        int mode = flush == Flush.SYNC ? Deflater.SYNC_FLUSH : Deflater.NO_FLUSH;
        try {
            while (true) {
                int inputBefore = input.position();
                int space = output.remaining();
                int written = deflater.deflate(output, mode);
                int taken = input.position() - inputBefore;
                checksum(input, inputBefore);
                inputBytes += taken;
                switch (flush) {
                    case NONE -> {
                        if (deflater.needsInput()) {
                            return true;
                        }
                    }
                    case SYNC -> {
                        // A sync flush is complete when its output did not fill the space given.
                        if (deflater.needsInput() && written < space) {
                            return true;
                        }
                    }
                    case FINISH -> {
                        if (deflater.finished()) {
                            return true;
                        }
                    }
                }
                if (!output.hasRemaining()) {
                    return false;
                }
                if (written == 0 && taken == 0) {
                    throw new IllegalStateException("deflater made no progress with " + input.remaining()
                        + " input bytes and " + output.remaining() + " bytes of space: " + deflater);
                }
            }
        } finally {
            // Drop the deflater's reference to the caller's buffer.
            deflater.setInput(ByteBuffers.EMPTY);
        }
    }

    /** Adds the bytes of {@code input} from {@code from} to its position to the CRC-32. */
    private void checksum(ByteBuffer input, int from) {
        int to = input.position();
        if (to == from) {
            return;
        }
        int limit = input.limit();
        input.limit(to).position(from);
        checksum.update(input);
        input.limit(limit);
    }

    private byte[] trailer() {
        long crc = checksum.getValue();
        long size = inputBytes & 0xFFFF_FFFFL;
        byte[] trailer = new byte[TRAILER_LENGTH];
        for (int index = 0; index < 4; index++) {
            trailer[index] = (byte) (crc >>> (8 * index));
            trailer[4 + index] = (byte) (size >>> (8 * index));
        }
        return trailer;
    }

    /** Writes what is left of {@code framing}; @return whether all of it is written. */
    private boolean writeFraming(byte[] framing, ByteBuffer output) {
        int length = Math.min(framing.length - framingWritten, output.remaining());
        output.put(framing, framingWritten, length);
        framingWritten += length;
        if (framingWritten < framing.length) {
            return false;
        }
        framingWritten = 0;
        return true;
    }

    /**
     * Gives up on the stream: the deflater goes back to its pool and later calls to
     * {@link #encode} fail. Does nothing when the encoder is already finished or aborted.
     */
    public void abort() {
        if (state == State.FINISHED || state == State.ABORTED) {
            return;
        }
        state = State.ABORTED;
        release();
    }

    private void release() {
        CodecPool.Lease<Deflater> held = lease;
        if (held != null) {
            lease = null;
            held.release();
        }
    }

    /** @return whether the whole stream, trailer included, was written */
    public boolean isFinished() {
        return state == State.FINISHED;
    }

    /** @return whether the encoder was aborted, or failed */
    public boolean isAborted() {
        return state == State.ABORTED;
    }

    /** @return the number of content bytes taken so far */
    public long getInputBytes() {
        return inputBytes;
    }

    /** @return the number of gzip bytes written so far, header and trailer included */
    public long getOutputBytes() {
        return outputBytes;
    }

    @Override
    public String toString() {
        return "GzipEncoder@" + Integer.toHexString(hashCode()) + "[" + state + " in=" + inputBytes + " out=" + outputBytes + "]";
    }
}
