package io.wharf.websocket.core;

import java.nio.ByteBuffer;

/**
 * The masking of RFC 6455 section 5.3: payload byte {@code i} is XORed with mask byte
 * {@code i mod 4}. Used by the parser (unmasking in place) and the generator (masking into
 * another buffer), eight bytes at a time where it can. Stateless; any thread.
 */
final class Masking {

    private Masking() {
    }

    /**
     * XORs {@code length} bytes of {@code from} (absolute index {@code fromIndex}) with the mask
     * and writes them to {@code to} at {@code toIndex}; the two may be the same buffer and index.
     * No position moves.
     *
     * @param phase where in the payload the first byte is, so the mask lines up with it
     */
    static void xor(ByteBuffer from, int fromIndex, ByteBuffer to, int toIndex, int length, byte[] mask, long phase) {
        int shift = (int) (phase & 3);
        long word = 0;
        for (int i = 0; i < 8; i++) {
            word = (word << 8) | (mask[(shift + i) & 3] & 0xFF);
        }
        int i = 0;
        // ByteBuffer's getLong/putLong use the buffer's order: the mask word must match it.
        long ordered = from.order() == java.nio.ByteOrder.BIG_ENDIAN ? word : Long.reverseBytes(word);
        if (from.order() == to.order()) {
            for (; i + 8 <= length; i += 8) {
                to.putLong(toIndex + i, from.getLong(fromIndex + i) ^ ordered);
            }
        }
        for (; i < length; i++) {
            to.put(toIndex + i, (byte) (from.get(fromIndex + i) ^ mask[(shift + i) & 3]));
        }
    }
}
