package io.wharf.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.wharf.http.HttpField;

/**
 * The learning cache, one row per behaviour: lines offered in order to a cache of a given
 * capacity, then one lookup, and the offered line whose field the lookup must return (the
 * same instance), or null. Every row runs with the lines and the lookup in heap, direct and
 * little-endian buffers, at an offset inside a larger buffer.
 */
class FieldCacheTest {

    private static final String USER_AGENT = "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

    /** A way to hold bytes: each puts them after a few other bytes and limits the buffer at their end. */
    enum Kind {
        HEAP, DIRECT, LITTLE_ENDIAN_HEAP, LITTLE_ENDIAN_DIRECT;

        ByteBuffer wrap(String text) {
            byte[] bytes = ("junk" + text).getBytes(StandardCharsets.ISO_8859_1);
            ByteBuffer buffer = this == HEAP || this == LITTLE_ENDIAN_HEAP
                    ? ByteBuffer.allocate(bytes.length + 16) : ByteBuffer.allocateDirect(bytes.length + 16);
            if (this == LITTLE_ENDIAN_HEAP || this == LITTLE_ENDIAN_DIRECT) {
                buffer.order(ByteOrder.LITTLE_ENDIAN);
            }
            buffer.put(bytes).flip();
            return buffer;
        }
    }

    record Row(String name, int capacity, List<String> offered, String lookedUp, String found) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("a learned line is found", 1024, List.of("Host: example.com"),
                        "Host: example.com\r\n", "Host: example.com"),
                new Row("nothing learned, nothing found", 1024, List.of(),
                        "Host: example.com\r\n", null),
                new Row("a learned line followed by more bytes is a prefix", 1024, List.of("Host: example.com"),
                        "Host: example.com.evil\r\n", "Host: example.com"),
                new Row("the longest prefix wins, learned last", 1024, List.of("Host: example.co", "Host: example.com"),
                        "Host: example.com\r\n", "Host: example.com"),
                new Row("the longest prefix wins, learned first", 1024, List.of("Host: example.com", "Host: example.co"),
                        "Host: example.com\r\n", "Host: example.com"),
                new Row("a shorter prefix is found when the longer line does not match", 1024,
                        List.of("Host: example.co", "Host: example.com"), "Host: example.co\r\n", "Host: example.co"),
                new Row("bytes shorter than every line find nothing", 1024, List.of("Host: example.com"),
                        "Host: example.c", null),
                new Row("a line that differs only in its last byte is not found", 1024, List.of(USER_AGENT),
                        USER_AGENT.substring(0, USER_AGENT.length() - 1) + "1\r\n", null),
                new Row("a line that differs only in a middle byte is not found", 1024, List.of(USER_AGENT),
                        USER_AGENT.replace("x86_64", "x86-64") + "\r\n", null),
                new Row("a line that differs only in its first byte is not found", 1024, List.of("Host: example.com"),
                        "host: example.com\r\n", null),
                new Row("a long line is found among others", 1024, List.of("Host: example.com", USER_AGENT, "Accept: */*"),
                        USER_AGENT + "\r\nAccept: */*\r\n", USER_AGENT),
                new Row("a line shorter than eight bytes is found", 1024, List.of("Host: a"),
                        "Host: a\r\n", "Host: a"),
                new Row("a line shorter than eight bytes is found at the very end of the bytes", 1024, List.of("Host: a"),
                        "Host: a", "Host: a"),
                new Row("a line shorter than eight bytes that differs in its last byte is not found", 1024,
                        List.of("Host: a"), "Host: b\r\n", null),
                new Row("a line of exactly eight bytes is found", 1024, List.of("Host: ab"),
                        "Host: ab\r\n", "Host: ab"),
                new Row("a line of exactly sixteen bytes is found", 1024, List.of("Host: abcdefghij"),
                        "Host: abcdefghij\r\n", "Host: abcdefghij"),
                new Row("a cookie seen once is not learned", 1024, List.of("Cookie: a=1"),
                        "Cookie: a=1\r\n", null),
                new Row("a cookie seen twice in a row is learned", 1024, List.of("Cookie: a=1", "Cookie: a=1"),
                        "Cookie: a=1\r\n", "Cookie: a=1"),
                new Row("a cookie seen twice but not in a row is not learned", 1024,
                        List.of("Cookie: a=1", "Cookie: a=2", "Cookie: a=1"), "Cookie: a=1\r\n", null),
                new Row("Content-Length is never learned", 1024, List.of("Content-Length: 10", "Content-Length: 10"),
                        "Content-Length: 10\r\n", null),
                new Row("Transfer-Encoding is never learned", 1024, List.of("Transfer-Encoding: chunked"),
                        "Transfer-Encoding: chunked\r\n", null),
                new Row("an unknown header is never learned", 1024, List.of("X-Custom: same", "X-Custom: same"),
                        "X-Custom: same\r\n", null),
                new Row("a line exactly as long as the capacity is learned", 17, List.of("Host: example.com"),
                        "Host: example.com\r\n", "Host: example.com"),
                new Row("a line longer than the capacity is not learned", 16, List.of("Host: example.com"),
                        "Host: example.com\r\n", null),
                new Row("once full, a line that would fit is not learned", 30,
                        List.of("Host: example.com", "Origin: https://example.com", "Accept: */*"), "Accept: */*\r\n", null),
                new Row("once full, what was learned is still found", 30,
                        List.of("Host: example.com", "Origin: https://example.com", "Accept: */*"),
                        "Host: example.com\r\n", "Host: example.com"),
                new Row("many lines grow the store", 1024,
                        List.of("Host: a.example", "Host: b.example", "Host: c.example", "Host: d.example", "Host: e.example",
                                "Accept: */*", "Accept-Language: en", USER_AGENT),
                        "Host: d.example\r\n", "Host: d.example"));
    }

    static Stream<Arguments> rowsAndKinds() {
        return rows().flatMap(row -> Stream.of(Kind.values()).map(kind -> Arguments.of(row, kind)));
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("rowsAndKinds")
    void lookup(Row row, Kind kind) {
        FieldCache cache = new FieldCache(row.capacity());
        List<HttpField> fields = new ArrayList<>();
        for (String line : row.offered()) {
            fields.add(offer(cache, line, kind));
        }
        ByteBuffer bytes = kind.wrap(row.lookedUp());
        HttpField found = cache.lookup(bytes, 4, bytes.limit());
        if (row.found() == null) {
            assertNull(found, () -> "found " + found);
        } else {
            int learned = row.offered().lastIndexOf(row.found());
            assertSame(fields.get(learned), found);
        }
    }

    @Test
    void aLineOfferedAgainIsNotStoredTwice() {
        FieldCache cache = new FieldCache(1024);
        HttpField first = offer(cache, "Host: example.com", Kind.HEAP);
        offer(cache, "Host: example.com", Kind.DIRECT);
        assertEquals(1, cache.size());
        assertEquals(17, cache.bytes());
        ByteBuffer bytes = Kind.HEAP.wrap("Host: example.com\r\n");
        assertSame(first, cache.lookup(bytes, 4, bytes.limit()));
    }

    @Test
    void capacityIsBounded() {
        assertThrows(IllegalArgumentException.class, () -> new FieldCache(0));
        assertThrows(IllegalArgumentException.class, () -> new FieldCache(FieldCache.MAX_CAPACITY + 1));
        assertEquals(0, new FieldCache(FieldCache.MAX_CAPACITY).size());
    }

    /** Offers {@code line} ("Name: value") as the parser would, from a buffer of {@code kind}. @return its field */
    private static HttpField offer(FieldCache cache, String line, Kind kind) {
        int colon = line.indexOf(':');
        HttpField field = new HttpField(line.substring(0, colon), line.substring(colon + 2));
        ByteBuffer buffer = kind.wrap(line + "\r\n");
        cache.offer(field, buffer, 4, buffer.limit() - 2);
        return field;
    }
}
