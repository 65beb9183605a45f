package io.wharf.http2.hpack.internal;

import java.nio.ByteBuffer;

/**
 * Writes the primitives of an HPACK block (RFC 7541 section 5): integers with an N-bit prefix
 * and string literals, raw or Huffman-coded, at the buffer's position with relative puts.
 *
 * <p>Stateless: any thread may call it. The buffer belongs to the caller, who made sure it has
 * room; nothing is allocated.
 */
public final class BlockWriter {

    /** The most octets an integer takes: the prefix octet and five of 7 bits each (2^31 - 1 needs five). */
    public static final int MAX_INTEGER_OCTETS = 6;

    private BlockWriter() {
    }

    /**
     * Writes {@code value} with a {@code prefixBits}-bit prefix in an octet whose high bits
     * are {@code flags} (RFC 7541 section 5.1).
     */
    public static void putInteger(ByteBuffer out, int flags, int prefixBits, int value) {
        int prefixMax = (1 << prefixBits) - 1;
        if (value < prefixMax) {
            out.put((byte) (flags | value));
            return;
        }
        out.put((byte) (flags | prefixMax));
        int rest = value - prefixMax;
        while (rest >= 0x80) {
            out.put((byte) ((rest & 0x7F) | 0x80));
            rest >>>= 7;
        }
        out.put((byte) rest);
    }

    /**
     * Writes a string literal (RFC 7541 section 5.2): Huffman-coded when that is shorter and
     * {@code huffman} allows it, else raw. Each {@code char} is one octet (ISO-8859-1 text).
     */
    public static void putString(ByteBuffer out, CharSequence text, boolean huffman) {
        int length = text.length();
        int huffmanLength = huffman ? HuffmanEncoder.encodedLength(text) : Integer.MAX_VALUE;
        if (huffmanLength < length) {
            putInteger(out, 0x80, 7, huffmanLength);
            HuffmanEncoder.encode(out, text);
            return;
        }
        putInteger(out, 0x00, 7, length);
        for (int i = 0; i < length; i++) {
            out.put((byte) text.charAt(i));
        }
    }
}
