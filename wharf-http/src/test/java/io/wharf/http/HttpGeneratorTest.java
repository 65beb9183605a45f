package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.wharf.http.HttpGenerator.Result;
import io.wharf.http.HttpGenerator.State;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HttpGeneratorTest {

    private static final Supplier<HttpFields> CHECKSUM_TRAILER =
            () -> HttpFields.of(new HttpField("Checksum", "42"));

    /** Writes what a result says into the wire text, checking the generator left content alone. */
    private static void send(StringBuilder wire, Result result, ByteBuffer header, ByteBuffer content) {
        header.flip();
        if (result.writesHeader()) {
            assertTrue(header.hasRemaining(), "header result with an empty header buffer");
            wire.append(StandardCharsets.ISO_8859_1.decode(header));
        } else {
            assertFalse(header.hasRemaining(), result + " but the header buffer has bytes");
        }
        header.clear();
        if (content != null) {
            assertEquals(0, content.position(), "content consumed");
            if (result.writesContent()) {
                wire.append(StandardCharsets.ISO_8859_1.decode(content.duplicate()));
            }
        }
    }

    private static ByteBuffer bytes(String text) {
        return text == null ? null : ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Generates a response from pieces of content, the last one with last=true, then ends a
     * completing message, and returns everything sent.
     */
    private static String respond(HttpGenerator generator, MetaData.Response info, boolean head, List<String> pieces) {
        StringBuilder wire = new StringBuilder();
        ByteBuffer header = ByteBuffer.allocate(1024);
        for (int i = 0; i < pieces.size(); i++) {
            ByteBuffer content = bytes(pieces.get(i));
            Result result = generator.generateResponse(i == 0 ? info : null, head, content, i == pieces.size() - 1, header);
            send(wire, result, header, content);
        }
        if (generator.getState() == State.COMPLETING) {
            send(wire, generator.generateResponse(null, head, null, true, header), header, null);
        }
        assertSame(State.END, generator.getState());
        return wire.toString();
    }

    private static String request(HttpGenerator generator, MetaData.Request info, List<String> pieces) {
        StringBuilder wire = new StringBuilder();
        ByteBuffer header = ByteBuffer.allocate(1024);
        for (int i = 0; i < pieces.size(); i++) {
            ByteBuffer content = bytes(pieces.get(i));
            Result result = generator.generateRequest(i == 0 ? info : null, content, i == pieces.size() - 1, header);
            send(wire, result, header, content);
        }
        if (generator.getState() == State.COMPLETING) {
            send(wire, generator.generateRequest(null, null, true, header), header, null);
        }
        assertSame(State.END, generator.getState());
        return wire.toString();
    }

    private static HttpFields fields(String... namesAndValues) {
        HttpFields.Mutable fields = HttpFields.build();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return fields;
    }

    private static MetaData.Response response(int status, HttpVersion version, HttpFields fields) {
        return new MetaData.Response(status, version, fields);
    }

    private static Arguments row(String name, Boolean persistentSet, MetaData.Response info, boolean head,
                                 List<String> pieces, String expected, boolean persistentAfter) {
        return Arguments.of(name, persistentSet, info, head, pieces, expected, persistentAfter);
    }

    static Stream<Arguments> responses() {
        HttpVersion v11 = HttpVersion.HTTP_1_1;
        HttpVersion v10 = HttpVersion.HTTP_1_0;
        return Stream.of(
                row("content and last: length computed", null,
                        response(200, v11, fields("Content-Type", "text/plain")), false, List.of("hello"), """
                        HTTP/1.1 200 OK\r
                        Content-Type: text/plain\r
                        Content-Length: 5\r
                        \r
                        hello""", true),
                row("no content and last: length 0", null,
                        response(404, v11, HttpFields.EMPTY), false, List.of(""), """
                        HTTP/1.1 404 Not Found\r
                        Content-Length: 0\r
                        \r
                        """, true),
                row("chunked across 3 writes with trailers", null,
                        new MetaData.Response(200, null, v11, HttpFields.EMPTY, -1, CHECKSUM_TRAILER), false,
                        List.of("abc", "abcdefghijklmnopqrstuvwxyz0", "xyz"), """
                        HTTP/1.1 200 OK\r
                        Transfer-Encoding: chunked\r
                        \r
                        3\r
                        abc\r
                        1b\r
                        abcdefghijklmnopqrstuvwxyz0\r
                        3\r
                        xyz\r
                        0\r
                        Checksum: 42\r
                        \r
                        """, true),
                row("chunked ending with an empty last, empty write skipped", null,
                        response(200, v11, HttpFields.EMPTY), false, List.of("ab", "", "c", ""), """
                        HTTP/1.1 200 OK\r
                        Transfer-Encoding: chunked\r
                        \r
                        2\r
                        ab\r
                        1\r
                        c\r
                        0\r
                        \r
                        """, true),
                row("trailers with a known length: chunked, length enforced, no Content-Length", null,
                        new MetaData.Response(200, null, v11, HttpFields.EMPTY, 4, CHECKSUM_TRAILER), false,
                        List.of("ab", "cd"), """
                        HTTP/1.1 200 OK\r
                        Transfer-Encoding: chunked\r
                        \r
                        2\r
                        ab\r
                        2\r
                        cd\r
                        0\r
                        Checksum: 42\r
                        \r
                        """, true),
                row("trailers are not sent in HTTP/1.0", true,
                        new MetaData.Response(200, null, v10, HttpFields.EMPTY, -1, CHECKSUM_TRAILER), false,
                        List.of("ab"), """
                        HTTP/1.0 200 OK\r
                        Connection: keep-alive\r
                        Content-Length: 2\r
                        \r
                        ab""", true),
                row("app-set Transfer-Encoding chunked with last is kept chunked", null,
                        response(200, v11, fields("Transfer-Encoding", "chunked")), false, List.of("hi"), """
                        HTTP/1.1 200 OK\r
                        Transfer-Encoding: chunked\r
                        \r
                        2\r
                        hi\r
                        0\r
                        \r
                        """, true),
                row("app-set codings before chunked are written as given", null,
                        response(200, v11, fields("Transfer-Encoding", "gzip, chunked")), false, List.of("hi"), """
                        HTTP/1.1 200 OK\r
                        Transfer-Encoding: gzip, chunked\r
                        \r
                        2\r
                        hi\r
                        0\r
                        \r
                        """, true),
                row("app-set Transfer-Encoding and Content-Length: chunked wins", null,
                        response(200, v11, fields("Content-Length", "2", "Transfer-Encoding", "chunked")), false,
                        List.of("hi"), """
                        HTTP/1.1 200 OK\r
                        Transfer-Encoding: chunked\r
                        \r
                        2\r
                        hi\r
                        0\r
                        \r
                        """, true),
                row("app-set Transfer-Encoding dropped in HTTP/1.0", null,
                        response(200, v10, fields("Transfer-Encoding", "chunked")), false, List.of("hi"), """
                        HTTP/1.0 200 OK\r
                        Content-Length: 2\r
                        \r
                        hi""", false),
                row("app-set Content-Length across writes, written once", null,
                        response(200, v11, fields("Content-Length", "4", "Content-Length", "4")), false,
                        List.of("ab", "cd"), """
                        HTTP/1.1 200 OK\r
                        Content-Length: 4\r
                        \r
                        abcd""", true),
                row("HEAD: length of the content a GET would send, no content", null,
                        response(200, v11, fields("Content-Type", "text/plain")), true, List.of("hello"), """
                        HTTP/1.1 200 OK\r
                        Content-Type: text/plain\r
                        Content-Length: 5\r
                        \r
                        """, true),
                row("HEAD: declared length kept, later content dropped", null,
                        response(200, v11, fields("Content-Length", "100")), true, List.of("", "more"), """
                        HTTP/1.1 200 OK\r
                        Content-Length: 100\r
                        \r
                        """, true),
                row("HEAD: unknown length, no framing fields", null,
                        response(200, v11, HttpFields.EMPTY), true, List.of("", ""), """
                        HTTP/1.1 200 OK\r
                        \r
                        """, true),
                row("204: no content, no Content-Length", null,
                        response(204, v11, fields("Content-Length", "10")), false, List.of("dropped"), """
                        HTTP/1.1 204 No Content\r
                        \r
                        """, true),
                // RFC 9110 section 15.3.6: a server MUST NOT generate content in a 205.
                row("205: content dropped, framed as empty", null,
                        response(205, v11, fields("Content-Length", "10")), false, List.of("dropped", ""), """
                        HTTP/1.1 205 Reset Content\r
                        Content-Length: 0\r
                        \r
                        """, true),
                row("304: no content, no Transfer-Encoding", null,
                        response(304, v11, fields("ETag", "\"x\"", "Transfer-Encoding", "chunked")), false,
                        List.of(""), """
                        HTTP/1.1 304 Not Modified\r
                        ETag: "x"\r
                        \r
                        """, true),
                row("HTTP/1.0 keep-alive", true,
                        response(200, v10, HttpFields.EMPTY), false, List.of("hi"), """
                        HTTP/1.0 200 OK\r
                        Connection: keep-alive\r
                        Content-Length: 2\r
                        \r
                        hi""", true),
                row("HTTP/1.0 keep-alive already set by the app, not repeated", true,
                        response(200, v10, fields("Connection", "keep-alive")), false, List.of("hi"), """
                        HTTP/1.0 200 OK\r
                        Connection: keep-alive\r
                        Content-Length: 2\r
                        \r
                        hi""", true),
                row("HTTP/1.0 not persistent: no Connection field", null,
                        response(200, v10, HttpFields.EMPTY), false, List.of("hi"), """
                        HTTP/1.0 200 OK\r
                        Content-Length: 2\r
                        \r
                        hi""", false),
                row("HTTP/1.0 unknown length: close-delimited, app keep-alive dropped", true,
                        response(200, v10, fields("Connection", "keep-alive")), false, List.of("ab", "cd", ""), """
                        HTTP/1.0 200 OK\r
                        \r
                        abcd""", false),
                row("app Connection: close is written once and ends persistence", true,
                        response(200, v11, fields("Connection", "close")), false, List.of("hi"), """
                        HTTP/1.1 200 OK\r
                        Connection: close\r
                        Content-Length: 2\r
                        \r
                        hi""", false),
                row("not persistent HTTP/1.1: Connection: close added", false,
                        response(200, v11, HttpFields.EMPTY), false, List.of("hi"), """
                        HTTP/1.1 200 OK\r
                        Connection: close\r
                        Content-Length: 2\r
                        \r
                        hi""", false),
                row("not persistent HTTP/1.1: app keep-alive replaced by close", false,
                        response(200, v11, fields("Connection", "keep-alive")), false, List.of("hi"), """
                        HTTP/1.1 200 OK\r
                        Connection: close\r
                        Content-Length: 2\r
                        \r
                        hi""", false),
                row("custom reason with CR LF and NUL sanitised", null,
                        new MetaData.Response(200, "Fine\r\nSet-Cookie: a=b\u0000", v11, HttpFields.EMPTY, 0, null),
                        false, List.of(""), """
                        HTTP/1.1 200 Fine  Set-Cookie: a=b \r
                        Content-Length: 0\r
                        \r
                        """, true),
                row("custom reason and unknown status", null,
                        new MetaData.Response(299, "Custom", v11, HttpFields.EMPTY, 0, null), false, List.of(""), """
                        HTTP/1.1 299 Custom\r
                        Content-Length: 0\r
                        \r
                        """, true),
                row("CR LF injected in values and names: no response splitting", null,
                        response(200, v11, fields(
                                "X-Test", "a\r\nSet-Cookie: evil=1",
                                "Location", "/x\n\rContent-Length: 0\r\n\r\nHTTP/1.1 200 OK",
                                "X-Bad\r\nName", "v\u0000w",
                                "X-Wide", "caf\u00e9 \u20ac")), false, List.of("ok"), """
                        HTTP/1.1 200 OK\r
                        X-Test: a  Set-Cookie: evil=1\r
                        Location: /x  Content-Length: 0    HTTP/1.1 200 OK\r
                        X-Bad__Name: v w\r
                        X-Wide: caf\u00e9 ?\r
                        Content-Length: 2\r
                        \r
                        ok""", true),
                row("pseudo-headers are not written", null,
                        response(200, v11, HttpFields.of(new HttpField(HttpHeader.C_STATUS, "200"))), false,
                        List.of(""), """
                        HTTP/1.1 200 OK\r
                        Content-Length: 0\r
                        \r
                        """, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("responses")
    void writesResponses(String name, Boolean persistentSet, MetaData.Response info, boolean head,
                         List<String> pieces, String expected, boolean persistentAfter) {
        HttpGenerator generator = new HttpGenerator();
        if (persistentSet != null) {
            generator.setPersistent(persistentSet);
        }
        assertEquals(expected, respond(generator, info, head, pieces));
        assertEquals(persistentAfter, generator.isPersistent());
    }

    @Test
    void addsDateAndServerFromOptionsUnlessTheResponseHasThem() {
        HttpField date = new PreEncodedHttpField(HttpHeader.DATE, "Sun, 06 Nov 1994 08:49:37 GMT");
        HttpField server = new PreEncodedHttpField(HttpHeader.SERVER, "wharf");
        HttpGenerator generator = new HttpGenerator(new HttpGenerator.Options(server, () -> date));
        MetaData.Response plain = response(200, HttpVersion.HTTP_1_1, HttpFields.EMPTY);
        assertEquals("""
                HTTP/1.1 200 OK\r
                Date: Sun, 06 Nov 1994 08:49:37 GMT\r
                Server: wharf\r
                Content-Length: 0\r
                \r
                """, respond(generator, plain, false, List.of("")));

        generator.reset();
        MetaData.Response own = response(200, HttpVersion.HTTP_1_1, fields("Server", "mine", "Date", "today"));
        assertEquals("""
                HTTP/1.1 200 OK\r
                Server: mine\r
                Date: today\r
                Content-Length: 0\r
                \r
                """, respond(generator, own, false, List.of("")));

        generator.reset();
        assertEquals("""
                HTTP/1.1 200 OK\r
                Date: Sun, 06 Nov 1994 08:49:37 GMT\r
                Server: wharf\r
                Content-Length: 0\r
                \r
                """, respond(generator, plain, false, List.of("")), "the previous response's own fields are forgotten");
    }

    @Test
    void optionsRefuseAServerFieldOfAnotherName() {
        assertThrows(IllegalArgumentException.class,
                () -> new HttpGenerator.Options(new HttpField("X-Server", "x"), null));
    }

    @Test
    void continueThenResponse() {
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer header = ByteBuffer.allocate(256);
        StringBuilder wire = new StringBuilder();
        Result result = generator.generateResponse(response(100, HttpVersion.HTTP_1_1, HttpFields.EMPTY),
                false, null, false, header);
        assertSame(Result.HEADER, result);
        assertSame(State.START, generator.getState());
        send(wire, result, header, null);
        wire.append(respond(generator, response(200, HttpVersion.HTTP_1_1, HttpFields.EMPTY), false, List.of("ok")));
        assertEquals("""
                HTTP/1.1 100 Continue\r
                \r
                HTTP/1.1 200 OK\r
                Content-Length: 2\r
                \r
                ok""", wire.toString());
    }

    @Test
    void earlyHintsThenResponse() {
        HttpField date = new PreEncodedHttpField(HttpHeader.DATE, "today");
        HttpGenerator generator = new HttpGenerator(new HttpGenerator.Options(null, () -> date));
        ByteBuffer header = ByteBuffer.allocate(256);
        StringBuilder wire = new StringBuilder();
        HttpFields hints = fields("Link", "</style.css>; rel=preload; as=style", "Link", "</app.js>; rel=preload; as=script");
        Result result = generator.generateResponse(response(103, HttpVersion.HTTP_1_1, hints), false, null, false, header);
        send(wire, result, header, null);
        assertFalse(generator.isCommitted());
        wire.append(respond(generator, response(200, HttpVersion.HTTP_1_1, fields("Link", "</style.css>; rel=preload")),
                false, List.of("ok")));
        assertEquals("""
                HTTP/1.1 103 Early Hints\r
                Link: </style.css>; rel=preload; as=style\r
                Link: </app.js>; rel=preload; as=script\r
                \r
                HTTP/1.1 200 OK\r
                Date: today\r
                Link: </style.css>; rel=preload\r
                Content-Length: 2\r
                \r
                ok""", wire.toString());
    }

    @Test
    void interimResponsesAreNotSentToHttp10() {
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer header = ByteBuffer.allocate(256);
        assertSame(Result.NOTHING, generator.generateResponse(
                response(100, HttpVersion.HTTP_1_0, HttpFields.EMPTY), false, null, false, header));
        assertEquals(0, header.position());
        assertSame(State.START, generator.getState());
        assertThrows(IllegalArgumentException.class, () -> generator.generateResponse(
                response(101, HttpVersion.HTTP_1_0, HttpFields.EMPTY), false, null, false, header));
    }

    @Test
    void switchingProtocolsEndsTheMessage() {
        HttpGenerator generator = new HttpGenerator();
        MetaData.Response upgrade = response(101, HttpVersion.HTTP_1_1,
                fields("Connection", "Upgrade", "Upgrade", "websocket", "Content-Length", "0"));
        assertEquals("""
                HTTP/1.1 101 Switching Protocols\r
                Connection: Upgrade\r
                Upgrade: websocket\r
                \r
                """, respond(generator, upgrade, false, List.of("")));
    }

    @Test
    void successfulConnectOpensATunnel() {
        HttpGenerator generator = new HttpGenerator();
        generator.setConnectRequest(true);
        String wire = respond(generator, response(200, HttpVersion.HTTP_1_1, HttpFields.EMPTY), false,
                List.of("", "raw tunnel bytes", ""));
        assertEquals("HTTP/1.1 200 OK\r\n\r\nraw tunnel bytes", wire);
        assertFalse(generator.isPersistent());
    }

    @Test
    void failedConnectIsAnOrdinaryResponse() {
        HttpGenerator generator = new HttpGenerator();
        generator.setConnectRequest(true);
        assertEquals("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n",
                respond(generator, response(403, HttpVersion.HTTP_1_1, HttpFields.EMPTY), false, List.of("")));
    }

    static Stream<Arguments> lengthViolations() {
        return Stream.of(
                Arguments.of("exceeded on the first call", 3L, List.of("abcd"), "content length 3 exceeded: 4 bytes given"),
                Arguments.of("exceeded on a later call", 3L, List.of("ab", "cd"), "content length 3 exceeded: 4 bytes given"),
                Arguments.of("not reached at last on the first call", 5L, List.of("abc"),
                        "content length 5 not reached: 3 bytes given at the last"),
                Arguments.of("not reached at a later last", 5L, List.of("ab", "c"),
                        "content length 5 not reached: 3 bytes given at the last"),
                Arguments.of("not reached with chunked trailers", -2L, List.of("ab", "c"),
                        "content length 4 not reached: 3 bytes given at the last"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lengthViolations")
    void declaredLengthIsEnforced(String name, long declared, List<String> pieces, String message) {
        MetaData.Response info = declared == -2
                ? new MetaData.Response(200, null, HttpVersion.HTTP_1_1, HttpFields.EMPTY, 4, CHECKSUM_TRAILER)
                : response(200, HttpVersion.HTTP_1_1, fields("Content-Length", Long.toString(declared)));
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer header = ByteBuffer.allocate(256);
        for (int i = 0; i < pieces.size() - 1; i++) {
            generator.generateResponse(i == 0 ? info : null, false, bytes(pieces.get(i)), false, header);
        }
        int position = header.position();
        State state = generator.getState();
        boolean first = pieces.size() == 1;
        IllegalStateException error = assertThrows(IllegalStateException.class, () -> generator.generateResponse(
                first ? info : null, false, bytes(pieces.get(pieces.size() - 1)), true, header));
        assertEquals(message, error.getMessage());
        assertEquals(position, header.position(), "header buffer changed by a failed call");
        assertSame(state, generator.getState());
    }

    @Test
    void headerOverflowWritesNothingAndTheSameCallSucceedsWithALargerBuffer() {
        MetaData.Response info = response(200, HttpVersion.HTTP_1_1,
                fields("Content-Type", "text/plain", "X-Long", "x".repeat(100)));
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer small = ByteBuffer.allocate(64);
        small.put((byte) '#');
        assertSame(Result.HEADER_OVERFLOW, generator.generateResponse(info, false, bytes("abc"), false, small));
        assertEquals(1, small.position());
        assertSame(State.START, generator.getState());

        ByteBuffer large = ByteBuffer.allocate(256);
        StringBuilder wire = new StringBuilder();
        ByteBuffer content = bytes("abc");
        send(wire, generator.generateResponse(info, false, content, false, large), large, content);

        // A chunk-size line that does not fit: overflow again, then fine.
        ByteBuffer tiny = ByteBuffer.allocate(3);
        ByteBuffer more = bytes("x".repeat(300));
        assertSame(Result.HEADER_OVERFLOW, generator.generateResponse(null, false, more, false, tiny));
        assertEquals(0, tiny.position());
        send(wire, generator.generateResponse(null, false, more, true, large), large, more);
        send(wire, generator.generateResponse(null, false, null, true, large), large, null);
        assertEquals("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Long: " + "x".repeat(100) + "\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n12c\r\n" + "x".repeat(300) + "\r\n0\r\n\r\n",
                wire.toString());
        assertTrue(generator.isEnd());
    }

    @Test
    void trailersAreAskedForOnceEvenWhenTheLastChunkOverflows() {
        AtomicInteger asked = new AtomicInteger();
        MetaData.Response info = new MetaData.Response(200, null, HttpVersion.HTTP_1_1, HttpFields.EMPTY, -1, () -> {
            asked.incrementAndGet();
            return HttpFields.of(new HttpField("Checksum", "42"));
        });
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer header = ByteBuffer.allocate(256);
        generator.generateResponse(info, false, bytes("ab"), false, header);
        header.clear();
        ByteBuffer tiny = ByteBuffer.allocate(8);
        assertSame(Result.HEADER_OVERFLOW, generator.generateResponse(null, false, null, true, tiny));
        assertSame(Result.HEADER, generator.generateResponse(null, false, null, true, header));
        header.flip();
        assertEquals("\r\n0\r\nChecksum: 42\r\n\r\n", StandardCharsets.ISO_8859_1.decode(header).toString());
        assertEquals(1, asked.get());
    }

    @Test
    void resultsSayWhatToSendAndWhatIsDropped() {
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer header = ByteBuffer.allocate(256);
        MetaData.Response info = response(200, HttpVersion.HTTP_1_1, fields("Content-Length", "4"));
        assertSame(Result.HEADER, generator.generateResponse(info, false, null, false, header));
        header.clear();
        assertSame(Result.CONTENT, generator.generateResponse(null, false, bytes("ab"), false, header));
        assertSame(Result.NOTHING, generator.generateResponse(null, false, bytes(""), false, header));
        assertSame(Result.CONTENT, generator.generateResponse(null, false, bytes("cd"), true, header));
        assertTrue(generator.isEnd());
        assertEquals(0, header.position());

        generator.reset();
        assertSame(Result.HEADER_CONTENT_DROPPED, generator.generateResponse(info, true, bytes("ab"), false, header));
        assertSame(Result.CONTENT_DROPPED, generator.generateResponse(null, true, bytes("cd"), true, header));
        assertTrue(Result.CONTENT_DROPPED.dropsContent());
        assertFalse(Result.HEADER_AND_CONTENT.dropsContent());
    }

    @Test
    void callsOutOfOrderAreRefused() {
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer header = ByteBuffer.allocate(256);
        MetaData.Response info = response(200, HttpVersion.HTTP_1_1, HttpFields.EMPTY);
        assertThrows(IllegalStateException.class, () -> generator.generateResponse(null, false, null, true, header));
        generator.generateResponse(info, false, null, false, header);
        generator.generateResponse(null, false, bytes("ab"), true, header);
        assertSame(State.COMPLETING, generator.getState());
        assertThrows(IllegalStateException.class, () -> generator.generateResponse(null, false, bytes("x"), true, header));
        assertThrows(IllegalStateException.class, () -> generator.generateResponse(null, false, null, false, header));
        assertThrows(IllegalStateException.class, () -> generator.generateResponse(info, false, null, true, header));
        assertThrows(IllegalStateException.class, () -> generator.setPersistent(true));
        generator.generateResponse(null, false, null, true, header);
        assertTrue(generator.isEnd());
        assertThrows(IllegalStateException.class, () -> generator.generateResponse(null, false, null, true, header));
    }

    static Stream<Arguments> badHeads() {
        return Stream.of(
                Arguments.of("HTTP/2 version", response(200, HttpVersion.HTTP_2, HttpFields.EMPTY)),
                Arguments.of("Content-Length not a number", new MetaData.Response(200, null, HttpVersion.HTTP_1_1,
                        fields("Content-Length", "1x"), -1, null)),
                Arguments.of("Content-Length fields disagree",
                        new MetaData.Response(200, null, HttpVersion.HTTP_1_1,
                                fields("Content-Length", "1", "Content-Length", "2"), -1, null)),
                Arguments.of("Transfer-Encoding not ending with chunked",
                        response(200, HttpVersion.HTTP_1_1, fields("Transfer-Encoding", "chunked, gzip"))),
                Arguments.of("empty field name", response(200, HttpVersion.HTTP_1_1,
                        HttpFields.of(new HttpField(null, "", "v")))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badHeads")
    void headsThatCannotBeWrittenAreRefusedWithoutWriting(String name, MetaData.Response info) {
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer header = ByteBuffer.allocate(256);
        assertThrows(IllegalArgumentException.class, () -> generator.generateResponse(info, false, null, true, header));
        assertEquals(0, header.position());
        assertSame(State.START, generator.getState());
    }

    static Stream<Arguments> requests() {
        HttpFields host = fields("Host", "example.com");
        return Stream.of(
                Arguments.of("GET without content: no Content-Length",
                        new MetaData.Request("GET", "/index.html?q=1", HttpVersion.HTTP_1_1,
                                fields("Host", "example.com", "Accept", "*/*")), List.of(""), """
                        GET /index.html?q=1 HTTP/1.1\r
                        Host: example.com\r
                        Accept: */*\r
                        \r
                        """),
                Arguments.of("POST with content and last: Content-Length",
                        new MetaData.Request("POST", "/form", HttpVersion.HTTP_1_1,
                                fields("Host", "example.com", "Content-Type", "text/plain")), List.of("a=b"), """
                        POST /form HTTP/1.1\r
                        Host: example.com\r
                        Content-Type: text/plain\r
                        Content-Length: 3\r
                        \r
                        a=b"""),
                Arguments.of("POST without content: Content-Length 0",
                        new MetaData.Request("POST", "/", HttpVersion.HTTP_1_1, host), List.of(""), """
                        POST / HTTP/1.1\r
                        Host: example.com\r
                        Content-Length: 0\r
                        \r
                        """),
                Arguments.of("POST with declared length and expect continue",
                        new MetaData.Request("POST", "/upload", HttpVersion.HTTP_1_1,
                                fields("Host", "h", "Expect", "100-continue", "Content-Length", "4")),
                        List.of("", "ab", "cd"), """
                        POST /upload HTTP/1.1\r
                        Host: h\r
                        Expect: 100-continue\r
                        Content-Length: 4\r
                        \r
                        abcd"""),
                Arguments.of("POST chunked",
                        new MetaData.Request("POST", "/stream", HttpVersion.HTTP_1_1, host), List.of("hello", "world!", ""), """
                        POST /stream HTTP/1.1\r
                        Host: example.com\r
                        Transfer-Encoding: chunked\r
                        \r
                        5\r
                        hello\r
                        6\r
                        world!\r
                        0\r
                        \r
                        """),
                Arguments.of("HTTP/1.0 request with its length",
                        new MetaData.Request("PUT", "/f", HttpVersion.HTTP_1_0, HttpFields.EMPTY), List.of("x"), """
                        PUT /f HTTP/1.0\r
                        Content-Length: 1\r
                        \r
                        x"""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void writesRequests(String name, MetaData.Request info, List<String> pieces, String expected) {
        assertEquals(expected, request(new HttpGenerator(), info, pieces));
    }

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("HTTP/1.1 without Host", new MetaData.Request("GET", "/", HttpVersion.HTTP_1_1, HttpFields.EMPTY)),
                Arguments.of("target with CR LF", new MetaData.Request("GET", "/a\r\nX: y", HttpVersion.HTTP_1_1,
                        fields("Host", "h"))),
                Arguments.of("target with a space", new MetaData.Request("GET", "/a b", HttpVersion.HTTP_1_1, fields("Host", "h"))),
                Arguments.of("method not a token", new MetaData.Request("GE T", "/", HttpVersion.HTTP_1_1, fields("Host", "h"))),
                Arguments.of("HTTP/1.0 content of unknown length",
                        new MetaData.Request("POST", "/", HttpVersion.HTTP_1_0, HttpFields.EMPTY)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void requestsThatCannotBeWrittenAreRefused(String name, MetaData.Request info) {
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer header = ByteBuffer.allocate(256);
        assertThrows(IllegalArgumentException.class, () -> generator.generateRequest(info, bytes("x"), false, header));
        assertEquals(0, header.position());
        assertSame(State.START, generator.getState());
    }

    @Test
    void requestWithConnectionCloseIsNotPersistent() {
        HttpGenerator generator = new HttpGenerator();
        request(generator, new MetaData.Request("GET", "/", HttpVersion.HTTP_1_1,
                fields("Host", "h", "Connection", "close")), List.of(""));
        assertFalse(generator.isPersistent());
    }

    @Test
    void resetReusesTheGeneratorForThreeMessages() {
        HttpGenerator generator = new HttpGenerator();
        StringBuilder wire = new StringBuilder();
        wire.append(respond(generator, response(200, HttpVersion.HTTP_1_1, HttpFields.EMPTY), false, List.of("a", "b")));
        assertTrue(generator.isPersistent());
        generator.reset();
        assertSame(State.START, generator.getState());
        generator.setPersistent(true);
        wire.append(respond(generator, response(404, HttpVersion.HTTP_1_1, fields("Content-Length", "1")), false,
                List.of("c")));
        generator.reset();
        generator.setPersistent(false);
        wire.append(respond(generator, response(200, HttpVersion.HTTP_1_1, HttpFields.EMPTY), true, List.of("")));
        assertFalse(generator.isPersistent());
        assertEquals("""
                HTTP/1.1 200 OK\r
                Transfer-Encoding: chunked\r
                \r
                1\r
                a\r
                1\r
                b\r
                0\r
                \r
                HTTP/1.1 404 Not Found\r
                Content-Length: 1\r
                \r
                cHTTP/1.1 200 OK\r
                Connection: close\r
                \r
                """, wire.toString());
    }

    @Test
    void directHeaderBufferGetsTheSameBytes() {
        HttpGenerator generator = new HttpGenerator();
        ByteBuffer header = ByteBuffer.allocateDirect(256);
        Result result = generator.generateResponse(response(200, HttpVersion.HTTP_1_1,
                fields("Content-Type", "text/plain", "X-A", "b")), false, bytes("hello"), true, header);
        StringBuilder wire = new StringBuilder();
        send(wire, result, header, bytes("hello"));
        assertEquals("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-A: b\r\nContent-Length: 5\r\n\r\nhello",
                wire.toString());
    }

    @Test
    void steadyStateResponsesAllocateNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM cannot count allocated bytes");
        HttpField date = new PreEncodedHttpField(HttpHeader.DATE, "Sun, 06 Nov 1994 08:49:37 GMT");
        HttpGenerator generator = new HttpGenerator(new HttpGenerator.Options(
                new PreEncodedHttpField(HttpHeader.SERVER, "wharf"), () -> date));
        MetaData.Response sized = new MetaData.Response(200, null, HttpVersion.HTTP_1_1, HttpFields.of(
                new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8"),
                new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-store"),
                new HttpField(HttpHeader.X_CONTENT_TYPE_OPTIONS, "nosniff")), 13, null);
        MetaData.Response streamed = new MetaData.Response(200, null, HttpVersion.HTTP_1_1, HttpFields.of(
                new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json")), -1, null);
        ByteBuffer content = bytes("Hello, World!");
        ByteBuffer header = ByteBuffer.allocateDirect(512);
        int responses = 10_000;
        long bytesWritten = generateResponses(generator, sized, streamed, content, header, 3 * responses);

        long before = threads.getCurrentThreadAllocatedBytes();
        bytesWritten += generateResponses(generator, sized, streamed, content, header, responses);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertTrue(bytesWritten > 0);
        assertTrue(allocated / responses < 16, allocated + " bytes allocated for " + responses + " responses");
    }

    /** Generates responses, alternately with a known length and chunked; returns the header bytes written. */
    private static long generateResponses(HttpGenerator generator, MetaData.Response sized, MetaData.Response streamed,
                                          ByteBuffer content, ByteBuffer header, int count) {
        long written = 0;
        for (int i = 0; i < count; i++) {
            generator.reset();
            generator.setPersistent(true);
            if ((i & 1) == 0) {
                generator.generateResponse(sized, false, content, true, header);
            } else {
                generator.generateResponse(streamed, false, content, false, header);
                generator.generateResponse(null, false, content, true, header);
                generator.generateResponse(null, false, null, true, header);
            }
            written += header.position();
            header.clear();
        }
        return written;
    }
}
