package io.wharf.http2.hpack;

/**
 * A header block that cannot be decoded: a truncated or overflowing integer, a string longer
 * than the block, an index outside the tables, a bad Huffman string, a dynamic table size
 * update above the limit or after the first field. RFC 9113 section 4.3 makes any of these a
 * connection error of type COMPRESSION_ERROR: the decoder's table may now disagree with the
 * peer's, so the connection cannot go on.
 *
 * <p>Thrown by {@link HpackDecoder#decode} on the thread that decodes; the message names the
 * problem and never echoes the peer's bytes. Carries no buffer.
 */
public final class HpackException extends RuntimeException {

    private final String reason;

    /** @param reason names the problem, without the peer's bytes */
    public HpackException(String reason) {
        super("COMPRESSION_ERROR: " + reason, null, false, false);
        this.reason = reason;
    }

    /** @return the problem, without the error code the message starts with */
    public String getReason() {
        return reason;
    }
}
