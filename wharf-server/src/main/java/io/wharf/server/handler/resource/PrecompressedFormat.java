package io.wharf.server.handler.resource;

/**
 * A content coding a {@link ResourceHandler} can serve from a file compressed ahead of time,
 * stored beside the original under the original's name plus an extension: {@code app.js.br},
 * {@code app.js.gz}, {@code app.js.zst}. Constants only; safe to share.
 */
public enum PrecompressedFormat {
    /** Brotli (RFC 7932), in {@code .br} files. */
    BR("br", ".br"),
    /** Gzip (RFC 1952), in {@code .gz} files. */
    GZIP("gzip", ".gz"),
    /** Zstandard (RFC 8878), in {@code .zst} files. */
    ZSTD("zstd", ".zst");

    private final String coding;
    private final String extension;

    PrecompressedFormat(String coding, String extension) {
        this.coding = coding;
        this.extension = extension;
    }

    /** @return the content coding token, as sent in {@code Content-Encoding} */
    public String coding() {
        return coding;
    }

    /** @return the extension of the compressed file, dot included */
    public String extension() {
        return extension;
    }

    /**
     * @param coding a content coding token, in any case: {@code br}, {@code gzip} or {@code zstd}
     * @return its format
     * @throws IllegalArgumentException for any other coding
     */
    public static PrecompressedFormat ofCoding(String coding) {
        for (PrecompressedFormat format : values()) {
            if (format.coding.equalsIgnoreCase(coding)) {
                return format;
            }
        }
        throw new IllegalArgumentException("no precompressed format for the content coding '" + coding
                + "'; known: br, gzip, zstd");
    }
}
