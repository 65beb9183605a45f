package io.wharf.http2.frames;

/**
 * The settings an HTTP/2 endpoint announces in SETTINGS frames (RFC 9113 section 6.5.2, plus
 * RFC 8441's ENABLE_CONNECT_PROTOCOL and RFC 9218's NO_RFC7540_PRIORITIES), each with the
 * range RFC 9113 allows and the error a value outside it is. A setting with another
 * identifier is ignored, as the RFC asks.
 */
public enum Setting {
    /** The HPACK dynamic table the sender's decoder allows; initially 4,096. */
    HEADER_TABLE_SIZE(0x1, 4096, 0xFFFF_FFFFL, ErrorCode.PROTOCOL_ERROR),
    /** Whether the server may push: 0 or 1; initially 1. */
    ENABLE_PUSH(0x2, 1, 1, ErrorCode.PROTOCOL_ERROR),
    /** The streams the sender lets the peer open at once; initially unlimited. */
    MAX_CONCURRENT_STREAMS(0x3, -1, 0xFFFF_FFFFL, ErrorCode.PROTOCOL_ERROR),
    /** The initial flow-control window of each stream; initially 65,535; above 2^31 - 1 a FLOW_CONTROL_ERROR. */
    INITIAL_WINDOW_SIZE(0x4, 65_535, Integer.MAX_VALUE, ErrorCode.FLOW_CONTROL_ERROR),
    /** The largest frame payload the sender accepts: 16,384 to 16,777,215; initially 16,384. */
    MAX_FRAME_SIZE(0x5, 16_384, 0xFF_FFFF, ErrorCode.PROTOCOL_ERROR),
    /** The largest header list the sender accepts (advisory); initially unlimited. */
    MAX_HEADER_LIST_SIZE(0x6, -1, 0xFFFF_FFFFL, ErrorCode.PROTOCOL_ERROR),
    /** Whether the sender accepts extended CONNECT (RFC 8441): 0 or 1; initially 0. */
    ENABLE_CONNECT_PROTOCOL(0x8, 0, 1, ErrorCode.PROTOCOL_ERROR),
    /** Whether the sender ignores RFC 7540 priorities (RFC 9218): 0 or 1; initially 0. */
    NO_RFC7540_PRIORITIES(0x9, 0, 1, ErrorCode.PROTOCOL_ERROR);

    private static final Setting[] BY_ID = new Setting[16];

    static {
        for (Setting setting : values()) {
            BY_ID[setting.id] = setting;
        }
    }

    private final int id;
    private final long initialValue;
    private final long maxValue;
    private final ErrorCode error;

    Setting(int id, long initialValue, long maxValue, ErrorCode error) {
        this.id = id;
        this.initialValue = initialValue;
        this.maxValue = maxValue;
        this.error = error;
    }

    /** @return the identifier sent on the wire */
    public int id() {
        return id;
    }

    /** @return the value in force before any SETTINGS frame, or -1 when the RFC says unlimited */
    public long initialValue() {
        return initialValue;
    }

    /** @return the setting with identifier {@code id}, or null for one that is ignored */
    public static Setting from(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    /**
     * @param value a 32-bit unsigned value as received
     * @return null when the value is allowed, else the reason it is a connection error of type {@link #error()}
     */
    public String check(long value) {
        long min = this == MAX_FRAME_SIZE ? 16_384 : 0;
        if (value < min || value > maxValue) {
            return this + " " + value + " is outside " + min + ".." + maxValue;
        }
        return null;
    }

    /** @return the error a value refused by {@link #check} is */
    public ErrorCode error() {
        return error;
    }
}
