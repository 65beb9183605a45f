package io.wharf.http2.hpack.internal;

import java.nio.ByteBuffer;

/**
 * Encodes strings with HPACK's Huffman code (RFC 7541 section 5.2), each {@code char} taken
 * as one octet (its low 8 bits: callers pass ISO-8859-1 text). The last octet is padded with
 * the most significant bits of EOS, that is with ones.
 *
 * <p>Stateless: any thread may call it. Writes into the caller's buffer and allocates nothing.
 */
public final class HuffmanEncoder {

    private HuffmanEncoder() {
    }

    /** @return the number of octets {@link #encode} writes for {@code text} */
    public static int encodedLength(CharSequence text) {
        long bits = 0;
        for (int i = 0, length = text.length(); i < length; i++) {
            bits += HuffmanCode.length(text.charAt(i) & 0xFF);
        }
        return (int) ((bits + 7) >>> 3);
    }

    /**
     * Writes the Huffman code of {@code text} at the buffer's position.
     *
     * @throws java.nio.BufferOverflowException when fewer than {@link #encodedLength} octets remain
     */
    public static void encode(ByteBuffer out, CharSequence text) {
        long pending = 0;
        int pendingBits = 0;
        for (int i = 0, length = text.length(); i < length; i++) {
            int symbol = text.charAt(i) & 0xFF;
            int codeLength = HuffmanCode.length(symbol);
            // At most 7 bits wait between symbols and a code has at most 30: 37 bits fit a long.
            pending = (pending << codeLength) | HuffmanCode.code(symbol);
            pendingBits += codeLength;
            while (pendingBits >= 8) {
                pendingBits -= 8;
                out.put((byte) (pending >>> pendingBits));
            }
        }
        if (pendingBits > 0) {
            out.put((byte) ((pending << (8 - pendingBits)) | (0xFF >>> pendingBits)));
        }
    }
}
