package io.wharf.http2.hpack.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import io.wharf.http2.Hex;
import io.wharf.http2.hpack.HpackException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Integers and string literals as {@link BlockWriter} writes and {@link BlockReader} reads them. */
class BlockCodingTest {

    /** RFC 7541 Appendix C.1, and the edges of each prefix. */
    @ParameterizedTest(name = "{0} with a {1}-bit prefix")
    @CsvSource({
        "10, 5, 0a", "1337, 5, 1f9a0a", "42, 8, 2a",
        "30, 5, 1e", "31, 5, 1f00", "127, 7, 7f00", "128, 7, 7f01", "254, 8, fe", "255, 8, ff00",
        "2147483647, 7, 7f80ffffff07", "2147483647, 4, 0ff0ffffff07", "2147483647, 8, ff80feffff07",
    })
    void integersAreWrittenAndReadAsTheRfcSays(int value, int prefixBits, String hex) {
        ByteBuffer out = ByteBuffer.allocate(BlockWriter.MAX_INTEGER_OCTETS);
        BlockWriter.putInteger(out, 0, prefixBits, value);
        assertEquals(hex, Hex.of(out.flip()));
        BlockReader reader = new BlockReader();
        reader.start(out);
        assertEquals(value, reader.readInteger(reader.readOctet(), prefixBits));
        assertFalse(reader.hasRemaining());
    }

    @Test
    void flagsAboveThePrefixAreKept() {
        ByteBuffer out = ByteBuffer.allocate(8);
        BlockWriter.putInteger(out, 0x80, 7, 2);
        BlockWriter.putInteger(out, 0x40, 6, 100);
        assertEquals("827f25", Hex.of(out.flip()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "2^31 with a 7-bit prefix | 7f 81 ff ff ff 07 | exceeds 2^31 - 1",
        "2^32 | 7f 81 ff ff ff 0f | exceeds 2^31 - 1",
        "2^63 in ten octets | 7f ff ff ff ff ff ff ff ff 7f | exceeds 2^31 - 1",
        "six continuation octets of zero | 7f 80 80 80 80 80 00 | more than 5 continuation octets",
        "cut after the prefix | 7f | ends inside",
        "cut in the continuation | 7f 80 | ends inside",
    })
    void hostileIntegersFailBeforeAnythingIsSizedFromThem(String name, String hex, String problem) {
        BlockReader reader = new BlockReader();
        reader.start(Hex.heap(hex));
        HpackException failure = assertThrows(HpackException.class, () -> reader.readInteger(reader.readOctet(), 7));
        assertTrue(failure.getMessage().contains(problem), failure.getMessage());
    }

    @Test
    void stringsGoHuffmanOnlyWhenShorter() {
        ByteBuffer out = ByteBuffer.allocate(64);
        BlockWriter.putString(out, "www.example.com", true);
        BlockWriter.putString(out, "307", true);
        BlockWriter.putString(out, "www.example.com", false);
        assertEquals(Hex.normalize("8cf1e3c2e5f23a6ba0ab90f4ff 03333037 0f7777772e6578616d706c652e636f6d"), Hex.of(out.flip()));
    }

    @Test
    void stringsAreStoredOnlyUpToTheMaximumAskedFor() {
        ByteBuffer out = ByteBuffer.allocate(64);
        BlockWriter.putString(out, "www.example.com", true);
        BlockWriter.putString(out, "custom-value", false);
        BlockReader reader = new BlockReader();
        reader.start(out.flip());
        assertEquals(15, reader.readString(0, 15));
        assertEquals("www.example.com", reader.string(0, 15));
        assertEquals(12, reader.readString(0, 11), "longer than the maximum: counted, not stored");
        assertEquals("www.example.com", reader.string(0, 15), "the scratch was not written");
        assertFalse(reader.hasRemaining());
    }

    @Test
    void aStringLongerThanTheBlockFailsWithoutStoringAnything() {
        BlockReader reader = new BlockReader();
        reader.start(Hex.heap("7f 80 ff ff ff 07 41 42"));
        HpackException failure = assertThrows(HpackException.class, () -> reader.readString(0, Integer.MAX_VALUE));
        assertTrue(failure.getMessage().contains("string literal of 2147483647 octets exceeds the 2 left"), failure.getMessage());
    }
}
