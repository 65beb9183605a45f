package io.wharf.http2.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http2.Hex;
import io.wharf.http2.hpack.internal.DynamicTable;

import org.junit.jupiter.api.Test;

/**
 * Every example of RFC 7541 Appendix C, decoded (from heap and from direct buffers) and
 * encoded, with the dynamic table compared after each header list.
 */
class HpackRfcExamplesTest {

    /** One header list of an example: its encoded form, its fields, then the table after it, newest first. */
    private record Step(String hex, List<String> fields, List<String> table, int tableSize) {
    }

    private static Step step(String hex, String fields, String table, int tableSize) {
        return new Step(hex, lines(fields), lines(table), tableSize);
    }

    private static List<String> lines(String text) {
        return text.isBlank() ? List.of() : text.strip().lines().map(String::strip).toList();
    }

    // C.2: single representations, each on a fresh table.

    @Test
    void c21LiteralWithIndexing() {
        Step step = step("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572",
            "custom-key: custom-header", "custom-key: custom-header", 55);
        decodeAll(4096, List.of(step));
        encodeAll(4096, false, List.of(step));
    }

    @Test
    void c22LiteralWithoutIndexing() {
        decodeAll(4096, List.of(step("040c 2f73 616d 706c 652f 7061 7468", ":path: /sample/path", "", 0)));
    }

    @Test
    void c23LiteralNeverIndexedStaysNeverIndexedWhenEncodedAgain() {
        String hex = "1008 7061 7373 776f 7264 0673 6563 7265 74";
        decodeAll(4096, List.of(step(hex, "password: secret", "", 0)));

        HeaderBlock block = new HpackDecoder().decode(Hex.heap(hex));
        HttpField password = block.fields().getField(0);
        assertInstanceOf(NeverIndexedHttpField.class, password);
        HpackEncoder encoder = new HpackEncoder();
        encoder.setIndexingPolicy(IndexingPolicy.INDEX_ALL);
        encoder.setHuffman(false);
        assertEquals(Hex.normalize(hex), Hex.of(encode(encoder, block.fields())), "an intermediary keeps the representation");
        assertEquals(0, encoder.getTableSize());
    }

    @Test
    void c24IndexedField() {
        Step step = step("82", ":method: GET", "", 0);
        decodeAll(4096, List.of(step));
        encodeAll(4096, false, List.of(step));
        HttpField get = new HpackDecoder().decode(Hex.heap("82")).pseudoHeaders().getField(0);
        HttpField again = new HpackDecoder().decode(Hex.direct("82")).pseudoHeaders().getField(0);
        assertEquals(get, again);
        assertEquals(true, get == again, "static entries are pre-made fields, handed out as they are");
    }

    // C.3 and C.4: three requests on one connection, without and with Huffman.

    private static final List<Step> C3 = List.of(
        step("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
            """
            :method: GET
            :scheme: http
            :path: /
            :authority: www.example.com""",
            ":authority: www.example.com", 57),
        step("8286 84be 5808 6e6f 2d63 6163 6865",
            """
            :method: GET
            :scheme: http
            :path: /
            :authority: www.example.com
            cache-control: no-cache""",
            """
            cache-control: no-cache
            :authority: www.example.com""", 110),
        step("8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
            """
            :method: GET
            :scheme: https
            :path: /index.html
            :authority: www.example.com
            custom-key: custom-value""",
            """
            custom-key: custom-value
            cache-control: no-cache
            :authority: www.example.com""", 164));

    private static final List<Step> C4 = List.of(
        new Step("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", C3.get(0).fields(), C3.get(0).table(), 57),
        new Step("8286 84be 5886 a8eb 1064 9cbf", C3.get(1).fields(), C3.get(1).table(), 110),
        new Step("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf", C3.get(2).fields(), C3.get(2).table(), 164));

    @Test
    void c3RequestsWithoutHuffman() {
        decodeAll(4096, C3);
        encodeAll(4096, false, C3);
    }

    @Test
    void c4RequestsWithHuffman() {
        decodeAll(4096, C4);
        encodeAll(4096, true, C4);
    }

    // C.5 and C.6: three responses with SETTINGS_HEADER_TABLE_SIZE 256, so entries are evicted.

    private static final String DATE_21 = "date: Mon, 21 Oct 2013 20:13:21 GMT";
    private static final String DATE_22 = "date: Mon, 21 Oct 2013 20:13:22 GMT";
    private static final String LOCATION = "location: https://www.example.com";
    private static final String COOKIE = "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

    private static final List<String> C5_FIELDS_1 = List.of(":status: 302", "cache-control: private", DATE_21, LOCATION);
    private static final List<String> C5_FIELDS_2 = List.of(":status: 307", "cache-control: private", DATE_21, LOCATION);
    private static final List<String> C5_FIELDS_3 = List.of(":status: 200", "cache-control: private", DATE_22, LOCATION,
        "content-encoding: gzip", COOKIE);
    private static final List<String> C5_TABLE_1 = List.of(LOCATION, DATE_21, "cache-control: private", ":status: 302");
    private static final List<String> C5_TABLE_2 = List.of(":status: 307", LOCATION, DATE_21, "cache-control: private");
    private static final List<String> C5_TABLE_3 = List.of(COOKIE, "content-encoding: gzip", DATE_22);

    private static final List<Step> C5 = List.of(
        new Step("""
            4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133
            2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70
            6c65 2e63 6f6d""", C5_FIELDS_1, C5_TABLE_1, 222),
        new Step("4803 3330 37c1 c0bf", C5_FIELDS_2, C5_TABLE_2, 222),
        new Step("""
            88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d
            54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049
            5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e
            3d31""", C5_FIELDS_3, C5_TABLE_3, 215));

    private static final List<Step> C6 = List.of(
        new Step("""
            4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6
            2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3""", C5_FIELDS_1, C5_TABLE_1, 222),
        new Step("4883 640e ffc1 c0bf", C5_FIELDS_2, C5_TABLE_2, 222),
        new Step("""
            88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab
            77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f
            9587 3160 65c0 03ed 4ee5 b106 3d50 07""", C5_FIELDS_3, C5_TABLE_3, 215));

    @Test
    void c5ResponsesWithoutHuffman() {
        decodeAll(256, C5);
        encodeAll(256, false, C5);
    }

    @Test
    void c6ResponsesWithHuffman() {
        decodeAll(256, C6);
        // "307" is 3 octets raw and 3 Huffman-coded: the RFC chose Huffman, Wharf's encoder takes
        // Huffman only when it is shorter, so its second response spells "307" raw.
        List<Step> wharf = new ArrayList<>(C6);
        wharf.set(1, new Step("4803 3330 37c1 c0bf", C5_FIELDS_2, C5_TABLE_2, 222));
        encodeAll(256, true, wharf);
    }

    private static void decodeAll(int tableCapacity, List<Step> steps) {
        for (Function<String, ByteBuffer> buffers : List.<Function<String, ByteBuffer>>of(Hex::heap, Hex::direct)) {
            HpackDecoder decoder = new HpackDecoder(tableCapacity, 64 * 1024);
            for (Step step : steps) {
                ByteBuffer block = buffers.apply(step.hex());
                HeaderBlock decoded = decoder.decode(block);
                assertFalse(block.hasRemaining(), "the whole block is consumed");
                assertFalse(decoded.tooLarge());
                assertFalse(decoded.pseudoHeaderAfterField());
                List<String> fields = new ArrayList<>(render(decoded.pseudoHeaders()));
                fields.addAll(render(decoded.fields()));
                assertEquals(step.fields(), fields);
                assertEquals(step.table(), render(decoder.table()), decoder.table().toString());
                assertEquals(step.tableSize(), decoder.getTableSize());
                long listSize = step.fields().stream().mapToLong(line -> line.length() - 2 + 32).sum();
                assertEquals(listSize, decoded.size(), "name + value + 32 per field");
            }
        }
    }

    private static void encodeAll(int tableCapacity, boolean huffman, List<Step> steps) {
        HpackEncoder encoder = new HpackEncoder(tableCapacity);
        encoder.setIndexingPolicy(IndexingPolicy.INDEX_ALL);
        encoder.setHuffman(huffman);
        for (Step step : steps) {
            HttpFields.Mutable fields = HttpFields.build();
            for (String line : step.fields()) {
                int colon = line.indexOf(':', 1);
                fields.add(line.substring(0, colon), line.substring(colon + 2));
            }
            assertEquals(Hex.normalize(step.hex()), Hex.of(encode(encoder, fields)));
            assertEquals(step.table(), render(encoder.table()));
            assertEquals(step.tableSize(), encoder.getTableSize());
        }
    }

    static ByteBuffer encode(HpackEncoder encoder, HttpFields fields) {
        ByteBuffer out = ByteBuffer.allocate(encoder.maxEncodedLength(fields));
        encoder.encode(fields, out);
        return out.flip();
    }

    static List<String> render(HttpFields fields) {
        List<String> lines = new ArrayList<>();
        for (HttpField field : fields) {
            lines.add(field.getName() + ": " + field.getValue());
        }
        return lines;
    }

    static List<String> render(DynamicTable table) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < table.length(); i++) {
            lines.add(table.get(i).getName() + ": " + table.get(i).getValue());
        }
        return lines;
    }
}
