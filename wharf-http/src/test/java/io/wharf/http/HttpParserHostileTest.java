package io.wharf.http;

import static io.wharf.http.ParserDriver.buffer;
import static io.wharf.http.ParserDriver.parseAll;
import static io.wharf.http.ParserDriver.requestParser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile and malformed requests against the strict default parser. Each row is followed in
 * the same buffer by a well-formed request for {@code /smuggled}: after a good row it must be
 * parsed as the next request, after a bad row never.
 */
class HttpParserHostileTest {

    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";

    private static String get(String fields) {
        return "GET / HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n";
    }

    private static String post(String fields, String body) {
        return "POST / HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n" + body;
    }

    private static String chunked(String body) {
        return post("Transfer-Encoding: chunked\r\n", body);
    }

    /** A GET whose head (request line, fields and the empty line) is exactly {@code bytes} long. */
    /** @return a request whose field section (field lines and the empty line, not the request line) is {@code bytes} long */
    private static String headOf(int bytes) {
        String fields = "Host: a\r\nX: ";
        return "GET / HTTP/1.1\r\n" + fields + "v".repeat(bytes - fields.length() - 4) + "\r\n\r\n";
    }

    private static String fields(int count) {
        StringBuilder fields = new StringBuilder();
        for (int i = 1; i < count; i++) {
            fields.append("X-").append(i).append(": ").append(i).append("\r\n");
        }
        return get(fields.toString());
    }

    private static String trailers(int count, int valueBytes) {
        StringBuilder trailers = new StringBuilder("0\r\n");
        for (int i = 0; i < count; i++) {
            trailers.append("T-").append(i).append(": ").append("t".repeat(valueBytes)).append("\r\n");
        }
        return chunked(trailers + "\r\n");
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                // name, raw request, expected status or "ok", words the reason must hold
                Arguments.of("plain GET", get(""), "ok", ""),
                Arguments.of("POST with Content-Length", post("Content-Length: 5\r\n", "hello"), "ok", ""),
                Arguments.of("chunked with extensions and trailers",
                        chunked("5;a=b;q=\"x;\\\"y\"\r\nhello\r\n0\r\nT: 1\r\n\r\n"), "ok", ""),
                Arguments.of("blank lines before the request line", "\r\n\r\n" + get(""), "ok", ""),
                Arguments.of("unknown but well-formed method", "BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n", "ok", ""),
                Arguments.of("HTTP/1.0 without Host", "GET / HTTP/1.0\r\n\r\n", "ok", ""),
                Arguments.of("HTAB and obs-text in a value", get("X: a\tb \u00ff\r\n"), "ok", ""),
                Arguments.of("16 hex digits of chunk size", chunked("0000000000000005\r\nhello\r\n0\r\n\r\n"), "ok", ""),
                Arguments.of("head of exactly 8 KiB", headOf(8192), "ok", ""),
                Arguments.of("request line and header fields each of exactly 8 KiB",
                        "GET /" + "a".repeat(8192 - 16) + " HTTP/1.1\r\n" + headOf(8192).substring(16), "ok", ""),
                Arguments.of("exactly 100 fields", fields(100), "ok", ""),
                Arguments.of("exactly 100 trailers", trailers(100, 1), "ok", ""),
                Arguments.of("Content-Length with blanks around it", post("Content-Length:  3 \r\n", "abc"), "ok", ""),

                Arguments.of("Content-Length +10", post("Content-Length: +10\r\n", "0123456789"), "400", "Content-Length"),
                Arguments.of("Content-Length -10", post("Content-Length: -10\r\n", "0123456789"), "400", "Content-Length"),
                Arguments.of("Content-Length abc", post("Content-Length: abc\r\n", ""), "400", "Content-Length"),
                Arguments.of("Content-Length 1.5", post("Content-Length: 1.5\r\n", "0"), "400", "Content-Length"),
                Arguments.of("Content-Length 1,0", post("Content-Length: 1,0\r\n", "0"), "400", "Content-Length"),
                Arguments.of("Content-Length 1 0", post("Content-Length: 1 0\r\n", "0"), "400", "Content-Length"),
                Arguments.of("Content-Length empty", post("Content-Length: \r\n", ""), "400", "Content-Length"),
                Arguments.of("Content-Length of 46 digits", post("Content-Length: " + "9".repeat(46) + "\r\n", ""),
                        "400", "overflows"),
                Arguments.of("Content-Length overflowing by one", post("Content-Length: 9223372036854775808\r\n", ""),
                        "400", "overflows"),
                Arguments.of("two different Content-Length", post("Content-Length: 5\r\nContent-Length: 6\r\n", "hello!"),
                        "400", "different values"),
                Arguments.of("two identical Content-Length", post("Content-Length: 5\r\nContent-Length: 5\r\n", "hello"),
                        "400", "MULTIPLE_CONTENT_LENGTHS"),
                Arguments.of("Content-Length list 5, 5", post("Content-Length: 5, 5\r\n", "hello"), "400", "Content-Length"),
                Arguments.of("Content-Length with chunked",
                        post("Content-Length: 3\r\nTransfer-Encoding: chunked\r\n", "0\r\n\r\n"),
                        "400", "TRANSFER_ENCODING_WITH_CONTENT_LENGTH"),
                Arguments.of("chunked with Content-Length after it",
                        post("Transfer-Encoding: chunked\r\nContent-Length: 3\r\n", "0\r\n\r\n"),
                        "400", "TRANSFER_ENCODING_WITH_CONTENT_LENGTH"),
                Arguments.of("chunked not last", post("Transfer-Encoding: chunked, gzip\r\n", "0\r\n\r\n"), "400", "chunked"),
                Arguments.of("chunked not last over two fields",
                        post("Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n", "0\r\n\r\n"), "400", "chunked"),
                Arguments.of("only an unknown coding", post("Transfer-Encoding: gzip\r\n", "0\r\n\r\n"), "400", "chunked"),
                Arguments.of("identity coding", post("Transfer-Encoding: identity\r\n", "0\r\n\r\n"), "400", "chunked"),
                Arguments.of("unknown coding before chunked", post("Transfer-Encoding: gzip, chunked\r\n", "0\r\n\r\n"),
                        "501", "not supported"),
                Arguments.of("made-up coding before chunked", post("Transfer-Encoding: x-rot13, chunked\r\n", "0\r\n\r\n"),
                        "501", "not supported"),
                Arguments.of("chunked twice", post("Transfer-Encoding: chunked, chunked\r\n", "0\r\n\r\n"),
                        "400", "more than once"),
                Arguments.of("empty Transfer-Encoding", post("Transfer-Encoding: \r\n", "0\r\n\r\n"), "400", "empty"),
                Arguments.of("Transfer-Encoding in HTTP/1.0",
                        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "400", "HTTP/1.0"),
                Arguments.of("chunk size of 17 hex digits", chunked("00000000000000005\r\nhello\r\n0\r\n\r\n"),
                        "400", "16 hex digits"),
                Arguments.of("chunk size overflowing", chunked("8000000000000000\r\nhello\r\n0\r\n\r\n"),
                        "400", "overflows"),
                Arguments.of("chunk size not hex", chunked("g\r\nhello\r\n0\r\n\r\n"), "400", "hex digit"),
                Arguments.of("negative chunk size", chunked("-1\r\nhello\r\n0\r\n\r\n"), "400", "hex digit"),
                Arguments.of("chunk size with 0x", chunked("0x5\r\nhello\r\n0\r\n\r\n"), "400", "chunk size"),
                Arguments.of("bare LF after the chunk size", chunked("5\nhello\r\n0\r\n\r\n"),
                        "400", "LF_CHUNK_TERMINATION"),
                Arguments.of("bare LF after chunk data", chunked("5\r\nhello\n0\r\n\r\n"), "400", "LF_CHUNK_TERMINATION"),
                Arguments.of("CR without LF after chunk size", chunked("5\rhello\r\n0\r\n\r\n"), "400", "CR without LF"),
                Arguments.of("chunk data longer than its size", chunked("3\r\nhello\r\n0\r\n\r\n"), "400", "longer than"),
                Arguments.of("chunk extension over 1 KiB", chunked("5;a=" + "b".repeat(1100) + "\r\nhello\r\n0\r\n\r\n"),
                        "400", "chunk extension longer than 1024"),
                Arguments.of("unterminated quoted chunk extension", chunked("5;a=\"" + "b".repeat(1100)),
                        "400", "chunk extension longer than 1024"),
                Arguments.of("quoted chunk extension cut by CR LF", chunked("5;a=\"open\r\nhello\r\n0\r\n\r\n"),
                        "400", "quoted chunk extension"),
                Arguments.of("illegal character in a chunk extension", chunked("5;a@b\r\nhello\r\n0\r\n\r\n"),
                        "400", "chunk extension"),
                Arguments.of("trailers over 8 KiB", trailers(2, 4100), "431", "trailer section"),
                Arguments.of("101 trailers", trailers(101, 1), "431", "trailer fields"),
                Arguments.of("header fields of 8 KiB + 1", headOf(8193), "431", "header fields longer than 8192 bytes"),
                Arguments.of("101 fields", fields(101), "431", "more than 100 header fields"),
                Arguments.of("request line over 8 KiB", "GET /" + "a".repeat(8200) + " HTTP/1.1\r\nHost: a\r\n\r\n",
                        "414", "request line longer"),
                Arguments.of("endless blank lines", "\r\n".repeat(5000) + get(""), "431",
                        "blank lines before the request line longer than 8192 bytes"),
                Arguments.of("obs-fold", get("X: a\r\n b\r\n"), "400", "MULTILINE_FIELD_VALUE"),
                Arguments.of("first field line folded", "GET / HTTP/1.1\r\n Host: a\r\n\r\n", "400", "blank"),
                Arguments.of("space before the colon", get("X : a\r\n"), "400", "WHITESPACE_AFTER_FIELD_NAME"),
                Arguments.of("tab before the colon", get("Content-Length\t: 0\r\n"), "400", "WHITESPACE_AFTER_FIELD_NAME"),
                Arguments.of("blank inside a field name", get("X Y: a\r\n"), "400", "blank inside"),
                Arguments.of("NUL in a value", get("X: a\u0000b\r\n"), "400", "illegal character 0x0"),
                Arguments.of("CR in a value", get("X: a\rb\r\n"), "400", "illegal character 0xd"),
                Arguments.of("CR before LF in a value", get("X: a\r\r\n"), "400", "illegal character 0xd"),
                Arguments.of("SOH in a value", get("X: a\u0001\r\n"), "400", "illegal character 0x1"),
                Arguments.of("DEL in a value", get("X: a\u007f\r\n"), "400", "illegal character 0x7f"),
                Arguments.of("illegal character in a name", get("X(y): a\r\n"), "400", "field name"),
                Arguments.of("NUL in a name", get("X\u0000: a\r\n"), "400", "field name"),
                Arguments.of("empty field name", get(": a\r\n"), "400", "empty name"),
                Arguments.of("pseudo-header", get(":path: /\r\n"), "400", "empty name"),
                Arguments.of("no colon", get("NoColon\r\n"), "400", "NO_COLON_AFTER_FIELD_NAME"),
                Arguments.of("duplicate Host", get("Host: b\r\n"), "400", "DUPLICATE_HOST_HEADERS"),
                Arguments.of("missing Host in HTTP/1.1", "GET / HTTP/1.1\r\nX: a\r\n\r\n", "400", "without a Host"),
                Arguments.of("bare LF after the request line", "GET / HTTP/1.1\nHost: a\r\n\r\n", "400", "LF_HEADER_TERMINATION"),
                Arguments.of("bare LF after a field", "GET / HTTP/1.1\r\nHost: a\n\r\n", "400", "LF_HEADER_TERMINATION"),
                Arguments.of("bare LF ending the head", "GET / HTTP/1.1\r\nHost: a\r\n\n", "400", "LF_HEADER_TERMINATION"),
                Arguments.of("bare CR in the request line", "GET / HTTP/1.1\rHost: a\r\n\r\n", "400", "version"),
                // RFC 9110 section 9.1: case-sensitive, so another method, framed like any request.
                Arguments.of("lower-case get", "get / HTTP/1.1\r\nHost: a\r\n\r\n", "ok", ""),
                Arguments.of("mixed-case Post", "Post / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc", "ok", ""),
                // RFC 9110 section 2.5: a later minor version of HTTP/1 is processed as HTTP/1.1.
                Arguments.of("HTTP/1.2", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", "ok", ""),
                Arguments.of("HTTP/3.0", "GET / HTTP/3.0\r\nHost: a\r\n\r\n", "505", "version not supported"),
                Arguments.of("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", "505", "version not supported"),
                Arguments.of("HTTP/0.9 spelled out", "GET / HTTP/0.9\r\nHost: a\r\n\r\n", "505", "version not supported"),
                Arguments.of("HTTP/0.9 without a version", "GET /\r\n", "505", "HTTP_0_9"),
                Arguments.of("lower-case version", "GET / http/1.1\r\nHost: a\r\n\r\n", "400", "version"),
                Arguments.of("trailing space after the version", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", "400", "version"),
                Arguments.of("version without a dot", "GET / HTTP/11\r\nHost: a\r\n\r\n", "400", "version"),
                Arguments.of("two spaces before the target", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", "400", "more than one space"),
                Arguments.of("two spaces before the version", "GET /  HTTP/1.1\r\nHost: a\r\n\r\n", "400", "version"),
                Arguments.of("two spaces after an unknown method", "BREW  / HTTP/1.1\r\nHost: a\r\n\r\n", "400", "more than one space"),
                Arguments.of("tabs as separators", "GET\t/\tHTTP/1.1\r\nHost: a\r\n\r\n", "400", "single space"),
                Arguments.of("tab before the version", "GET /\tHTTP/1.1\r\nHost: a\r\n\r\n", "400", "request target"),
                Arguments.of("space before the method", " GET / HTTP/1.1\r\nHost: a\r\n\r\n", "400", "method"),
                Arguments.of("only a method", "GET\r\nHost: a\r\n\r\n", "400", "only a method"),
                Arguments.of("control character in the target", "GET /a\u0001b HTTP/1.1\r\nHost: a\r\n\r\n", "400", "request target"),
                Arguments.of("obs-text in the target", "GET /caf\u00e9 HTTP/1.1\r\nHost: a\r\n\r\n", "400", "request target"),
                Arguments.of("binary garbage", "\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003", "400", "method"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void hostileRequestIsRejectedAndNothingAfterItIsParsed(String name, String raw, String expected, String reasonWords) {
        for (ParserDriver.Kind kind : List.of(ParserDriver.Kind.HEAP, ParserDriver.Kind.DIRECT)) {
            RecordingListener listener = new RecordingListener();
            HttpParser parser = requestParser(listener);
            parseAll(parser, buffer(raw + SMUGGLED, kind));

            if (expected.equals("ok")) {
                assertEquals(List.of(), listener.failures, name);
                assertEquals("/smuggled", listener.targets().getLast(), "the next request is parsed after " + name);
                assertTrue(parser.isStart(), name);
                continue;
            }
            assertEquals(1, listener.failures.size(), name + ": " + listener.events);
            BadMessageException failure = listener.failures.getFirst();
            assertEquals(Integer.parseInt(expected), failure.getStatus(), name + ": " + failure.getReason());
            assertTrue(failure.getReason().contains(reasonWords),
                    name + ": reason '" + failure.getReason() + "' should hold '" + reasonWords + "'");
            assertTrue(failure.getReason().chars().allMatch(c -> c >= 0x20 && c < 0x7F),
                    name + ": reason must be printable ASCII: " + failure.getReason());
            assertFalse(listener.targets().contains("/smuggled"), name + ": nothing after a bad message is parsed");
            assertTrue(parser.isClosed(), name);
            assertEquals("bad " + expected, listener.events.getLast(), name);

            parser.reset();
            parseAll(parser, buffer(SMUGGLED, kind));
            assertFalse(listener.targets().contains("/smuggled"), name + ": a closed parser stays closed");
        }
    }

    static Stream<Arguments> responseRows() {
        return Stream.of(
                // name, raw response, expected status or "ok", words the reason must hold
                Arguments.of("plain 200", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", "ok", ""),
                Arguments.of("no Host needed", "HTTP/1.1 204 No Content\r\n\r\n", "ok", ""),
                Arguments.of("Content-Length with chunked",
                        "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                        "400", "TRANSFER_ENCODING_WITH_CONTENT_LENGTH"),
                Arguments.of("chunked in HTTP/1.0", "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                        "400", "HTTP/1.0"),
                Arguments.of("chunked twice", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
                        "400", "more than once"),
                Arguments.of("two different Content-Length",
                        "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "400", "different values"),
                Arguments.of("two-digit status", "HTTP/1.1 20 OK\r\n\r\n", "400", "status code"),
                Arguments.of("four-digit status", "HTTP/1.1 2000 OK\r\n\r\n", "400", "status code"),
                Arguments.of("letters for a status", "HTTP/1.1 abc OK\r\n\r\n", "400", "status code"),
                Arguments.of("status below 100", "HTTP/1.1 099 Low\r\n\r\n", "400", "below 100"),
                Arguments.of("HTTP/2.0 status line", "HTTP/2.0 200 OK\r\n\r\n", "505", "version not supported"),
                Arguments.of("lower-case version", "http/1.1 200 OK\r\n\r\n", "400", "version"),
                Arguments.of("not HTTP at all", "ICY 200 OK\r\n\r\n", "400", "version"),
                Arguments.of("control character in the reason", "HTTP/1.1 200 O\u0001K\r\n\r\n", "400", "reason phrase"),
                Arguments.of("obs-fold in a response", "HTTP/1.1 200 OK\r\nX: a\r\n b\r\nContent-Length: 0\r\n\r\n",
                        "400", "MULTILINE_FIELD_VALUE"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("responseRows")
    void hostileResponseIsRejectedAndNothingAfterItIsParsed(String name, String raw, String expected, String reasonWords) {
        RecordingListener listener = new RecordingListener();
        HttpParser parser = ParserDriver.responseParser(listener);
        parseAll(parser, buffer(raw + "HTTP/1.1 299 Next\r\nContent-Length: 0\r\n\r\n"));
        List<String> responses = listener.events.stream().filter(e -> e.startsWith("response ")).toList();
        if (expected.equals("ok")) {
            assertEquals(List.of(), listener.failures, name);
            assertEquals("response HTTP/1.1 299 Next", responses.getLast(), name);
            return;
        }
        assertEquals(1, listener.failures.size(), name + ": " + listener.events);
        assertEquals(Integer.parseInt(expected), listener.failures.getFirst().getStatus(), name);
        assertTrue(listener.failures.getFirst().getReason().contains(reasonWords),
                name + ": " + listener.failures.getFirst().getReason());
        assertFalse(responses.contains("response HTTP/1.1 299 Next"), name);
        assertTrue(parser.isClosed(), name);
    }

    @Test
    void aResponseWhoseLastCodingIsNotChunkedEndsAtClose() {
        RecordingListener listener = new RecordingListener();
        HttpParser parser = ParserDriver.responseParser(listener);
        parseAll(parser, buffer("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\nmore"));
        parser.atEOF();
        parser.parseNext(buffer(""));
        assertEquals(List.of("response HTTP/1.1 200 OK", "header Transfer-Encoding: gzip", "headerComplete",
                "content 0\r\n\r\nmore", "contentComplete", "messageComplete"), listener.events);
    }

    @Test
    void limitsAreConfigurable() {
        HttpParser.Limits limits = HttpParser.Limits.DEFAULT.withMaxHeaderBytes(100_000).withMaxRequestLineBytes(64)
                .withMaxFields(2).withMaxChunkExtensionBytes(4).withMaxTrailers(1).withMaxTrailerBytes(20);
        record Case(String raw, String expected) {
        }
        String line62 = "GET /" + "a".repeat(62 - 16) + " HTTP/1.1\r\n";
        assertEquals(62, line62.length());
        List<Case> cases = List.of(
                new Case(line62 + "Host: a\r\n\r\n", "ok"),
                new Case("GET /" + "a".repeat(62 - 16 + 3) + " HTTP/1.1\r\nHost: a\r\n\r\n", "414"),
                new Case("GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n\r\n", "ok"),
                new Case("GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\nY: 2\r\n\r\n", "431"),
                new Case(chunked("1;abc\r\nx\r\n0\r\nT: 1\r\n\r\n"), "ok"),
                new Case(chunked("1;abcd\r\nx\r\n0\r\n\r\n"), "400"),
                new Case(chunked("0\r\nT: 1\r\nU: 2\r\n\r\n"), "431"),
                new Case(chunked("0\r\nT: 1234567890123\r\n\r\n"), "ok"),
                new Case(chunked("0\r\nT: 12345678901234\r\n\r\n"), "431"));
        for (Case row : cases) {
            RecordingListener listener = new RecordingListener();
            HttpParser parser = new HttpParser((HttpParserListener.Request) listener, limits, HttpCompliance.RFC9112,
                    ComplianceViolation.Listener.NONE);
            parseAll(parser, buffer(row.raw()));
            String outcome = listener.failures.isEmpty() ? "ok" : String.valueOf(listener.failures.getFirst().getStatus());
            assertEquals(row.expected(), outcome, row.raw() + " " + listener.failures);
        }
    }

    @Test
    void limitsMustBePositive() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> HttpParser.Limits.DEFAULT.withMaxFields(0));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> HttpParser.Limits.DEFAULT.withFieldCacheCapacity(-1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> HttpParser.Limits.DEFAULT.withFieldCacheCapacity(1 << 20));
    }

    /** Each input at its smaller size; the test also parses it {@link LinearTime#FACTOR} times larger. */
    static Stream<Arguments> heavyInputs() {
        return Stream.of(
                heavy("a value of 1000 blanks", 1000, n -> get("X:" + " ".repeat(n) + "a\r\n")),
                heavy("8000 tiny chunks with extensions", 8000, n -> chunked("1;a=\"b\"\r\nx\r\n".repeat(n) + "0\r\n\r\n")),
                heavy("a megabyte of CR LF", 512 * 1024, n -> "\r\n".repeat(n)),
                heavy("a megabyte of one field line", 1024 * 1024, n -> "GET / HTTP/1.1\r\nX: " + "a".repeat(n)),
                heavy("a megabyte of content split in 1-byte chunks", 200_000, n -> chunked("1\r\nx\r\n".repeat(n))));
    }

    private static Arguments heavy(String name, int size, IntFunction<String> input) {
        return Arguments.of(name, size, input);
    }

    /** Records all but the content, so a megabyte of it costs the test nothing. */
    private static final class ContentIgnoringListener extends RecordingListener {
        @Override
        public boolean content(java.nio.ByteBuffer piece) {
            return false;
        }
    }

    @ParameterizedTest(name = "{0}, then 8 times as much")
    @MethodSource("heavyInputs")
    void heavyInputTakesLinearTime(String name, int size, IntFunction<String> input) {
        LinearTime.assertLinear(name, size, n -> {
            ByteBuffer raw = buffer(input.apply(n));
            return () -> parseAll(requestParser(new ContentIgnoringListener()), raw.duplicate());
        });
    }
}
