package io.wharf.websocket.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Turns the fragments of a streamed text message, already checked as UTF-8, into strings: a
 * character split between fragments is held back (at most three bytes) and put in front of the
 * next fragment, so every piece handed on is whole characters.
 *
 * <p>One per connection, used by its reading thread only. Holds no pooled buffer: the carried
 * bytes are copied into a four-byte array.
 */
final class Utf8Fragments {

    private final byte[] carry = new byte[4];
    private int carried;

    /**
     * @param bytes valid UTF-8 so far, read from position to limit (left untouched)
     * @param last whether it ends the message (then nothing may be left over)
     * @return the whole characters up to the last complete one
     */
    String decode(ByteBuffer bytes, boolean last) {
        byte[] all = new byte[carried + bytes.remaining()];
        System.arraycopy(carry, 0, all, 0, carried);
        bytes.get(bytes.position(), all, carried, bytes.remaining());
        int whole = last ? all.length : all.length - incompleteTail(all);
        carried = all.length - whole;
        System.arraycopy(all, whole, carry, 0, carried);
        return new String(all, 0, whole, StandardCharsets.UTF_8);
    }

    /** @return how many bytes at the end begin a character that is not complete yet (0 to 3) */
    private static int incompleteTail(byte[] bytes) {
        for (int back = 1; back <= Math.min(3, bytes.length); back++) {
            int b = bytes[bytes.length - back] & 0xFF;
            if (b < 0x80) {
                return 0;
            }
            if (b >= 0xC0) {
                int needed = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
                return needed > back ? back : 0;
            }
        }
        return 0;
    }
}
