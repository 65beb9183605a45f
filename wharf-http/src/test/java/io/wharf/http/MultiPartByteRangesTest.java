package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class MultiPartByteRangesTest {

    @Test
    void writesPartHeadersAndTheClosingDelimiter() {
        MultiPartByteRanges multipart = new MultiPartByteRanges("B", "text/plain", 10);
        String body = body(multipart, "0123456789", List.of(new ByteRange(0, 1), new ByteRange(5, 6)));
        assertEquals("""
                \r
                --B\r
                Content-Type: text/plain\r
                Content-Range: bytes 0-1/10\r
                \r
                01\r
                --B\r
                Content-Type: text/plain\r
                Content-Range: bytes 5-6/10\r
                \r
                56\r
                --B--\r
                """, body);
        assertEquals(body.length(), multipart.contentLength(List.of(new ByteRange(0, 1), new ByteRange(5, 6))));
    }

    @Test
    void leavesOutTheContentTypeWhenThereIsNone() {
        MultiPartByteRanges multipart = new MultiPartByteRanges("xyz", null, 3);
        assertEquals("\r\n--xyz\r\nContent-Range: bytes 2-2/3\r\n\r\nc\r\n--xyz--\r\n",
                body(multipart, "abc", List.of(new ByteRange(2, 2))));
    }

    static Stream<Arguments> rangeSets() {
        return Stream.of(
                Arguments.of("B", "text/plain", 10, "bytes=0-1,5-6"),
                Arguments.of("B", null, 10, "bytes=0-0,-1"),
                Arguments.of(MultiPartByteRanges.newBoundary(), "application/pdf", 1234, "bytes=0-499,600-699,-100"),
                Arguments.of(MultiPartByteRanges.newBoundary(), "text/html; charset=utf-8", 100_000,
                        "bytes=0-9,10-99,100-999,1000-9999,20000-"),
                Arguments.of("a'()+_,-./:=? b", "video/mp4", 1_000_000_000_000L, "bytes=0-0,999999999-9999999999,-1"),
                Arguments.of("x".repeat(70), "image/png", Long.MAX_VALUE,
                        "bytes=0-9,9223372036854775800-9223372036854775805"),
                Arguments.of("B", "text/plain", 1, "bytes=0-0"));
    }

    /** The data of each range is a run of '#': only its length matters to the framing. */
    @ParameterizedTest
    @MethodSource("rangeSets")
    void computesTheExactLengthOfTheBodyItWrites(String boundary, String contentType, long total, String rangeField) {
        List<ByteRange> ranges = ((ByteRanges.Satisfiable) ByteRanges.parse(rangeField, total)).ranges();
        MultiPartByteRanges multipart = new MultiPartByteRanges(boundary, contentType, total);
        long written = 0;
        StringBuilder headers = new StringBuilder();
        for (ByteRange range : ranges) {
            ByteBuffer header = multipart.partHeader(range);
            assertEquals(multipart.partHeaderLength(range), header.remaining());
            String text = StandardCharsets.US_ASCII.decode(header).toString();
            assertTrue(text.endsWith("Content-Range: " + range.toContentRange(total) + "\r\n\r\n"), text);
            headers.append(text);
            written += text.length() + range.length();
        }
        ByteBuffer closing = multipart.closingDelimiter();
        assertEquals(multipart.closingDelimiterLength(), closing.remaining());
        assertEquals("\r\n--" + boundary + "--\r\n", StandardCharsets.US_ASCII.decode(closing).toString());
        written += multipart.closingDelimiterLength();
        assertEquals(written, multipart.contentLength(ranges));
        assertEquals(ranges.size(), occurrences(headers.toString(), "\r\n--" + boundary + "\r\n"));
    }

    @Test
    void putsIntoTheCallersBufferAtItsPosition() {
        MultiPartByteRanges multipart = new MultiPartByteRanges("B", "a/b", 123_456);
        ByteRange range = new ByteRange(99, 12_345);
        ByteBuffer target = ByteBuffer.allocate(200);
        target.put((byte) '>');
        multipart.putPartHeader(target, range);
        multipart.putClosingDelimiter(target);
        target.flip();
        assertEquals(">\r\n--B\r\nContent-Type: a/b\r\nContent-Range: bytes 99-12345/123456\r\n\r\n\r\n--B--\r\n",
                StandardCharsets.US_ASCII.decode(target).toString());

        ByteBuffer small = ByteBuffer.allocate(multipart.partHeaderLength(range) - 1);
        assertThrows(BufferOverflowException.class, () -> multipart.putPartHeader(small, range));
        assertEquals(0, small.position());
    }

    @Test
    void refusesRangesBeyondTheTotal() {
        MultiPartByteRanges multipart = new MultiPartByteRanges("B", null, 10);
        assertThrows(IllegalArgumentException.class, () -> multipart.partHeader(new ByteRange(5, 10)));
        assertThrows(IllegalArgumentException.class, () -> multipart.contentLength(List.of(new ByteRange(0, 10))));
        assertThrows(IllegalArgumentException.class, () -> new MultiPartByteRanges("B", null, -1));
    }

    @Test
    void newBoundariesAreValidAndDistinct() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String boundary = MultiPartByteRanges.newBoundary();
            assertTrue(boundary.matches("wharf[0-9a-f]{32}"), boundary);
            assertTrue(seen.add(boundary), boundary);
        }
        String boundary = MultiPartByteRanges.newBoundary();
        assertEquals("multipart/byteranges; boundary=" + boundary,
                new MultiPartByteRanges(boundary, null, 1).contentType());
        assertNotEquals(boundary, MultiPartByteRanges.newBoundary());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            abc           | multipart/byteranges; boundary=abc
            a'+_-.b       | multipart/byteranges; boundary=a'+_-.b
            'a:b'         | multipart/byteranges; boundary="a:b"
            'a b'         | multipart/byteranges; boundary="a b"
            'a=b?(c)/d,e' | multipart/byteranges; boundary="a=b?(c)/d,e"
            """)
    void quotesBoundariesThatAreNotTokens(String boundary, String contentType) {
        assertEquals(contentType, new MultiPartByteRanges(boundary, null, 1).contentType());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            ''            | 1 to 70 characters
            'ab '         | must not end with a space
            'a"b'         | character 0x22 at index 1
            'a\tb'        | character 0x09 at index 1
            'a\u00e9'     | character 0xE9 at index 1
            'a;b'         | character 0x3B at index 1
            """)
    void refusesInvalidBoundaries(String boundary, String problem) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> new MultiPartByteRanges(boundary, null, 1));
        assertTrue(failure.getMessage().contains(problem), failure.getMessage());
    }

    @Test
    void refusesOverlongBoundariesAndContentTypesThatWouldBreakTheHeader() {
        assertThrows(IllegalArgumentException.class, () -> new MultiPartByteRanges("x".repeat(71), null, 1));
        assertThrows(IllegalArgumentException.class, () -> new MultiPartByteRanges(null, null, 1));
        assertThrows(IllegalArgumentException.class, () -> new MultiPartByteRanges("a\r\nb", null, 1));
        assertThrows(IllegalArgumentException.class, () -> new MultiPartByteRanges("B", "text/plain\r\nX: y", 1));
        assertThrows(IllegalArgumentException.class, () -> new MultiPartByteRanges("B", "text/\u00e9", 1));
        new MultiPartByteRanges("B", "text/plain;\tcharset=utf-8", 1);
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    private static String body(MultiPartByteRanges multipart, String content, List<ByteRange> ranges) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] bytes = content.getBytes(StandardCharsets.US_ASCII);
        for (ByteRange range : ranges) {
            ByteBuffer header = multipart.partHeader(range);
            out.write(header.array(), header.arrayOffset() + header.position(), header.remaining());
            out.write(bytes, (int) range.first(), (int) range.length());
        }
        ByteBuffer closing = multipart.closingDelimiter();
        out.write(closing.array(), closing.arrayOffset() + closing.position(), closing.remaining());
        return out.toString(StandardCharsets.US_ASCII);
    }
}
