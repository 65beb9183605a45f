package io.wharf.http.compression;

import java.nio.ByteBuffer;

/**
 * Decodes one compressed body incrementally and within {@link DecoderLimits}: a server's
 * request body source makes one per request with a {@code Content-Encoding} it can undo, the
 * HTTP client one per compressed response. {@link GzipDecoder} and {@link ZlibDecoder} are the
 * two kinds.
 *
 * <pre>{@code
 * // for each chunk of the body; last is true for the final one (possibly empty)
 * Progress progress;
 * do {
 *     progress = decoder.decode(chunk, last, output);
 *     if (progress == Progress.OUTPUT_FULL) deliverAndEmpty(output);
 * } while (progress == Progress.OUTPUT_FULL);
 * }</pre>
 *
 * <p><b>Threads.</b> One thread at a time: the one reading the body. Calls may come from
 * different threads in turn when the caller orders them.
 *
 * <p><b>Buffers.</b> The caller owns both buffers, in flush mode, heap or direct. {@code decode}
 * advances the input's position over the bytes it took and appends inflated bytes after the
 * output's limit (compacting the output when its held bytes do not start at 0 and its end is
 * full); the decoder never allocates a buffer and keeps no reference to either buffer once
 * {@code decode} returns.
 *
 * <p><b>Native memory.</b> A decoder borrows an {@link java.util.zip.Inflater} from its pool
 * while it inflates and gives it back when a stream ends, when {@code decode} throws, or on
 * {@link #abort()}. A caller that stops reading before the end must call {@link #abort()}.
 *
 * <p><b>Hostile input.</b> Time is linear in the bytes given and taken; memory is the caller's
 * output buffer. Corrupt content fails with {@link io.wharf.http.BadMessageException} 400,
 * content inflating past the limits with 413; the reasons name the problem and never quote
 * the peer's bytes.
 */
public interface ContentDecoder {

    /** What a {@link #decode} call ended with. */
    enum Progress {
        /** All the input was taken and the body is not over: call again with more input. */
        NEEDS_INPUT,
        /** The output is full and there may be more to inflate: drain it and call again with the rest of the input. */
        OUTPUT_FULL,
        /** The body is over, was valid, and all of it is in the output; the decoder is done. */
        FINISHED
    }

    /**
     * Inflates as much of {@code input} as fits into {@code output}.
     *
     * @param input compressed bytes in flush mode; its position advances over the bytes taken
     * @param last whether {@code input} holds the last bytes of the body
     * @param output where inflated bytes are appended, in flush mode; it may be full on entry
     *     (the call then reads what needs no space: headers, trailers, the end of the body)
     * @return {@link Progress#FINISHED} only when {@code last} is true and the body ended
     *     exactly at the end of {@code input}
     * @throws io.wharf.http.BadMessageException 400 for corrupt or truncated content, 413 when
     *     the content inflates past a limit; the decoder is then done
     * @throws IllegalArgumentException when {@code output} has a capacity of 0
     * @throws IllegalStateException when the decoder is finished, failed or aborted
     */
    Progress decode(ByteBuffer input, boolean last, ByteBuffer output);

    /**
     * Gives up on the body: the inflater goes back to its pool and later calls to
     * {@link #decode} fail. Does nothing when the decoder is already done.
     */
    void abort();

    /** @return whether the body was decoded to its end */
    boolean isFinished();

    /** @return the number of inflated bytes written so far */
    long getInflatedBytes();

    /** @return the number of compressed bytes taken so far */
    long getCompressedBytes();
}
