package io.wharf.http2.frames;

/**
 * The frame types of HTTP/2 (RFC 9113 section 6). Frames of any other type are skipped by
 * the parser, as section 5.5 asks, except inside a header block, where they are an error.
 */
public enum FrameType {
    DATA(0x0),
    HEADERS(0x1),
    PRIORITY(0x2),
    RST_STREAM(0x3),
    SETTINGS(0x4),
    PUSH_PROMISE(0x5),
    PING(0x6),
    GOAWAY(0x7),
    WINDOW_UPDATE(0x8),
    CONTINUATION(0x9);

    private static final FrameType[] BY_CODE = values();

    private final int code;

    FrameType(int code) {
        this.code = code;
    }

    /** @return the type octet sent on the wire */
    public int code() {
        return code;
    }

    /** @return the type of {@code code} (0..255), or null for a type HTTP/2 does not define */
    public static FrameType from(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
