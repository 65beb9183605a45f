package io.wharf.http2.frames.internal;

import static io.wharf.http2.frames.ErrorCode.FRAME_SIZE_ERROR;
import static io.wharf.http2.frames.ErrorCode.PROTOCOL_ERROR;

import io.wharf.http2.frames.FrameType;

/**
 * The rules of RFC 9113 section 6 that a frame header alone decides: which frames need a
 * stream and which must be on stream 0, the fixed payload sizes, and the minimum sizes of
 * frames with optional parts. Checked before any payload is read or buffered.
 *
 * <p>Stateless: any thread may call it.
 */
public final class FrameRules {

    private FrameRules() {
    }

    /** @return the rule the frame header breaks, or null when it breaks none */
    public static Violation check(FrameType type, int flags, int streamId, int length) {
        int padLength = Flags.has(flags, Flags.PADDED) ? 1 : 0;
        return switch (type) {
            case DATA -> streamId == 0 ? onStreamZero(type) : atLeast(type, length, padLength);
            case HEADERS -> streamId == 0 ? onStreamZero(type)
                : atLeast(type, length, padLength + (Flags.has(flags, Flags.PRIORITY) ? 5 : 0));
            case PRIORITY -> streamId == 0 ? onStreamZero(type)
                : length != 5 ? Violation.stream(FRAME_SIZE_ERROR, "PRIORITY frame of " + length
                    + " octets, not 5 (RFC 9113 section 6.3)") : null;
            case RST_STREAM -> streamId == 0 ? onStreamZero(type) : exactly(type, length, 4);
            case SETTINGS -> streamId != 0 ? offStreamZero(type, streamId)
                : Flags.has(flags, Flags.ACK) && length != 0 ? Violation.connection(FRAME_SIZE_ERROR,
                    "SETTINGS acknowledgement with a payload of " + length + " octets (RFC 9113 section 6.5)")
                : length % 6 != 0 ? Violation.connection(FRAME_SIZE_ERROR,
                    "SETTINGS frame of " + length + " octets, not a multiple of 6 (RFC 9113 section 6.5)")
                : null;
            case PUSH_PROMISE -> streamId == 0 ? onStreamZero(type) : atLeast(type, length, padLength + 4);
            case PING -> streamId != 0 ? offStreamZero(type, streamId) : exactly(type, length, 8);
            case GOAWAY -> streamId != 0 ? offStreamZero(type, streamId) : atLeast(type, length, 8);
            case WINDOW_UPDATE -> exactly(type, length, 4);
            case CONTINUATION -> streamId == 0 ? onStreamZero(type) : null;
        };
    }

    private static Violation onStreamZero(FrameType type) {
        return Violation.connection(PROTOCOL_ERROR, type + " frame on stream 0 (RFC 9113 section 6)");
    }

    private static Violation offStreamZero(FrameType type, int streamId) {
        return Violation.connection(PROTOCOL_ERROR, type + " frame on stream " + streamId + ", not 0 (RFC 9113 section 6)");
    }

    private static Violation exactly(FrameType type, int length, int size) {
        return length == size ? null : Violation.connection(FRAME_SIZE_ERROR, type + " frame of " + length
            + " octets, not " + size + " (RFC 9113 section 6)");
    }

    private static Violation atLeast(FrameType type, int length, int minimum) {
        return length >= minimum ? null : Violation.connection(FRAME_SIZE_ERROR, type + " frame of " + length
            + " octets, shorter than its " + minimum + " mandatory octets (RFC 9113 section 4.2)");
    }
}
