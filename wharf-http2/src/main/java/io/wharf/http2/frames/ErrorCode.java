package io.wharf.http2.frames;

/**
 * The error codes of HTTP/2 (RFC 9113 section 7), carried by RST_STREAM and GOAWAY and named by
 * the frame parser when it finds a connection or stream error.
 *
 * <p>A received code may be one this list does not know: RFC 9113 says it must not trigger any
 * special behaviour, so the listener gets the raw number and {@link #from(long)} answers null
 * for it (treat it as {@link #INTERNAL_ERROR} if a name is needed).
 */
public enum ErrorCode {
    /** Not an error: a graceful shutdown. */
    NO_ERROR(0x0),
    /** An unspecific protocol error. */
    PROTOCOL_ERROR(0x1),
    /** An unexpected internal error. */
    INTERNAL_ERROR(0x2),
    /** The peer violated flow control. */
    FLOW_CONTROL_ERROR(0x3),
    /** A SETTINGS frame was not acknowledged in time. */
    SETTINGS_TIMEOUT(0x4),
    /** A frame came on a half-closed stream. */
    STREAM_CLOSED(0x5),
    /** A frame had an invalid size. */
    FRAME_SIZE_ERROR(0x6),
    /** The stream was refused before any processing. */
    REFUSED_STREAM(0x7),
    /** The stream is no longer needed. */
    CANCEL(0x8),
    /** The HPACK state cannot be kept. */
    COMPRESSION_ERROR(0x9),
    /** A CONNECT tunnel was reset or closed abnormally. */
    CONNECT_ERROR(0xa),
    /** The peer is generating excessive load. */
    ENHANCE_YOUR_CALM(0xb),
    /** The transport does not meet the minimum security requirements. */
    INADEQUATE_SECURITY(0xc),
    /** HTTP/1.1 is required instead of HTTP/2. */
    HTTP_1_1_REQUIRED(0xd);

    private static final ErrorCode[] BY_CODE = values();

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    /** @return the code sent on the wire */
    public int code() {
        return code;
    }

    /** @return the name of {@code code} (a 32-bit unsigned value), or {@code 0x} and its hex digits when HTTP/2 defines none */
    public static String describe(long code) {
        ErrorCode error = from(code);
        return error != null ? error.name() : "0x" + Long.toHexString(code);
    }

    /** @return the error of {@code code} (a 32-bit unsigned value), or null when HTTP/2 defines none */
    public static ErrorCode from(long code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[(int) code] : null;
    }
}
