package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class HttpFieldsTest {

    @Test
    void takeImmutableHandsTheFieldsOverAndLeavesTheListEmpty() {
        HttpFields.Mutable fields = HttpFields.build(2).add("a", "1").add("b", "2").add("c", "3");
        HttpFields taken = fields.takeImmutable();
        assertEquals(3, taken.size());
        assertEquals("2", taken.get("b"));
        assertEquals(0, fields.size());
        fields.add("d", "4");
        assertEquals(3, taken.size(), "the list goes on without touching what it handed over");
        assertNull(taken.get("d"));
        assertThrows(UnsupportedOperationException.class, () -> ((HttpFields.Mutable) taken).add("e", "5"));
        fields.add("e", "5").add("f", "6").add("g", "7").add("h", "8").add("i", "9");
        assertEquals(6, fields.size(), "the emptied list grows again");
        assertEquals("4", fields.get("d"));
        assertEquals("9", fields.get("i"));
        assertEquals(6, fields.takeImmutable().size(), "taken again");
        assertEquals(0, fields.size());
    }

    @Test
    void looksUpByHeaderAndByNameInAnyCase() {
        HttpFields.Mutable fields = HttpFields.build()
                .add("content-TYPE", "text/plain")
                .add("X-Custom", "one")
                .add("x-custom", "two");
        assertSame(HttpHeader.CONTENT_TYPE, fields.getField(0).getHeader());
        assertEquals("text/plain", fields.get(HttpHeader.CONTENT_TYPE));
        assertEquals("text/plain", fields.get("Content-Type"));
        assertEquals(List.of("one", "two"), fields.getValuesList("X-CUSTOM"));
        assertNull(fields.get(HttpHeader.HOST));
        assertNull(fields.get("missing"));
    }

    @Test
    void putReplacesEveryFieldOfTheNameAtTheFirstPosition() {
        HttpFields.Mutable fields = HttpFields.build()
                .add("A", "1").add("B", "2").add("a", "3").add("C", "4");
        fields.put("A", "x");
        assertEquals("A: x\r\nB: 2\r\nC: 4\r\n", fields.toString());
        fields.put("A", (String) null);
        assertEquals("B: 2\r\nC: 4\r\n", fields.toString());
        fields.put(HttpHeader.CONTENT_LENGTH, 42);
        assertEquals(42, fields.getLongField(HttpHeader.CONTENT_LENGTH));
    }

    @Test
    void commaSeparatedElementsRespectQuotes() {
        HttpField field = new HttpField(HttpHeader.CONNECTION, " keep-alive ,, Upgrade , \"a,b\" ");
        assertEquals(List.of("keep-alive", "Upgrade", "\"a,b\""), field.getValues());
        assertTrue(field.contains("UPGRADE"));
        assertTrue(field.contains("keep-alive"));
        assertFalse(field.contains("a"));
        assertFalse(field.contains("close"));
        HttpFields fields = HttpFields.of(field, new HttpField(HttpHeader.CONNECTION, "close"));
        assertTrue(fields.contains(HttpHeader.CONNECTION, "close"));
        assertEquals(List.of("keep-alive", "Upgrade", "\"a,b\"", "close"), fields.getCommaSeparated(HttpHeader.CONNECTION));
    }

    @Test
    void immutableSnapshotsRefuseChangesAndDoNotFollowTheOriginal() {
        HttpFields.Mutable fields = HttpFields.build().add("A", "1");
        HttpFields snapshot = fields.asImmutable();
        fields.add("B", "2").clear();
        assertEquals(1, snapshot.size());
        assertSame(snapshot, snapshot.asImmutable());
        HttpFields.Mutable cast = (HttpFields.Mutable) snapshot;
        assertThrows(UnsupportedOperationException.class, () -> cast.add("C", "3"));
        assertEquals(0, fields.size());
        assertEquals(0, HttpFields.EMPTY.size());
    }

    @Test
    void iteratorRemovesAndFieldsGrow() {
        HttpFields.Mutable fields = HttpFields.build(1);
        for (int i = 0; i < 40; i++) {
            fields.add("F" + i, Integer.toString(i));
        }
        fields.iterator();
        var iterator = fields.iterator();
        while (iterator.hasNext()) {
            if (Integer.parseInt(iterator.next().getValue()) % 2 == 1) {
                iterator.remove();
            }
        }
        assertEquals(20, fields.size());
        assertEquals("38", fields.getField(19).getValue());
        assertEquals(20, fields.stream().count());
    }

    @Test
    void decimalsAreDigitsOnlyAndNeverOverflow() {
        assertEquals(0, HttpField.parseDecimal("0"));
        assertEquals(Long.MAX_VALUE, HttpField.parseDecimal("9223372036854775807"));
        for (String bad : List.of("", "+10", "-10", "abc", "1.5", "1,0", " 1", "9223372036854775808",
                "1234567890123456789012345678901234567890123456")) {
            assertThrows(NumberFormatException.class, () -> HttpField.parseDecimal(bad), bad);
        }
    }

    @Test
    void preEncodedFieldsCarryTheirWireFormAndRefuseControlCharacters() {
        PreEncodedHttpField field = new PreEncodedHttpField(HttpHeader.CONNECTION, "close");
        ByteBuffer buffer = ByteBuffer.allocate(64);
        field.putTo(buffer);
        assertEquals("Connection: close\r\n", new String(buffer.array(), 0, buffer.position(), StandardCharsets.ISO_8859_1));
        assertEquals(19, field.getEncodedLength());
        assertThrows(IllegalArgumentException.class, () -> new PreEncodedHttpField("X", "a\r\nInjected: yes"));
        assertThrows(IllegalArgumentException.class, () -> new PreEncodedHttpField("X Y", "v"));
    }

    @Test
    void knownNamesVersionsAndMethodsAreFoundStraightFromBytes() {
        ByteBuffer buffer = ByteBuffer.wrap("GET /x HTTP/1.1".getBytes(StandardCharsets.US_ASCII));
        assertSame(HttpMethod.GET, HttpMethod.LOOK_AHEAD.getBest(buffer));
        assertSame(HttpVersion.HTTP_1_1, HttpVersion.CACHE.get(buffer, 7, 8));
        assertSame(HttpHeader.CONTENT_LENGTH, HttpHeader.fromString("content-length"));
        assertNull(HttpMethod.fromString("get"));
        assertEquals("Content Too Large", HttpStatus.getReason(413));
        assertTrue(HttpStatus.hasNoBody(304));
        assertFalse(HttpStatus.hasNoBody(200));
    }
}
