package io.wharf.http2.hpack.internal;

/**
 * The Huffman code of HPACK (RFC 7541 Appendix B): a code for each of the 256 octets and for
 * the end-of-string symbol EOS (256), 5 to 30 bits long.
 *
 * <p>The RFC's code is canonical: within one length, codes rise with the symbol, and each
 * length's first code follows the last code of the length before. So the table below keeps
 * only the 257 code lengths, and the codes are computed from them at class load; the tests
 * compare the result with the RFC's printed codes. Immutable and shared by every thread.
 */
public final class HuffmanCode {

    /** The end-of-string symbol; it must never appear in an encoded string. */
    public static final int EOS = 256;

    /** The code length in bits of each symbol, 0..255 then EOS, transcribed from RFC 7541 Appendix B. */
    private static final byte[] LENGTHS = {
        // 0..31: control characters
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        // 32..63: ' ' ! " # $ % & ' ( ) * + , - . / 0 1 2 3 4 5 6 7 8 9 : ; < = > ?
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        // 64..95: @ A..Z [ \ ] ^ _
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        // 96..127: ` a..z { | } ~ DEL
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        // 128..255
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        // EOS
        30,
    };

    /** The code of each symbol, aligned to the least significant bit. */
    private static final int[] CODES = canonicalCodes();

    private HuffmanCode() {
    }

    /** @return the length in bits of the code of {@code symbol} (0..256) */
    public static int length(int symbol) {
        return LENGTHS[symbol];
    }

    /** @return the code of {@code symbol} (0..256), in its low {@link #length} bits */
    public static int code(int symbol) {
        return CODES[symbol];
    }

    /**
     * Assigns canonical codes: shortest lengths first, symbols in order within a length, each
     * code one more than the one before, shifted left when the length grows.
     */
    private static int[] canonicalCodes() {
        int symbols = LENGTHS.length;
        int[] codes = new int[symbols];
        int code = 0;
        int previousLength = 0;
        for (int length = 1; length <= 30; length++) {
            for (int symbol = 0; symbol < symbols; symbol++) {
                if (LENGTHS[symbol] == length) {
                    code <<= length - previousLength;
                    previousLength = length;
                    codes[symbol] = code++;
                }
            }
        }
        if (code != 1 << previousLength) {
            throw new IllegalStateException("the Huffman code lengths do not make a complete prefix code");
        }
        return codes;
    }
}
