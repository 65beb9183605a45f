package io.wharf.http2.hpack;

import static io.wharf.http2.hpack.HpackRfcExamplesTest.encode;
import static io.wharf.http2.hpack.HpackRfcExamplesTest.render;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http2.Hex;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HpackEncoderTest {

    /** The representation octet's top bits: 1 indexed, 01 indexed literal, 0000 literal, 0001 never indexed. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "Authorization | Bearer 0123456789abcdef0123456789 | never",
        "Proxy-Authorization | Basic dXNlcjpwYXNz | never",
        "Cookie | sid=31d4d96e | never",
        "Cookie | sid=31d4d96e407aad42; theme=dark; lang=en | indexed literal",
        "Set-Cookie | sid=1 | never",
        ":path | /search?q=wharf | literal",
        ":path | /assets/app.css | indexed literal",
        "Content-Length | 1234 | literal",
        "ETag | \"33a64df5\" | literal",
        "If-None-Match | \"33a64df5\" | literal",
        "Last-Modified | Tue, 15 Nov 1994 12:45:26 GMT | literal",
        "Location | /next | literal",
        "User-Agent | curl/8.5.0 | indexed literal",
        "X-Request-Id | 42 | indexed literal",
    })
    void theDefaultPolicyKeepsSecretsAndOneOffValuesOutOfTheTable(String name, String value, String representation) {
        HpackEncoder encoder = new HpackEncoder();
        int first = encode(encoder, HttpFields.of(new HttpField(name, value))).get(0) & 0xFF;
        String actual = (first & 0x80) != 0 ? "indexed" : (first & 0x40) != 0 ? "indexed literal"
            : (first & 0xF0) == 0x10 ? "never" : "literal";
        assertEquals(representation, actual);
        assertEquals(representation.equals("indexed literal") ? 1 : 0, encoder.table().length());
    }

    @Test
    void aRepeatedListShrinksToIndexes() {
        HttpFields request = HttpFields.of(
            new HttpField(HttpHeader.C_METHOD, ":method", "GET"),
            new HttpField(HttpHeader.C_SCHEME, ":scheme", "https"),
            new HttpField(HttpHeader.C_AUTHORITY, ":authority", "www.example.com"),
            new HttpField(HttpHeader.C_PATH, ":path", "/"),
            new HttpField("User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"),
            new HttpField("Accept-Language", "en-US,en;q=0.5"));
        HpackEncoder encoder = new HpackEncoder();
        ByteBuffer first = encode(encoder, request);
        ByteBuffer second = encode(encoder, request);
        assertEquals("8287be84bdbc".length() / 2, second.remaining(), Hex.of(second));
        assertTrue(first.remaining() > 60, Hex.of(first));
        HpackDecoder decoder = new HpackDecoder();
        decoder.decode(first);
        HeaderBlock again = decoder.decode(second);
        assertEquals(request.get(HttpHeader.USER_AGENT), again.fields().get(HttpHeader.USER_AGENT));
        assertEquals(request.get(HttpHeader.ACCEPT_LANGUAGE), again.fields().get(HttpHeader.ACCEPT_LANGUAGE));
        assertEquals("www.example.com", again.pseudoHeader(":authority"));
    }

    @Test
    void aNeverIndexedFieldStaysNeverIndexedWhateverThePolicy() {
        HpackEncoder encoder = new HpackEncoder();
        encoder.setIndexingPolicy(IndexingPolicy.INDEX_ALL);
        encoder.setHuffman(false);
        ByteBuffer block = encode(encoder, HttpFields.of(new NeverIndexedHttpField("x-api-key", "k1")));
        assertEquals("10" + "09" + Hex.of(ByteBuffer.wrap("x-api-key".getBytes())) + "02" + "6b31", Hex.of(block));
        assertEquals(0, encoder.getTableSize());
        HttpField decoded = new HpackDecoder().decode(block).fields().getField(0);
        assertInstanceOf(NeverIndexedHttpField.class, decoded);
    }

    @Test
    void aFieldOverThreeQuartersOfTheTableIsNotIndexed() {
        HpackEncoder encoder = new HpackEncoder(256);
        encoder.setIndexingPolicy(IndexingPolicy.INDEX_ALL);
        encode(encoder, HttpFields.of(new HttpField("x-big", "v".repeat(192 - 32 - 5 + 1))));
        assertEquals(0, encoder.getTableSize(), "193 octets > 3/4 of 256");
        encode(encoder, HttpFields.of(new HttpField("x-big", "v".repeat(192 - 32 - 5))));
        assertEquals(192, encoder.getTableSize());
    }

    @Test
    void tableSizeChangesAreSignalledAtTheStartOfTheNextBlock() {
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder decoder = new HpackDecoder();
        HttpFields fields = HttpFields.of(new HttpField("x-a", "1"));
        decoder.decode(encode(encoder, fields));

        encoder.setPeerMaxTableCapacity(1024);
        decoder.setMaxTableCapacity(1024);
        ByteBuffer lowered = encode(encoder, fields);
        assertTrue(Hex.of(lowered).startsWith("3fe107"), Hex.of(lowered));
        decoder.decode(lowered);
        assertEquals(1024, decoder.getTableCapacity());

        // Down to 0 then up to 2,048 between two blocks: both are sent, smallest first.
        encoder.setPeerMaxTableCapacity(0);
        encoder.setPeerMaxTableCapacity(2048);
        decoder.setMaxTableCapacity(0);
        decoder.setMaxTableCapacity(2048);
        ByteBuffer both = encode(encoder, fields);
        assertTrue(Hex.of(both).startsWith("20" + "3fe10f"), Hex.of(both));
        HeaderBlock block = decoder.decode(both);
        assertEquals(List.of("x-a: 1"), render(block.fields()));
        assertEquals(2048, decoder.getTableCapacity());
        assertEquals(render(encoder.table()), render(decoder.table()));

        // The peer allows more than this encoder's maximum: it stays at its maximum, with no update.
        HpackEncoder small = new HpackEncoder(512);
        small.setPeerMaxTableCapacity(65536);
        assertEquals("40", Hex.of(encode(small, fields)).substring(0, 2));
        assertEquals(512, small.getTableCapacity());
        small.setPeerMaxTableCapacity(256);
        assertTrue(Hex.of(encode(small, fields)).startsWith("3fe101"), "256 = 31 + 225");
        assertEquals(256, small.getTableCapacity());
    }

    @Test
    void aListOverThePeersLimitIsRefusedBeforeAnythingChanges() {
        HpackEncoder encoder = new HpackEncoder();
        encoder.setPeerMaxHeaderListSize(100);
        HttpFields fields = HttpFields.of(new HttpField("x-a", "a".repeat(40)), new HttpField("x-b", "b".repeat(40)));
        ByteBuffer out = ByteBuffer.allocate(1024);
        HeaderListTooLargeException failure = assertThrows(HeaderListTooLargeException.class, () -> encoder.encode(fields, out));
        assertEquals(2 * (3 + 40 + 32), failure.getSize());
        assertEquals(100, failure.getLimit());
        assertEquals(0, out.position());
        assertEquals(0, encoder.getTableSize());
    }

    @Test
    void aBufferTooSmallIsRefusedBeforeAnythingChanges() {
        HpackEncoder encoder = new HpackEncoder();
        encoder.setPeerMaxTableCapacity(100);
        HttpFields fields = HttpFields.of(new HttpField("x-a", "1"));
        ByteBuffer out = ByteBuffer.allocate(encoder.maxEncodedLength(fields) - 1);
        assertThrows(IllegalArgumentException.class, () -> encoder.encode(fields, out));
        assertEquals(0, out.position());
        assertEquals(0, encoder.getTableSize());
        assertEquals(4096, encoder.getTableCapacity(), "the pending update was not consumed");
        assertTrue(Hex.of(encode(encoder, fields)).startsWith("3f45"));
    }

    @Test
    void whatHttp2ForbidsIsRepairedNotSent() {
        HpackEncoder encoder = new HpackEncoder();
        HttpFields fields = HttpFields.of(
            new HttpField("X Bad:Name", "v"),
            new HttpField("x-split", " a\r\nb\u0000c\u20ac\t"),
            new HttpField("x-fine", "caf\u00e9"));
        HeaderBlock block = new HpackDecoder().decode(encode(encoder, fields));
        assertEquals(List.of("x_bad_name: v", "x-split: a  b c?", "x-fine: caf\u00e9"), render(block.fields()));
    }

    @Test
    void valuesAreLookedUpAsGivenAndOnceRepaired() {
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder decoder = new HpackDecoder();
        // Repaired to "gzip, deflate", static entry 16: one octet.
        ByteBuffer repaired = encode(encoder, HttpFields.of(new HttpField("Accept-Encoding", "gzip, deflate\r\n")));
        assertEquals("90", Hex.of(repaired));
        decoder.decode(repaired);
        // A server's repeated fields: a literal the first time, then the dynamic entry's index, the same each time.
        HttpFields head = HttpFields.of(new HttpField(HttpHeader.C_STATUS, ":status", "200"), new HttpField("content-type", "text/plain"));
        decoder.decode(encode(encoder, head));
        ByteBuffer second = encode(encoder, head);
        ByteBuffer third = encode(encoder, head);
        assertEquals("88be", Hex.of(second), "status 200 static, then the dynamic entry");
        assertEquals(Hex.of(second), Hex.of(third));
        decoder.decode(second);
        assertEquals(List.of("content-type: text/plain"), render(decoder.decode(third).fields()));
        // A value that must be repaired never matches an entry as given: repaired again each time.
        HttpFields dirty = HttpFields.of(new HttpField("x-dirty", "a\nb"));
        assertEquals(List.of("x-dirty: a b"), render(decoder.decode(encode(encoder, dirty)).fields()));
        assertEquals(List.of("x-dirty: a b"), render(decoder.decode(encode(encoder, dirty)).fields()));
    }

    @Test
    void aNameIsNeverLongerOnceRepaired() {
        // U+0130 lower-cases to two characters in Unicode; the encoder folds ASCII only.
        String name = "\u0130".repeat(100);
        HttpFields fields = HttpFields.of(new HttpField(name, "v"));
        HpackEncoder encoder = new HpackEncoder();
        HeaderBlock block = new HpackDecoder().decode(encode(encoder, fields));
        assertEquals(List.of("_".repeat(100) + ": v"), render(block.fields()));
    }

    @Test
    void knownNamesAreSentInLowerCase() {
        HpackEncoder encoder = new HpackEncoder();
        encoder.setHuffman(false);
        HeaderBlock block = new HpackDecoder().decode(encode(encoder, HttpFields.of(
            new HttpField("Content-Type", "text/plain"), new HttpField("X-Custom", "1"))));
        assertEquals(List.of("content-type: text/plain", "x-custom: 1"), render(block.fields()));
    }
}
