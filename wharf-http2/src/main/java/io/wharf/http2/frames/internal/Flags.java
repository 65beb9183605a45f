package io.wharf.http2.frames.internal;

/** The frame flags of RFC 9113 section 6; each means something only for the frame types named. */
public final class Flags {

    /** DATA, HEADERS: the last frame the sender sends on the stream. */
    public static final int END_STREAM = 0x1;
    /** SETTINGS, PING: an acknowledgement. */
    public static final int ACK = 0x1;
    /** HEADERS, PUSH_PROMISE, CONTINUATION: the header block ends with this frame. */
    public static final int END_HEADERS = 0x4;
    /** DATA, HEADERS, PUSH_PROMISE: a Pad Length octet and padding are present. */
    public static final int PADDED = 0x8;
    /** HEADERS: the stream dependency and weight are present. */
    public static final int PRIORITY = 0x20;

    private Flags() {
    }

    /** @return whether {@code flag} is set in {@code flags} */
    public static boolean has(int flags, int flag) {
        return (flags & flag) != 0;
    }
}
