package io.wharf.http2.hpack.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import io.wharf.http2.Hex;
import io.wharf.http2.hpack.HpackException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HuffmanTest {

    /** Rows of RFC 7541 Appendix B as printed: symbol, code as hex, length; every length from 5 to 30 appears. */
    @ParameterizedTest(name = "symbol {0}: {1} in {2} bits")
    @CsvSource({
        "0, 1ff8, 13", "1, 7fffd8, 23", "2, fffffe2, 28", "9, ffffea, 24", "10, 3ffffffc, 30", "13, 3ffffffd, 30",
        "22, 3ffffffe, 30", "31, ffffffb, 28", "32, 14, 6", "33, 3f8, 10", "35, ffa, 12", "36, 1ff9, 13",
        "38, f8, 8", "39, 7fa, 11", "47, 18, 6", "48, 0, 5", "58, 5c, 7", "60, 7ffc, 15", "63, 3fc, 10",
        "88, fc, 8", "89, 73, 7", "92, 7fff0, 19", "94, 3ffc, 14", "96, 7ffd, 15", "97, 3, 5", "116, 9, 5",
        "122, 7b, 7", "123, 7ffe, 15", "124, 7fc, 11", "125, 3ffd, 14", "126, 1ffd, 13", "127, ffffffc, 28",
        "128, fffe6, 20", "129, 3fffd2, 22", "135, 7fffd9, 23", "153, 1fffdc, 21", "192, 3ffffe0, 26",
        "195, 7fff1, 19", "199, 1ffffec, 25", "203, 7ffffde, 27", "220, ffffffd, 28", "249, ffffffe, 28",
        "254, 7fffff0, 27", "255, 3ffffee, 26", "256, 3fffffff, 30",
    })
    void canonicalCodesAreTheRfcCodes(int symbol, String code, int length) {
        assertEquals(length, HuffmanCode.length(symbol));
        assertEquals(Integer.parseInt(code, 16), HuffmanCode.code(symbol));
    }

    /** Strings and their Huffman forms from RFC 7541 Appendix C.4 and C.6. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "www.example.com | f1e3 c2e5 f23a 6ba0 ab90 f4ff",
        "no-cache | a8eb 1064 9cbf",
        "custom-key | 25a8 49e9 5ba9 7d7f",
        "custom-value | 25a8 49e9 5bb8 e8b4 bf",
        "302 | 6402",
        "307 | 640e ff",
        "private | aec3 771a 4b",
        "Mon, 21 Oct 2013 20:13:21 GMT | d07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff",
        "https://www.example.com | 9d29 ad17 1863 c78f 0b97 c8e9 ae82 ae43 d3",
        "gzip | 9bd9 ab",
        "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1 | 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07",
    })
    void encodesAndDecodesTheRfcExamples(String text, String hex) {
        assertEquals(Hex.normalize(hex), Hex.of(encode(text)));
        assertEquals(text, decode(Hex.heap(hex)));
        assertEquals(text, decode(Hex.direct(hex)));
    }

    @Test
    void everyOctetValueRoundTrips() {
        StringBuilder all = new StringBuilder();
        for (int c = 0; c < 256; c++) {
            all.append((char) c);
        }
        assertEquals(all.toString(), decode(encode(all.toString())));
    }

    @Test
    void randomStringsOfAllOctetValuesRoundTrip() {
        Random random = new Random(7541);
        for (int round = 0; round < 5_000; round++) {
            char[] text = new char[random.nextInt(300)];
            for (int i = 0; i < text.length; i++) {
                text[i] = (char) random.nextInt(256);
            }
            String string = new String(text);
            ByteBuffer encoded = encode(string);
            assertEquals(HuffmanEncoder.encodedLength(string), encoded.remaining());
            assertEquals(string, decode(encoded), "round " + round);
        }
    }

    @Test
    void emptyStringIsEmpty() {
        assertEquals(0, HuffmanEncoder.encodedLength(""));
        assertEquals("", decode(ByteBuffer.allocate(0)));
    }

    @Test
    void decodingPastTheStoredMaximumKeepsCountingWithoutWriting() {
        ByteBuffer encoded = encode("www.example.com");
        byte[] out = new byte[4];
        assertEquals(15, HuffmanDecoder.decode(encoded, 0, encoded.remaining(), out, 0, 4));
        assertEquals("www.", new String(out, StandardCharsets.ISO_8859_1));
        assertEquals(15, HuffmanDecoder.decode(encoded, 0, encoded.remaining(), null, 0, 0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // EOS is thirty 1 bits: in full it may never appear, even as "padding".
        "EOS alone | ffff ffff | contains EOS",
        "EOS after a symbol | 1fff ffff fc | contains EOS",
        // 'a' is 00011: three 1 bits pad it to an octet; eight or more padding bits are too many.
        "a full octet of padding | ff | padding",
        "eleven padding bits | 1fff | padding",
        // Padding must be the most significant bits of EOS, that is ones.
        "padding of zeros | 18 | padding",
        "padding of a one then zeros | 1c | padding",
    })
    void refusesEosAndBadPadding(String name, String hex, String problem) {
        ByteBuffer encoded = Hex.heap(hex);
        HpackException failure = assertThrows(HpackException.class, () -> decode(encoded));
        assertTrue(failure.getMessage().startsWith("COMPRESSION_ERROR"), failure.getMessage());
        assertTrue(failure.getMessage().contains(problem), failure.getMessage());
    }

    private static ByteBuffer encode(String text) {
        ByteBuffer out = ByteBuffer.allocate(HuffmanEncoder.encodedLength(text));
        HuffmanEncoder.encode(out, text);
        assertEquals(0, out.remaining(), "encodedLength is exact");
        return out.flip();
    }

    private static String decode(ByteBuffer encoded) {
        byte[] out = new byte[encoded.remaining() * 8 / 5];
        int length = HuffmanDecoder.decode(encoded, encoded.position(), encoded.remaining(), out, 0, out.length);
        return new String(out, 0, length, StandardCharsets.ISO_8859_1);
    }
}
