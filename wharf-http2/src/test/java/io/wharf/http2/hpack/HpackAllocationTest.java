package io.wharf.http2.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http2.Hex;
import io.wharf.testing.ThreadAllocation;

import org.junit.jupiter.api.Test;

/**
 * What decoding costs, measured with the JVM's per-thread allocation counter: a browser's
 * repeated request allocates only its field lists, and a hostile length allocates nothing sized
 * from it.
 */
class HpackAllocationTest {

    @Test
    void aRepeatedBrowserRequestAllocatesOnlyItsFieldLists() {
        HttpFields request = HttpFields.of(
            new HttpField(":method", "GET"), new HttpField(":scheme", "https"),
            new HttpField(":authority", "www.example.com"), new HttpField(":path", "/"),
            new HttpField("user-agent", "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"),
            new HttpField("accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
            new HttpField("accept-language", "en-US,en;q=0.5"),
            new HttpField("accept-encoding", "gzip, deflate, br, zstd"),
            new HttpField("upgrade-insecure-requests", "1"),
            new HttpField("sec-fetch-dest", "document"), new HttpField("sec-fetch-mode", "navigate"),
            new HttpField("sec-fetch-site", "none"), new HttpField("sec-fetch-user", "?1"),
            new HttpField("priority", "u=0, i"));
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder decoder = new HpackDecoder();
        decoder.decode(HpackRfcExamplesTest.encode(encoder, request));
        ByteBuffer repeated = HpackRfcExamplesTest.encode(encoder, request);
        assertEquals(14, repeated.remaining(), "every field is now one index");
        ByteBuffer direct = ByteBuffer.allocateDirect(repeated.remaining()).put(repeated).flip();

        long perBlock = ThreadAllocation.perRun(20_000, 20_000, () -> {
            direct.position(0);
            HeaderBlock block = decoder.decode(direct);
            if (block.fields().size() != 10) {
                throw new AssertionError(block);
            }
        });
        // Two lists (24 bytes each, with arrays of 32 and 48 + 80 bytes as the second grows) and the HeaderBlock (32): 240.
        assertTrue(perBlock <= 256, perBlock + " bytes allocated per block");
    }

    @Test
    void hostileLengthsAllocateNothingSizedFromThem() {
        HpackDecoder decoder = new HpackDecoder();
        ByteBuffer length231 = Hex.direct("40 7f 80 ff ff ff 07");
        ByteBuffer length263 = Hex.direct("40 7f ff ff ff ff ff ff ff ff 7f");
        long perPair = ThreadAllocation.perRun(5_000, 5_000, () -> {
            failToDecode(decoder, length231);
            failToDecode(decoder, length263);
        });
        // Two exceptions without stack traces and their messages: a few hundred bytes, nothing near 2 GiB.
        assertTrue(perPair < 1024, perPair + " bytes allocated for two hostile lengths");
    }

    @Test
    void hostileIndexesAndValueLengthsAllocateNothingSizedFromThem() {
        HpackDecoder decoder = new HpackDecoder();
        // An indexed field of 2^31 - 1 and of 2^63; a value length of 2^31 - 1 and of 2^63 after the name "a".
        ByteBuffer index231 = Hex.direct("ff 80 ff ff ff 07");
        ByteBuffer index263 = Hex.direct("ff 81 ff ff ff ff ff ff ff 7f");
        ByteBuffer value231 = Hex.direct("00 01 61 7f 80 ff ff ff 07");
        ByteBuffer value263 = Hex.direct("00 01 61 7f 81 ff ff ff ff ff ff ff 7f");
        long perFour = ThreadAllocation.perRun(5_000, 5_000, () -> {
            failToDecode(decoder, index231);
            failToDecode(decoder, index263);
            failToDecode(decoder, value231);
            failToDecode(decoder, value263);
        });
        // Four exceptions and their messages (and the name "a" twice): nothing near 2 GiB.
        assertTrue(perFour < 2048, perFour + " bytes allocated for four hostile integers");
    }

    private static void failToDecode(HpackDecoder decoder, ByteBuffer block) {
        block.position(0);
        try {
            decoder.decode(block);
            throw new AssertionError("decoded a hostile length");
        } catch (HpackException expected) {
            // What the test wants.
        }
    }

    @Test
    void aHugeLiteralPastTheListLimitIsCountedNotStored() {
        HpackDecoder decoder = new HpackDecoder(4096, 16 * 1024);
        HpackEncoder encoder = new HpackEncoder();
        encoder.setIndexingPolicy(field -> IndexingPolicy.Indexing.DO_NOT_INDEX);
        String huge = "h".repeat(1 << 20);
        decoder.decode(Hex.heap("40 88 25a8 49e9 5ba9 7d7f 89 25a8 49e9 5bb8 e8b4 bf"));  // loads the Huffman tables first
        for (boolean huffman : new boolean[] {false, true, true}) {
            encoder.setHuffman(huffman);
            ByteBuffer block = HpackRfcExamplesTest.encode(encoder, HttpFields.of(new HttpField("x-huge", huge), new HttpField("x-after", "1")));
            long before = ThreadAllocation.allocatedBytes();
            HeaderBlock decoded = decoder.decode(block);
            long allocated = ThreadAllocation.allocatedBytes() - before;
            assertTrue(decoded.tooLarge());
            assertEquals(6 + (1 << 20) + 32 + 7 + 1 + 32, decoded.size());
            // A raw string longer than the budget is skipped; a Huffman one is decoded into the
            // scratch array up to the budget (which grows to it once), then only counted.
            assertTrue(allocated < 20 * 1024, allocated + " bytes allocated decoding a 1 MiB literal, huffman " + huffman);
        }
    }
}
