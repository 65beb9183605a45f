package io.wharf.http.compression;

/**
 * The limits a {@link ContentDecoder} enforces on content it inflates, so that a small hostile
 * body (a zip bomb) costs no more than the limits allow. Immutable; a server or client keeps
 * one and hands it to every decoder it makes, on any thread.
 *
 * @param maxInflatedBytes the most bytes a stream may inflate to, in total over all its gzip
 *     members; one more byte fails the decoder with a 413
 * @param maxRatio the most inflated bytes per compressed byte, once past {@code ratioGraceBytes};
 *     0 for no ratio limit. Deflate cannot exceed about 1032:1, so a ratio below that is what
 *     catches a bomb early; legitimate text rarely passes 100:1.
 * @param ratioGraceBytes how many bytes may inflate before the ratio is checked, so that a
 *     short, very repetitive body passes
 * @param maxHeaderFieldLength the longest gzip header extra field, file name or comment, in
 *     bytes (the name and comment counting their zero terminator)
 */
public record DecoderLimits(long maxInflatedBytes, int maxRatio, long ratioGraceBytes, int maxHeaderFieldLength) {

    /** 10 MiB inflated, no ratio limit (grace 1 MiB should one be set), header fields up to 1 KiB. */
    public static final DecoderLimits DEFAULT = new DecoderLimits(10L * 1024 * 1024, 0, 1024 * 1024, 1024);

    /** @throws IllegalArgumentException when a limit is out of range */
    public DecoderLimits {
        if (maxInflatedBytes < 0) {
            throw new IllegalArgumentException("maxInflatedBytes must be 0 or more, was " + maxInflatedBytes);
        }
        if (maxRatio < 0) {
            throw new IllegalArgumentException("maxRatio must be 0 (no limit) or more, was " + maxRatio);
        }
        if (ratioGraceBytes < 0) {
            throw new IllegalArgumentException("ratioGraceBytes must be 0 or more, was " + ratioGraceBytes);
        }
        if (maxHeaderFieldLength < 0) {
            throw new IllegalArgumentException("maxHeaderFieldLength must be 0 or more, was " + maxHeaderFieldLength);
        }
    }

    /** @return these limits with another {@link #maxInflatedBytes()} */
    public DecoderLimits withMaxInflatedBytes(long maxInflatedBytes) {
        return new DecoderLimits(maxInflatedBytes, maxRatio, ratioGraceBytes, maxHeaderFieldLength);
    }

    /** @return these limits with another {@link #maxRatio()} and {@link #ratioGraceBytes()} */
    public DecoderLimits withMaxRatio(int maxRatio, long ratioGraceBytes) {
        return new DecoderLimits(maxInflatedBytes, maxRatio, ratioGraceBytes, maxHeaderFieldLength);
    }

    /** @return these limits with another {@link #maxHeaderFieldLength()} */
    public DecoderLimits withMaxHeaderFieldLength(int maxHeaderFieldLength) {
        return new DecoderLimits(maxInflatedBytes, maxRatio, ratioGraceBytes, maxHeaderFieldLength);
    }
}
