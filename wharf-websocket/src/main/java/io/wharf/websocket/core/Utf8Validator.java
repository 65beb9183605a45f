package io.wharf.websocket.core;

import java.nio.ByteBuffer;

/**
 * Checks that bytes arriving in pieces form well-formed UTF-8 (RFC 3629 section 4: no overlong
 * forms, no surrogates, nothing above U+10FFFF), failing at the first byte that cannot start or
 * continue a character, even in the middle of a frame or with a character split across frames.
 * A text message is valid when every piece was accepted and {@link #isComplete()} at its end.
 *
 * <p>One per message being received; used by the thread that reads it.
 */
public final class Utf8Validator {

    /** Continuation bytes still expected for the character under way. */
    private int pending;
    /** The range the next continuation byte must be in (narrower right after some lead bytes). */
    private int low = 0x80;
    private int high = 0xBF;

    /**
     * @param bytes read from its position to its limit; the position is moved to the end
     * @return false at the first byte that makes the text invalid (the rest is not read)
     */
    public boolean accept(ByteBuffer bytes) {
        int limit = bytes.limit();
        for (int i = bytes.position(); i < limit; i++) {
            // Between characters, eight ASCII bytes at a time (no high bit set): most text is ASCII.
            while (pending == 0 && i + 8 <= limit && (bytes.getLong(i) & 0x8080808080808080L) == 0) {
                i += 8;
            }
            if (i == limit) {
                break;
            }
            if (!accept(bytes.get(i) & 0xFF)) {
                bytes.position(i);
                return false;
            }
        }
        bytes.position(limit);
        return true;
    }

    private boolean accept(int b) {
        if (pending > 0) {
            if (b < low || b > high) {
                return false;
            }
            pending--;
            low = 0x80;
            high = 0xBF;
            return true;
        }
        if (b < 0x80) {
            return true;
        }
        if (b >= 0xC2 && b <= 0xDF) {
            pending = 1;
        } else if (b == 0xE0) {
            pending = 2;
            low = 0xA0;
        } else if (b >= 0xE1 && b <= 0xEC || b == 0xEE || b == 0xEF) {
            pending = 2;
        } else if (b == 0xED) {
            pending = 2;
            high = 0x9F;
        } else if (b == 0xF0) {
            pending = 3;
            low = 0x90;
        } else if (b >= 0xF1 && b <= 0xF3) {
            pending = 3;
        } else if (b == 0xF4) {
            pending = 3;
            high = 0x8F;
        } else {
            return false;
        }
        return true;
    }

    /** @return whether no character is left half-way */
    public boolean isComplete() {
        return pending == 0;
    }

    /** Forgets any character under way, for the next message. */
    public void reset() {
        pending = 0;
        low = 0x80;
        high = 0xBF;
    }
}
