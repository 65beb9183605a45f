package io.wharf.websocket.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A close status and reason (RFC 6455 sections 5.5.1 and 7.4): what a close frame carries, and
 * the rules for it. A close payload is empty (no status: 1005 is reported) or a two-byte code
 * and up to 123 bytes of UTF-8 reason. Codes a peer may send: 1000-1003, 1007-1014 and
 * 3000-4999; never 1004, 1005, 1006 or 1015 (reserved for reports, not for the wire), nor
 * anything below 1000 or from 1016 to 2999. Immutable.
 *
 * @param code the status code
 * @param reason the reason, never null (possibly empty)
 */
public record CloseStatus(int code, String reason) {

    public static final int NORMAL = 1000;
    public static final int GOING_AWAY = 1001;
    public static final int PROTOCOL_ERROR = 1002;
    public static final int UNSUPPORTED_DATA = 1003;
    /** Reported when a close frame had no status; never sent. */
    public static final int NO_STATUS = 1005;
    /** Reported when the connection ended without a close frame; never sent. */
    public static final int ABNORMAL = 1006;
    public static final int BAD_DATA = 1007;
    public static final int POLICY_VIOLATION = 1008;
    public static final int MESSAGE_TOO_BIG = 1009;
    public static final int MISSING_EXTENSION = 1010;
    public static final int SERVER_ERROR = 1011;
    /** The longest reason, in UTF-8 bytes: a control frame's payload is at most 125 bytes. */
    public static final int MAX_REASON_BYTES = 123;

    public CloseStatus {
        reason = reason == null ? "" : reason;
    }

    /** @return whether a peer may send {@code code} in a close frame */
    public static boolean isTransmittable(int code) {
        return code >= 1000 && code <= 1003 || code >= 1007 && code <= 1014 || code >= 3000 && code <= 4999;
    }

    /**
     * Reads a received close frame's payload.
     *
     * @param payload the unmasked payload; read from its position, which is not moved
     * @throws ProtocolException 1002 for a one-byte payload or a code a peer may not send,
     *     1007 for a reason that is not UTF-8
     */
    public static CloseStatus parse(ByteBuffer payload) {
        int length = payload.remaining();
        if (length == 0) {
            return new CloseStatus(NO_STATUS, "");
        }
        if (length == 1) {
            throw new ProtocolException(PROTOCOL_ERROR, "close frame with a one-byte payload");
        }
        int position = payload.position();
        int code = ((payload.get(position) & 0xFF) << 8) | (payload.get(position + 1) & 0xFF);
        if (!isTransmittable(code)) {
            throw new ProtocolException(PROTOCOL_ERROR, "close status " + code + " may not be sent");
        }
        ByteBuffer reason = payload.slice(position + 2, length - 2);
        Utf8Validator validator = new Utf8Validator();
        if (!validator.accept(reason.duplicate()) || !validator.isComplete()) {
            throw new ProtocolException(BAD_DATA, "close reason is not valid UTF-8");
        }
        return new CloseStatus(code, StandardCharsets.UTF_8.decode(reason).toString());
    }

    /**
     * @return the payload of a close frame sending this status: the code and the reason, cut
     *     at a character boundary to fit; empty for {@link #NO_STATUS}
     * @throws IllegalArgumentException when the code may not be sent
     */
    public ByteBuffer toPayload() {
        if (code == NO_STATUS) {
            return ByteBuffer.allocate(0);
        }
        if (!isTransmittable(code)) {
            throw new IllegalArgumentException("close status " + code + " may not be sent");
        }
        byte[] text = truncated(reason);
        ByteBuffer payload = ByteBuffer.allocate(2 + text.length);
        payload.put((byte) (code >> 8)).put((byte) code).put(text).flip();
        return payload;
    }

    /** @return {@code reason} in UTF-8, cut at a character boundary to at most {@link #MAX_REASON_BYTES} */
    static byte[] truncated(String reason) {
        byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_REASON_BYTES) {
            return bytes;
        }
        int end = MAX_REASON_BYTES;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return java.util.Arrays.copyOf(bytes, end);
    }
}
