package io.wharf.http2.frames.internal;

import io.wharf.http2.frames.ErrorCode;

/**
 * A rule of RFC 9113 a frame broke: the error code, whether it is an error of the whole
 * connection or of its stream only, and a reason naming the rule.
 */
public record Violation(ErrorCode error, boolean connection, String reason) {

    /** @return a connection error */
    public static Violation connection(ErrorCode error, String reason) {
        return new Violation(error, true, reason);
    }

    /** @return an error of the frame's stream only */
    public static Violation stream(ErrorCode error, String reason) {
        return new Violation(error, false, reason);
    }
}
