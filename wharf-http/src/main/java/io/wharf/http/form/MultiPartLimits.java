package io.wharf.http.form;

/**
 * The limits a {@link MultiPartFormParser} enforces on one {@code multipart/form-data} body.
 * Passing any of them fails the parse at once, before the rest is buffered, with a
 * {@link io.wharf.http.BadMessageException} of status 413 whose reason names the limit and its
 * value; everything spooled so far is deleted.
 *
 * <p>Memory held by one parse is at most {@code maxParts} times {@code spoolThresholdBytes}
 * of part content plus one part's header block; disk use is at most {@code maxTotalBytes}.
 *
 * <p>An immutable value, shared freely between threads.
 *
 * @param maxParts the most parts; default 100
 * @param maxPartHeaderBytes the most bytes of one part's header block, its line ends and the
 *     blank line included; default 8 KiB
 * @param maxPartBytes the most content bytes of one part, or -1 for no limit but
 *     {@code maxTotalBytes}; default -1
 * @param maxFieldBytes the most content bytes of one part without a file name (a field,
 *     which is usually read into a string), or -1 for no limit; default 64 KiB
 * @param maxTotalBytes the most bytes of the whole body, framing, preamble and epilogue
 *     included, or -1 for no limit; default 10 MiB
 * @param spoolThresholdBytes a part with more content bytes than this is written to a file
 *     in the spool directory, a smaller one stays in memory; default 16 KiB
 */
public record MultiPartLimits(
        int maxParts,
        int maxPartHeaderBytes,
        long maxPartBytes,
        long maxFieldBytes,
        long maxTotalBytes,
        int spoolThresholdBytes) {

    /** The safe defaults: 100 parts, 8 KiB headers, 64 KiB fields, 10 MiB in all, spool above 16 KiB. */
    public static final MultiPartLimits DEFAULT =
            new MultiPartLimits(100, 8 * 1024, -1, 64 * 1024, 10 * 1024 * 1024, 16 * 1024);

    /**
     * @throws IllegalArgumentException when a limit is out of range
     */
    public MultiPartLimits {
        if (maxParts < 0) {
            throw new IllegalArgumentException("maxParts must be at least 0: " + maxParts);
        }
        if (maxPartHeaderBytes < 2) {
            throw new IllegalArgumentException("maxPartHeaderBytes must be at least 2 (the blank line): " + maxPartHeaderBytes);
        }
        requireLimit("maxPartBytes", maxPartBytes);
        requireLimit("maxFieldBytes", maxFieldBytes);
        requireLimit("maxTotalBytes", maxTotalBytes);
        if (spoolThresholdBytes < 0 || spoolThresholdBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("spoolThresholdBytes must be at least 0 and fit an array: " + spoolThresholdBytes);
        }
    }

    private static void requireLimit(String name, long value) {
        if (value < -1) {
            throw new IllegalArgumentException(name + " must be -1 (no limit) or at least 0: " + value);
        }
    }

    /** @return these limits with {@code maxParts} changed */
    public MultiPartLimits withMaxParts(int maxParts) {
        return new MultiPartLimits(maxParts, maxPartHeaderBytes, maxPartBytes, maxFieldBytes, maxTotalBytes, spoolThresholdBytes);
    }

    /** @return these limits with {@code maxPartHeaderBytes} changed */
    public MultiPartLimits withMaxPartHeaderBytes(int maxPartHeaderBytes) {
        return new MultiPartLimits(maxParts, maxPartHeaderBytes, maxPartBytes, maxFieldBytes, maxTotalBytes, spoolThresholdBytes);
    }

    /** @return these limits with {@code maxPartBytes} changed */
    public MultiPartLimits withMaxPartBytes(long maxPartBytes) {
        return new MultiPartLimits(maxParts, maxPartHeaderBytes, maxPartBytes, maxFieldBytes, maxTotalBytes, spoolThresholdBytes);
    }

    /** @return these limits with {@code maxFieldBytes} changed */
    public MultiPartLimits withMaxFieldBytes(long maxFieldBytes) {
        return new MultiPartLimits(maxParts, maxPartHeaderBytes, maxPartBytes, maxFieldBytes, maxTotalBytes, spoolThresholdBytes);
    }

    /** @return these limits with {@code maxTotalBytes} changed */
    public MultiPartLimits withMaxTotalBytes(long maxTotalBytes) {
        return new MultiPartLimits(maxParts, maxPartHeaderBytes, maxPartBytes, maxFieldBytes, maxTotalBytes, spoolThresholdBytes);
    }

    /** @return these limits with {@code spoolThresholdBytes} changed */
    public MultiPartLimits withSpoolThresholdBytes(int spoolThresholdBytes) {
        return new MultiPartLimits(maxParts, maxPartHeaderBytes, maxPartBytes, maxFieldBytes, maxTotalBytes, spoolThresholdBytes);
    }
}
