package io.wharf.http;

import static io.wharf.http.ParserDriver.buffer;
import static io.wharf.http.ParserDriver.crlf;
import static io.wharf.http.ParserDriver.parseAll;
import static io.wharf.http.ParserDriver.requestParser;
import static io.wharf.http.ParserDriver.responseParser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class HttpParserTest {

    private static final String GET = crlf("""
            GET /index.html?q=1 HTTP/1.1
            Host: www.example.com
            User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0
            Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8
            Accept-Encoding: gzip, deflate, br, zstd
            Connection: keep-alive
            X-Custom:   padded value \t
            Empty:

            """);

    private static final String POST = crlf("""
            POST /form HTTP/1.1
            Host: a
            Content-Type: application/x-www-form-urlencoded
            Content-Length: 11

            hello=world""");

    private static final String CHUNKED = crlf("""
            POST /upload HTTP/1.1
            Host: a
            Transfer-Encoding: chunked

            5;name=value;quoted="a;b\\"c"
            hello
            6 ; lone
             world
            0
            Checksum: abc
            X-Done: yes

            """);

    private static final List<String> GET_EVENTS = List.of(
            "request GET /index.html?q=1 HTTP/1.1",
            "header Host: www.example.com",
            "header User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
            "header Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
            "header Accept-Encoding: gzip, deflate, br, zstd",
            "header Connection: keep-alive",
            "header X-Custom: padded value",
            "header Empty: ",
            "headerComplete", "contentComplete", "messageComplete");

    private static final List<String> POST_EVENTS = List.of(
            "request POST /form HTTP/1.1",
            "header Host: a",
            "header Content-Type: application/x-www-form-urlencoded",
            "header Content-Length: 11",
            "headerComplete", "content hello=world", "contentComplete", "messageComplete");

    private static final List<String> CHUNKED_EVENTS = List.of(
            "request POST /upload HTTP/1.1",
            "header Host: a",
            "header Transfer-Encoding: chunked",
            "headerComplete", "content hello world", "contentComplete",
            "trailer Checksum: abc", "trailer X-Done: yes", "messageComplete");

    static Stream<Arguments> requests() {
        return Stream.of(
                Arguments.of("GET", GET, GET_EVENTS),
                Arguments.of("POST", POST, POST_EVENTS),
                Arguments.of("CHUNKED", CHUNKED, CHUNKED_EVENTS),
                Arguments.of("HTTP/1.0 without Host", "GET /old HTTP/1.0\r\n\r\n", List.of(
                        "request GET /old HTTP/1.0", "headerComplete", "contentComplete", "messageComplete")),
                Arguments.of("blank lines first", "\r\n\r\nDELETE /x HTTP/1.1\r\nHost: h\r\n\r\n", List.of(
                        "request DELETE /x HTTP/1.1", "header Host: h", "headerComplete", "contentComplete",
                        "messageComplete")),
                Arguments.of("unknown method", "BREW /pot HTTP/1.1\r\nHost: h\r\n\r\n", List.of(
                        "request BREW /pot HTTP/1.1", "header Host: h", "headerComplete", "contentComplete",
                        "messageComplete")),
                Arguments.of("lower-case header name", "GET / HTTP/1.1\r\nhost: h\r\nx-low: v\r\n\r\n", List.of(
                        "request GET / HTTP/1.1", "header Host: h", "header x-low: v", "headerComplete",
                        "contentComplete", "messageComplete")),
                Arguments.of("absolute and asterisk targets", "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", List.of(
                        "request OPTIONS * HTTP/1.1", "header Host: h", "headerComplete", "contentComplete",
                        "messageComplete")),
                Arguments.of("obs-text in a value", "GET / HTTP/1.1\r\nHost: h\r\nX: caf\u00e9\r\n\r\n", List.of(
                        "request GET / HTTP/1.1", "header Host: h", "header X: caf\u00e9", "headerComplete",
                        "contentComplete", "messageComplete")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void parsesRequestsFromEveryKindOfBuffer(String name, String raw, List<String> expected) {
        for (ParserDriver.Kind kind : ParserDriver.Kind.values()) {
            RecordingListener listener = new RecordingListener();
            HttpParser parser = requestParser(listener);
            ByteBuffer buffer = buffer(raw, kind);
            parseAll(parser, buffer);
            assertEquals(expected, listener.events, kind.name());
            assertFalse(buffer.hasRemaining(), kind.name());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void aRequestSplitAtEveryByteParsesIdentically(String name, String raw, List<String> expected) {
        for (ParserDriver.Kind kind : List.of(ParserDriver.Kind.HEAP, ParserDriver.Kind.DIRECT)) {
            for (int split = 0; split <= raw.length(); split++) {
                RecordingListener listener = new RecordingListener();
                HttpParser parser = requestParser(listener);
                ByteBuffer first = buffer(raw.substring(0, split), kind);
                parseAll(parser, first);
                assertFalse(first.hasRemaining(), "every byte of the first part is consumed");
                parseAll(parser, buffer(raw.substring(split), kind));
                assertEquals(expected, listener.events, kind + " split at " + split);
            }
        }
    }

    @Test
    void aRequestFedOneByteAtATimeParsesIdentically() {
        RecordingListener listener = new RecordingListener();
        HttpParser parser = requestParser(listener);
        for (int i = 0; i < CHUNKED.length(); i++) {
            parseAll(parser, buffer(CHUNKED.substring(i, i + 1)));
        }
        assertEquals(CHUNKED_EVENTS, listener.events);
    }

    @Test
    void pipelinedRequestsAreParsedOneAtATime() {
        RecordingListener listener = new RecordingListener();
        HttpParser parser = requestParser(listener);
        ByteBuffer buffer = buffer(GET + POST + CHUNKED);

        assertTrue(parser.parseNext(buffer), "returns at the end of the first message");
        assertTrue(parser.isComplete());
        assertEquals(GET.length(), buffer.position(), "nothing of the next request was consumed");
        assertEquals(GET_EVENTS, listener.events);
        assertFalse(parser.parseNext(buffer), "a complete parser parses nothing before reset");
        assertEquals(GET.length(), buffer.position());

        parser.reset();
        assertTrue(parser.parseNext(buffer));
        assertEquals(GET.length() + POST.length(), buffer.position());
        parser.reset();
        assertTrue(parser.parseNext(buffer));
        assertFalse(buffer.hasRemaining());
        assertEquals(Stream.of(GET_EVENTS, POST_EVENTS, CHUNKED_EVENTS).flatMap(List::stream).toList(), listener.events);
    }

    @Test
    void aListenerStopsTheParseAtTheHeaderAndTheContent() {
        RecordingListener listener = new RecordingListener();
        listener.stopAtHeader = true;
        listener.stopAtContent = true;
        HttpParser parser = requestParser(listener);
        ByteBuffer buffer = buffer(POST);

        assertTrue(parser.parseNext(buffer));
        assertEquals("headerComplete", listener.events.getLast());
        assertEquals(POST.indexOf("hello"), buffer.position(), "the content is left in the buffer");
        assertEquals(11, parser.getContentLength());
        assertEquals(0, parser.getContentRead());

        assertTrue(parser.parseNext(buffer));
        assertEquals("content hello=world", listener.events.getLast());
        assertEquals(11, parser.getContentRead());
        assertEquals(HttpParser.State.CONTENT_END, parser.getState());

        assertTrue(parser.parseNext(buffer));
        assertTrue(parser.isComplete());
        assertEquals(POST_EVENTS, listener.events);
    }

    @Test
    void contentIsASliceOfTheCallersBuffer() {
        ByteBuffer[] seen = new ByteBuffer[1];
        RecordingListener listener = new RecordingListener();
        HttpParserListener.Request slicing = new HttpParserListener.Request() {
            @Override
            public void startRequest(String method, String target, HttpVersion version) {
            }

            @Override
            public void parsedHeader(HttpField field) {
            }

            @Override
            public boolean headerComplete() {
                return false;
            }

            @Override
            public boolean content(ByteBuffer content) {
                seen[0] = content;
                return false;
            }

            @Override
            public boolean messageComplete() {
                return false;
            }

            @Override
            public void badMessage(BadMessageException failure) {
                listener.badMessage(failure);
            }

            @Override
            public void earlyEOF() {
            }
        };
        HttpParser parser = new HttpParser(slicing, HttpParser.Limits.DEFAULT, HttpCompliance.RFC9112,
                ComplianceViolation.Listener.NONE);
        ByteBuffer buffer = buffer(POST);
        parser.parseNext(buffer);
        assertEquals(List.of(), listener.events);
        assertSame(buffer.array(), seen[0].array(), "no copy");
        assertEquals(buffer.arrayOffset() + POST.indexOf("hello"), seen[0].arrayOffset());
        assertEquals(11, seen[0].remaining());
    }

    @Test
    void knownLinesAreTheStaticInstances() {
        RecordingListener listener = new RecordingListener();
        parseAll(requestParser(listener), buffer(GET));
        assertSame(KnownFields.ACCEPT_HTML_FIREFOX, listener.fields.get(2));
        assertSame(KnownFields.ACCEPT_ENCODING_GZIP_DEFLATE_BR_ZSTD, listener.fields.get(3));
        assertSame(KnownFields.CONNECTION_KEEP_ALIVE, listener.fields.get(4));
        assertSame(HttpHeader.HOST, listener.fields.get(0).getHeader());
    }

    @Test
    void learnedLinesAreTheSameInstanceOnTheNextRequest() {
        String request = crlf("""
                GET /a HTTP/1.1
                Host: shop.example.com
                User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0.0.0
                Accept-Language: fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5
                X-Not-Learned: same
                Cookie: session=abc123

                """);
        RecordingListener listener = new RecordingListener();
        HttpParser parser = requestParser(listener);
        for (int i = 0; i < 3; i++) {
            parseAll(parser, buffer(request, i == 1 ? ParserDriver.Kind.DIRECT : ParserDriver.Kind.HEAP));
        }
        assertEquals(15, listener.fields.size());
        List<HttpField> first = listener.fields.subList(0, 5);
        List<HttpField> second = listener.fields.subList(5, 10);
        List<HttpField> third = listener.fields.subList(10, 15);
        for (int i = 0; i < 3; i++) {
            assertSame(first.get(i), second.get(i), "learned at first sight: " + first.get(i));
            assertSame(first.get(i), third.get(i));
        }
        assertNotSame(first.get(3), second.get(3), "an unknown header is never learned");
        assertEquals(first.get(3), second.get(3));
        assertNotSame(first.get(4), second.get(4), "a cookie is learned when it comes again");
        assertSame(second.get(4), third.get(4));
    }

    @Test
    void aChangedLineIsNotMistakenForTheLearnedOne() {
        RecordingListener listener = new RecordingListener();
        HttpParser parser = requestParser(listener);
        parseAll(parser, buffer("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"));
        parseAll(parser, buffer("GET / HTTP/1.1\r\nHost: example.com.evil\r\n\r\n"));
        parseAll(parser, buffer("GET / HTTP/1.1\r\nHost: example.co\r\n\r\n"));
        parseAll(parser, buffer("GET / HTTP/1.1\r\nHost: example.com \r\n\r\n"));
        parseAll(parser, buffer("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"));
        assertEquals(List.of("example.com", "example.com.evil", "example.co", "example.com", "example.com"),
                listener.fields.stream().map(HttpField::getValue).toList());
        assertNotSame(listener.fields.get(0), listener.fields.get(3), "a trailing blank is not the learned line");
        assertSame(listener.fields.get(0), listener.fields.get(4));
    }

    @Test
    void learningCanBeTurnedOff() {
        RecordingListener listener = new RecordingListener();
        HttpParser parser = new HttpParser((HttpParserListener.Request) listener,
                HttpParser.Limits.DEFAULT.withFieldCacheCapacity(0), HttpCompliance.RFC9112,
                ComplianceViolation.Listener.NONE);
        parseAll(parser, buffer("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"));
        parseAll(parser, buffer("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"));
        assertNotSame(listener.fields.get(0), listener.fields.get(1));
    }

    @Test
    void aFieldMemoryCarriesLearnedLinesFromOneParserToAnother() {
        String request = "GET / HTTP/1.1\r\nHost: example.com\r\nUser-Agent: curl/8.11.1 (x86_64-pc-linux-gnu)\r\n\r\n";
        HttpParser.FieldMemory memory = new HttpParser.FieldMemory(HttpParser.Limits.DEFAULT);
        RecordingListener listener = new RecordingListener();
        HttpParser first = requestParser(listener);
        first.useFieldMemory(memory);
        parseAll(first, buffer(request));
        HttpParser second = requestParser(listener);
        second.useFieldMemory(memory);
        parseAll(second, buffer(request));
        assertSame(listener.fields.get(0), listener.fields.get(2), "the Host line learned by the first parser");
        assertSame(listener.fields.get(1), listener.fields.get(3), "the User-Agent line learned by the first parser");

        HttpParser forgetful = requestParser(listener);
        forgetful.useFieldMemory(null);
        parseAll(forgetful, buffer(request));
        parseAll(forgetful, buffer(request));
        assertNotSame(listener.fields.get(0), listener.fields.get(4), "no memory: nothing found");
        assertNotSame(listener.fields.get(4), listener.fields.get(6), "no memory: nothing learned");
        assertEquals(listener.fields.get(0), listener.fields.get(6));
    }

    @Test
    void theFieldMemoryIsNotChangedMidMessage() {
        HttpParser parser = requestParser(new RecordingListener());
        parser.parseNext(buffer("GET / HTTP/1.1\r\nHost: exa"));
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> parser.useFieldMemory(new HttpParser.FieldMemory(HttpParser.Limits.DEFAULT)));
        assertTrue(refused.getMessage().contains("FIELDS"), refused.getMessage());
    }

    @Test
    void contentLengthArrivesAsANumber() {
        RecordingListener listener = new RecordingListener();
        parseAll(requestParser(listener), buffer(POST));
        HttpField length = listener.fields.get(2);
        assertInstanceOf(LongValueHttpField.class, length);
        assertEquals(11, length.getLongValue());
    }

    @Test
    void atEndOfInputTheParserIsQuietAtTheStartAndReportsAnEarlyEndOtherwise() {
        RecordingListener quiet = new RecordingListener();
        HttpParser idle = requestParser(quiet);
        parseAll(idle, buffer(GET));
        idle.atEOF();
        assertFalse(idle.parseNext(buffer("")));
        assertTrue(idle.isClosed());
        assertEquals(GET_EVENTS, quiet.events);

        for (String partial : List.of("G", "GET / HTTP/1.1\r\nHo", "GET / HTTP/1.1\r\nHost: a\r\n", POST.substring(0, POST.length() - 3),
                CHUNKED.substring(0, CHUNKED.indexOf("world")), CHUNKED.substring(0, CHUNKED.length() - 2))) {
            RecordingListener listener = new RecordingListener();
            HttpParser parser = requestParser(listener);
            parser.parseNext(buffer(partial));
            parser.atEOF();
            assertTrue(parser.parseNext(buffer("")), partial);
            assertEquals("earlyEOF", listener.events.getLast(), partial);
            assertTrue(parser.isClosed());
        }
    }

    @Test
    void resetInTheMiddleOfAMessageIsRefused() {
        HttpParser parser = requestParser(new RecordingListener());
        parser.parseNext(buffer("GET / HTTP/1.1\r\n"));
        assertThrows(IllegalStateException.class, parser::reset);
    }

    @Test
    void aClosedParserParsesNothing() {
        RecordingListener listener = new RecordingListener();
        HttpParser parser = requestParser(listener);
        parser.close();
        ByteBuffer buffer = buffer(GET);
        assertFalse(parser.parseNext(buffer));
        assertFalse(buffer.hasRemaining(), "the bytes are discarded");
        parser.reset();
        assertTrue(parser.isClosed());
        assertEquals(List.of(), listener.events);
    }

    // ---- responses ----

    static Stream<Arguments> responses() {
        return Stream.of(
                Arguments.of("200 with Content-Length", false, crlf("""
                        HTTP/1.1 200 OK
                        Content-Type: text/plain
                        Content-Length: 5

                        hello"""), List.of(
                        "response HTTP/1.1 200 OK", "header Content-Type: text/plain", "header Content-Length: 5",
                        "headerComplete", "content hello", "contentComplete", "messageComplete")),
                Arguments.of("chunked", false, crlf("""
                        HTTP/1.1 201 Created
                        Transfer-Encoding: chunked

                        3
                        abc
                        0

                        """), List.of(
                        "response HTTP/1.1 201 Created", "header Transfer-Encoding: chunked", "headerComplete",
                        "content abc", "contentComplete", "messageComplete")),
                Arguments.of("204 and 304 have no content, whatever they say", false, crlf("""
                        HTTP/1.1 204 No Content
                        Content-Length: 10

                        HTTP/1.1 304 Not Modified
                        Content-Length: 10

                        """), List.of(
                        "response HTTP/1.1 204 No Content", "header Content-Length: 10", "headerComplete",
                        "contentComplete", "messageComplete",
                        "response HTTP/1.1 304 Not Modified", "header Content-Length: 10", "headerComplete",
                        "contentComplete", "messageComplete")),
                Arguments.of("1xx then the final response", false, crlf("""
                        HTTP/1.1 100 Continue

                        HTTP/1.1 103 Early Hints
                        Link: </style.css>; rel=preload

                        HTTP/1.1 200 OK
                        Content-Length: 0

                        """), List.of(
                        "response HTTP/1.1 100 Continue", "headerComplete", "contentComplete", "messageComplete",
                        "response HTTP/1.1 103 Early Hints", "header Link: </style.css>; rel=preload",
                        "headerComplete", "contentComplete", "messageComplete",
                        "response HTTP/1.1 200 OK", "header Content-Length: 0", "headerComplete",
                        "contentComplete", "messageComplete")),
                Arguments.of("HEAD response", true, crlf("""
                        HTTP/1.1 200 OK
                        Content-Length: 1000

                        """), List.of(
                        "response HTTP/1.1 200 OK", "header Content-Length: 1000", "headerComplete",
                        "contentComplete", "messageComplete")),
                Arguments.of("reason phrase missing or unusual", false, crlf("""
                        HTTP/1.1 299
                        Content-Length: 0

                        HTTP/1.0 404 Gone Fishing\t(really)
                        Content-Length: 0

                        """), List.of(
                        "response HTTP/1.1 299 ", "header Content-Length: 0", "headerComplete",
                        "contentComplete", "messageComplete",
                        "response HTTP/1.0 404 Gone Fishing\t(really)", "header Content-Length: 0", "headerComplete",
                        "contentComplete", "messageComplete")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("responses")
    void parsesResponses(String name, boolean head, String raw, List<String> expected) {
        for (int split = 0; split <= raw.length(); split++) {
            RecordingListener listener = new RecordingListener();
            HttpParser parser = responseParser(listener);
            parser.setHeadResponse(head);
            ByteBuffer first = buffer(raw.substring(0, split), ParserDriver.Kind.DIRECT);
            ByteBuffer second = buffer(raw.substring(split), ParserDriver.Kind.DIRECT);
            for (ByteBuffer buffer : List.of(first, second)) {
                while (buffer.hasRemaining() || parser.isComplete()) {
                    parser.parseNext(buffer);
                    if (parser.isComplete()) {
                        parser.reset();
                        parser.setHeadResponse(head);
                    }
                }
            }
            assertEquals(expected, listener.events, "split at " + split);
        }
    }

    @ParameterizedTest
    @EnumSource(value = HttpVersion.class, names = {"HTTP_1_0", "HTTP_1_1"})
    void aResponseWithoutLengthEndsWhenThePeerCloses(HttpVersion version) {
        RecordingListener listener = new RecordingListener();
        HttpParser parser = responseParser(listener);
        parseAll(parser, buffer(version + " 200 OK\r\nContent-Type: text/plain\r\n\r\nsome "));
        parseAll(parser, buffer("more"));
        assertEquals(HttpParser.State.EOF_CONTENT, parser.getState());
        assertEquals(-1, parser.getContentLength());
        parser.atEOF();
        assertTrue(parser.parseNext(buffer("")));
        assertTrue(parser.isComplete());
        assertEquals(List.of("response " + version + " 200 OK", "header Content-Type: text/plain", "headerComplete",
                "content some more", "contentComplete", "messageComplete"), listener.events);
    }

    @Test
    void theStandardReasonPhraseIsNotCopied() {
        String[] reason = new String[1];
        RecordingListener listener = new RecordingListener() {
            @Override
            public void startResponse(HttpVersion version, int status, String phrase) {
                reason[0] = phrase;
            }
        };
        parseAll(responseParser(listener), buffer("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"));
        assertSame(HttpStatus.getReason(404), reason[0]);
    }

    @Test
    void aLaterMinorVersionOfHttp1IsReadAsHttp11() {
        RecordingListener requests = new RecordingListener();
        parseAll(requestParser(requests), buffer("GET / HTTP/1.7\r\nHost: a\r\n\r\n"));
        assertTrue(requests.events.get(0).endsWith("HTTP/1.1"), requests.events.toString());
        RecordingListener responses = new RecordingListener();
        parseAll(responseParser(responses), buffer("HTTP/1.2 200 OK\r\nContent-Length: 0\r\n\r\n"));
        assertEquals("response HTTP/1.1 200 OK", responses.events.get(0));
        RecordingListener major = new RecordingListener();
        parseAll(responseParser(major), buffer("HTTP/3.0 200 OK\r\nContent-Length: 0\r\n\r\n"));
        assertTrue(major.events.get(major.events.size() - 1).contains("505"), major.events.toString());
    }

    @Test
    void stateAccessorsFollowTheMessage() {
        RecordingListener listener = new RecordingListener();
        listener.stopAtHeader = true;
        HttpParser parser = requestParser(listener);
        assertTrue(parser.isStart());
        parser.parseNext(buffer(CHUNKED.substring(0, CHUNKED.indexOf("\r\n\r\n") + 4)));
        assertTrue(parser.isChunking());
        assertEquals(-1, parser.getContentLength());
        assertEquals(HttpParser.State.CHUNKED_CONTENT, parser.getState());
        assertThrows(IllegalStateException.class, () -> parser.setHeadResponse(true));
    }
}
