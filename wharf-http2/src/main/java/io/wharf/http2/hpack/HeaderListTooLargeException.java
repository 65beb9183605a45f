package io.wharf.http2.hpack;

/**
 * Thrown by {@link HpackEncoder#encode} when the fields to encode are larger than the peer's
 * SETTINGS_MAX_HEADER_LIST_SIZE, counted as RFC 9113 section 6.5.2 counts them (name and value
 * octets plus 32 per field). Nothing was written and the encoder's table did not change, so
 * the connection is intact: the caller fails only the message (a server answers 500, a client
 * fails the request).
 */
public final class HeaderListTooLargeException extends RuntimeException {

    private final long size;
    private final long limit;

    public HeaderListTooLargeException(long size, long limit) {
        super("header list of " + size + " bytes exceeds the peer's SETTINGS_MAX_HEADER_LIST_SIZE of " + limit);
        this.size = size;
        this.limit = limit;
    }

    /** @return the size of the header list that was refused */
    public long getSize() {
        return size;
    }

    /** @return the peer's limit */
    public long getLimit() {
        return limit;
    }
}
