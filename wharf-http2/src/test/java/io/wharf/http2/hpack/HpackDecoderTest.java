package io.wharf.http2.hpack;

import static io.wharf.http2.hpack.HpackRfcExamplesTest.render;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http2.Hex;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HpackDecoderTest {

    /** Hostile blocks, each with the problem its COMPRESSION_ERROR names; decoded by a decoder with a 4,096-octet table. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "index overflows 2^31 - 1 | ff ff ff ff ff 0f | integer exceeds 2^31 - 1",
        "name length 2^31 - 1 | 40 7f 80 ff ff ff 07 | string literal of 2147483647 octets exceeds the 0 left",
        "value length 2^31 - 1, Huffman | 40 01 61 ff 80 ff ff ff 07 | string literal of 2147483647 octets exceeds the 0 left",
        "length 2^63 | 40 7f ff ff ff ff ff ff ff ff 7f | integer exceeds 2^31 - 1",
        "six continuation octets | 40 7f 80 80 80 80 80 00 | more than 5 continuation octets",
        "name longer than the block | 40 0a 6375 7374 | string literal of 10 octets exceeds the 4 left",
        "value longer than the block | 40 01 61 05 62 | string literal of 5 octets exceeds the 1 left",
        "block ends after the representation octet | 41 | ends inside a field representation",
        "block ends inside an integer | 7f 80 | ends inside a field representation",
        "table size update above SETTINGS_HEADER_TABLE_SIZE | 3f e2 1f | update to 4097 exceeds SETTINGS_HEADER_TABLE_SIZE 4096",
        "table size update after a field | 82 20 | size update after the first field",
        "table size update after a literal | 04 01 2f 3f e1 1f | size update after the first field",
        "index 0 | 80 | index 0 is not a table entry",
        "indexed field beyond both tables | be | index 62 is beyond the 61 static and 0 dynamic table entries",
        "indexed name beyond both tables | 7e 01 61 | index 62 is beyond",
        "name index beyond both tables, never indexed | 1f 30 01 61 | index 63 is beyond",
        "EOS in a Huffman value | 40 01 61 84 ff ff ff ff | Huffman string contains EOS",
        "Huffman padding of 8 bits | 40 01 61 81 ff | padding is longer than 7 bits or not all ones",
        "Huffman padding of zeros | 40 81 18 01 61 | padding is longer than 7 bits or not all ones",
    })
    void hostileBlocksAreCompressionErrors(String name, String hex, String problem) {
        for (ByteBuffer block : List.of(Hex.heap(hex), Hex.direct(hex))) {
            HpackException failure = assertThrows(HpackException.class, () -> new HpackDecoder().decode(block));
            assertTrue(failure.getMessage().startsWith("COMPRESSION_ERROR: "), failure.getMessage());
            assertTrue(failure.getMessage().contains(problem), failure.getMessage());
        }
    }

    @Test
    void afterLoweringTheSettingTheNextBlockMustStartWithAnUpdate() {
        HpackDecoder decoder = new HpackDecoder();
        decoder.decode(Hex.heap("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
        decoder.setMaxTableCapacity(100);
        HpackException missing = assertThrows(HpackException.class, () -> decoder.decode(Hex.heap("82")));
        assertTrue(missing.getMessage().contains("does not start with a dynamic table size update to at most 100"), missing.getMessage());

        HpackDecoder another = new HpackDecoder();
        another.setMaxTableCapacity(100);
        HpackException tooBig = assertThrows(HpackException.class, () -> another.decode(Hex.heap("3f46 82")));
        assertTrue(tooBig.getMessage().contains("update to 101 exceeds SETTINGS_HEADER_TABLE_SIZE 100"), tooBig.getMessage());

        HpackDecoder obeyed = new HpackDecoder();
        obeyed.decode(Hex.heap("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
        obeyed.setMaxTableCapacity(100);
        HeaderBlock block = obeyed.decode(Hex.heap("3f45 be"));
        assertEquals(100, obeyed.getTableCapacity());
        assertEquals("custom-key", block.fields().getField(0).getName(), "a 55-octet entry fits 100 octets");
        assertEquals(1, obeyed.decode(Hex.heap("82")).pseudoHeaders().size(), "only the first block after the change needs the update");
    }

    @Test
    void aRaiseAndThenALowerAskForTheSmallest() {
        HpackDecoder decoder = new HpackDecoder();
        decoder.setMaxTableCapacity(1000);
        decoder.setMaxTableCapacity(8192);
        HpackException notSmallest = assertThrows(HpackException.class, () -> decoder.decode(Hex.heap("3f e1 3f 82")));
        assertTrue(notSmallest.getMessage().contains("to at most 1000"), notSmallest.getMessage());
        HpackDecoder fine = new HpackDecoder();
        fine.setMaxTableCapacity(1000);
        fine.setMaxTableCapacity(8192);
        fine.decode(Hex.heap("20 3f e1 3f 82"));
        assertEquals(8192, fine.getTableCapacity(), "0 first, then 8,192");
    }

    @Test
    void raisingTheSettingNeedsNoUpdate() {
        HpackDecoder decoder = new HpackDecoder();
        decoder.setMaxTableCapacity(8192);
        assertEquals(1, decoder.decode(Hex.heap("82")).pseudoHeaders().size());
        assertEquals(4096, decoder.getTableCapacity(), "the peer has not grown its table yet");
    }

    @Test
    void aTooLargeListIsReadToTheEndAndKeepsTheTableInStep() {
        HpackDecoder decoder = new HpackDecoder(4096, 120);
        // custom-key: custom-header (55, indexed), then :path: /sample/path (49, not indexed), then password: secret (46, never indexed).
        String block = "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"
            + "040c 2f73 616d 706c 652f 7061 7468"
            + "1008 7061 7373 776f 7264 0673 6563 7265 74";
        HeaderBlock tooLarge = decoder.decode(Hex.heap(block));
        assertTrue(tooLarge.tooLarge());
        assertEquals(55 + 49 + 46, tooLarge.size(), "every field is counted");
        assertEquals(0, tooLarge.fields().size());
        assertEquals(0, tooLarge.pseudoHeaders().size());
        assertEquals(List.of("custom-key: custom-header"), render(decoder.table()), "the indexed literal still went into the table");

        HeaderBlock next = decoder.decode(Hex.heap("be 82"));
        assertFalse(next.tooLarge());
        assertEquals(List.of("custom-key: custom-header"), render(next.fields()));
        assertEquals(List.of(":method: GET"), render(next.pseudoHeaders()));
    }

    @Test
    void thePathLengthIsKnownWhetherThePathWasKeptOrNot() {
        // :path by its static name (index 4), kept: "/sample/path" is 12 octets.
        assertEquals(12, new HpackDecoder().decode(Hex.heap("82 040c 2f73 616d 706c 652f 7061 7468")).pathLength());
        // The same field past a 40-octet list: not kept, still counted.
        HeaderBlock tooLarge = new HpackDecoder(4096, 40).decode(Hex.heap("82 040c 2f73 616d 706c 652f 7061 7468"));
        assertTrue(tooLarge.tooLarge());
        assertEquals(0, tooLarge.pseudoHeaders().size());
        assertEquals(12, tooLarge.pathLength());
        // A literal ":path" name, then a value past the list.
        HeaderBlock literal = new HpackDecoder(4096, 40).decode(Hex.heap("00 05 3a70 6174 68 0c 2f73 616d 706c 652f 7061 7468"));
        assertTrue(literal.tooLarge());
        assertEquals(12, literal.pathLength());
        // The static ":path: /" (index 4 whole), and none at all.
        assertEquals(1, new HpackDecoder().decode(Hex.heap("82 84")).pathLength());
        assertEquals(-1, new HpackDecoder().decode(Hex.heap("82")).pathLength());
    }

    @Test
    void aListExactlyAtTheLimitIsKept() {
        HeaderBlock block = new HpackDecoder(4096, 55).decode(
            Hex.heap("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
        assertFalse(block.tooLarge());
        assertEquals(55, block.size());
        HeaderBlock over = new HpackDecoder(4096, 54).decode(
            Hex.heap("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
        assertTrue(over.tooLarge());
    }

    @Test
    void anIndexedLiteralLargerThanTheTableEmptiesIt() {
        HpackDecoder decoder = new HpackDecoder(100, 16 * 1024);
        decoder.decode(Hex.heap("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"));
        assertEquals(1, decoder.table().length());
        String value = "v".repeat(80);
        // x: vvv... with incremental indexing: 1 + 80 + 32 = 113 octets.
        ByteBuffer big = ByteBuffer.allocate(84).put(Hex.bytes("40 01 78 50")).put(value.getBytes(StandardCharsets.ISO_8859_1)).flip();
        HeaderBlock block = decoder.decode(big);
        assertEquals(0, decoder.table().length(), "113 octets do not fit 100: the table is emptied");
        assertEquals(0, decoder.getTableSize());
        assertEquals(List.of("x: " + value), render(block.fields()), "the field itself is still part of the list");
    }

    @Test
    void namesAreKeptAsReceivedAndKnownOnesAreRecognised() {
        HpackDecoder decoder = new HpackDecoder();
        HeaderBlock block = decoder.decode(Hex.heap("00 0c 636f6e74656e742d74797065 01 61" + "00 0c 436f6e74656e742d54797065 01 62"));
        HttpField lower = block.fields().getField(0);
        HttpField upper = block.fields().getField(1);
        assertSame(HttpHeader.CONTENT_TYPE, lower.getHeader());
        assertSame(HttpHeader.CONTENT_TYPE.lowerCaseName(), lower.getName(), "a known lower-case name costs no String");
        assertSame(HttpHeader.CONTENT_TYPE, upper.getHeader());
        assertEquals("Content-Type", upper.getName(), "upper case is kept as received");
        assertEquals("upper-case field name (RFC 9113 section 8.2.1)", block.problem(), "and makes the block malformed");
    }

    @Test
    void pseudoHeadersAreSeparateAndTheirOrderIsTold() {
        HeaderBlock inOrder = new HpackDecoder().decode(Hex.heap("82 86 84 0f 00 06 61 62 63 64 65 66"));
        assertEquals(List.of(":method: GET", ":scheme: http", ":path: /"), render(inOrder.pseudoHeaders()));
        assertEquals(List.of("accept-charset: abcdef"), render(inOrder.fields()));
        assertFalse(inOrder.pseudoHeaderAfterField());
        assertEquals("/", inOrder.pseudoHeader(":path"));

        HeaderBlock late = new HpackDecoder().decode(Hex.heap("82 0f 00 06 61 62 63 64 65 66 84"));
        assertTrue(late.pseudoHeaderAfterField());
        assertEquals(List.of(":method: GET", ":path: /"), render(late.pseudoHeaders()));
    }

    @Test
    void anEmptyBlockHasNoFields() {
        HeaderBlock block = new HpackDecoder().decode(ByteBuffer.allocate(0));
        assertEquals(HttpFields.EMPTY, block.fields());
        assertEquals(0, block.size());
    }

    @Test
    void anEmptyLiteralNameIsAFieldThatMakesTheBlockMalformed() {
        HeaderBlock block = new HpackDecoder().decode(Hex.heap("00 00 01 61"));
        assertEquals(List.of(": a"), render(block.fields()));
        assertEquals("empty field name (RFC 9113 section 8.2.1)", block.problem());
    }

    /**
     * RFC 9113 section 8.2.1, checked on each literal as it is decoded (plain and Huffman): the
     * block is malformed, a stream error, and decoding goes on.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "space in a name | 00 03 782061 01 31 | octet 0x20 in a field name",
        "colon in a name | 00 03 783a62 01 31 | colon in a field name",
        "NUL in a name | 00 03 780063 01 31 | octet 0x00 in a field name",
        "DEL in a name | 00 02 787f 01 31 | octet 0x7f in a field name",
        "non-ASCII octet in a name | 00 02 78e9 01 31 | octet 0xe9 in a field name",
        "separator in a name | 00 03 782879 01 31 | octet 0x28 in a field name",
        "upper case in a name | 00 02 5841 01 31 | upper-case field name",
        "empty pseudo-header name | 00 01 3a 01 31 | empty pseudo-header name",
        "upper-case pseudo-header name | 00 05 3a50617468 01 2f | upper-case field name",
        "NUL in a value | 00 01 78 03 610062 | octet 0x00 in a field value",
        "CR LF in a value | 00 01 78 04 610d0a62 | octet 0x0d in a field value",
        "control octet in a value | 00 01 78 03 610162 | octet 0x01 in a field value",
        "DEL in a value | 00 01 78 03 617f62 | octet 0x7f in a field value",
        "leading space in a value | 00 01 78 02 2061 | field value with leading or trailing whitespace",
        "trailing tab in a value | 00 01 78 02 6109 | field value with leading or trailing whitespace",
        "LF in a pseudo-header value, indexed name | 04 02 2f0a | octet 0x0a in a field value",
        "upper case in a Huffman name | 00 81 87 01 31 | upper-case field name",
    })
    void fieldsHttp2ForbidsMakeTheBlockMalformed(String name, String hex, String problem) {
        for (ByteBuffer block : List.of(Hex.heap(hex), Hex.direct(hex))) {
            HeaderBlock decoded = new HpackDecoder().decode(block);
            assertEquals(problem + " (RFC 9113 section 8.2.1)", decoded.problem());
            assertEquals(1, decoded.fields().size() + decoded.pseudoHeaders().size(), "the field is still decoded");
        }
    }

    @Test
    void wellFormedFieldsHaveNoProblem() {
        // "x: a b<HTAB>c", "x: caf<e9>", "x:" (empty value), a name of every token symbol, ":path: /".
        HeaderBlock block = new HpackDecoder().decode(Hex.heap("00 01 78 05 612062 0963" + "00 01 78 04 636166e9" + "00 01 78 00"
                + "00 0f 2123242526272a2b2d2e5e5f607c7e 01 31" + "84"));
        assertEquals(null, block.problem());
        assertEquals(4, block.fields().size());
    }

    @Test
    void aMalformedFieldInTheTableMakesEachBlockThatNamesItMalformed() {
        HpackDecoder names = new HpackDecoder();
        String badName = "octet 0x20 in a field name (RFC 9113 section 8.2.1)";
        assertEquals(badName, names.decode(Hex.heap("40 03 782061 01 31")).problem(), "x a: 1, indexed");
        assertEquals(1, names.table().length(), "kept in the table, in step with the peer's");
        assertEquals(badName, names.decode(Hex.heap("be")).problem(), "the entry again, by its index");
        assertEquals(badName, names.decode(Hex.heap("0f 2f 01 32")).problem(), "its name with another value");
        assertEquals(null, names.decode(Hex.heap("82")).problem(), "a block that does not name it");

        HpackDecoder values = new HpackDecoder();
        String badValue = "field value with leading or trailing whitespace (RFC 9113 section 8.2.1)";
        assertEquals(badValue, values.decode(Hex.heap("40 01 78 02 2061")).problem(), "x: ' a', indexed");
        assertEquals(badValue, values.decode(Hex.heap("be")).problem(), "the entry again");
        assertEquals(null, values.decode(Hex.heap("0f 2f 01 62")).problem(), "its name, which is fine, with a good value");
    }
}
