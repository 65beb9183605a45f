package io.wharf.server;

import static io.wharf.server.LocalServer.crlf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How the server frames the responses handlers write, as exact bytes. Each row is a raw
 * request, what the handler does, and the whole response. The runner sends the request twice
 * on one connection, then ends its input, and reads everything until the server closes: a
 * {@link After#KEEP_ALIVE} row must be answered twice, byte for byte the same; a
 * {@link After#CLOSE} row exactly once — which also proves nothing (no padding, no stray
 * terminating chunk, no second status line) follows the response.
 */
class HttpResponseFramingTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** A GET whose error page is plain text. */
    private static final String GET_PLAIN = """
            GET / HTTP/1.1
            Host: localhost
            Accept: text/plain

            """;

    /** The server's plain-text 500 page (its content ends lines with a bare LF) on a closing connection. */
    private static final String PLAIN_500 = crlf("""
            HTTP/1.1 500 Internal Server Error
            Content-Type: text/plain;charset=utf-8
            Cache-Control: must-revalidate,no-cache,no-store
            Connection: close
            Content-Length: 48

            """) + "500 Internal Server Error\nInternal Server Error\n";

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private LocalServer local;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    /** What the connection does after the row's response. */
    enum After {
        /** The second copy of the request is answered the same way. */
        KEEP_ALIVE,
        /** The server closes after the first response. */
        CLOSE
    }

    /** What a row's handler does, on a pool thread (it may block). */
    @FunctionalInterface
    interface Behaviour {
        void answer(Request request, Response response) throws Exception;
    }

    static Stream<Arguments> responses() {
        String get = """
                GET / HTTP/1.1
                Host: localhost

                """;
        return Stream.of(
                // RFC 9112 section 6.3 rule 6: the whole content in one write is delimited by its length.
                row("one last write: Content-Length", get,
                        (request, response) -> write(response, true, "Hello"),
                        """
                        HTTP/1.1 200 OK
                        Content-Length: 5

                        Hello""", After.KEEP_ALIVE),
                // RFC 9112 section 7.1: chunk sizes in hex, the last chunk is 0 CRLF then the empty line.
                row("several writes: chunked, sizes in hex", get,
                        (request, response) -> {
                            write(response, false, "abc");
                            write(response, false, "0123456789abcdefg");
                            write(response, true, "z");
                        },
                        """
                        HTTP/1.1 200 OK
                        Transfer-Encoding: chunked

                        3
                        abc
                        11
                        0123456789abcdefg
                        1
                        z
                        0

                        """, After.KEEP_ALIVE),
                row("an empty last write after content ends the chunks", get,
                        (request, response) -> {
                            write(response, false, "abc");
                            write(response, true, "");
                        },
                        """
                        HTTP/1.1 200 OK
                        Transfer-Encoding: chunked

                        3
                        abc
                        0

                        """, After.KEEP_ALIVE),
                // An empty write commits the head; an empty chunk would end the content (RFC 9112 section 7.1), so none is sent.
                row("an empty first write commits without an empty chunk", get,
                        (request, response) -> {
                            write(response, false, "");
                            write(response, true, "abc");
                        },
                        """
                        HTTP/1.1 200 OK
                        Transfer-Encoding: chunked

                        3
                        abc
                        0

                        """, After.KEEP_ALIVE),
                // A redirect keeps what the handler set (a login's cookie) but not what described content.
                row("sendRedirect keeps Set-Cookie, drops the content's headers", get,
                        (request, response) -> {
                            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html");
                            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 10);
                            response.getHeaders().put(HttpHeader.SET_COOKIE, "session=ann; Path=/");
                            CompletableFuture<Void> done = new CompletableFuture<>();
                            Response.sendRedirect(request, response, Callback.from(done),
                                    303, "/account");
                            done.get();
                        },
                        """
                        HTTP/1.1 303 See Other
                        Set-Cookie: session=ann; Path=/
                        Location: /account
                        Content-Length: 0

                        """, After.KEEP_ALIVE),
                row("the handler completes without writing: Content-Length 0", get,
                        (request, response) -> { },
                        """
                        HTTP/1.1 200 OK
                        Content-Length: 0

                        """, After.KEEP_ALIVE),
                row("Content-Length set by the handler and written in two parts", get,
                        (request, response) -> {
                            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 10);
                            write(response, false, "hello");
                            write(response, true, "world");
                        },
                        """
                        HTTP/1.1 200 OK
                        Content-Length: 10

                        helloworld""", After.KEEP_ALIVE),
                // RFC 9112 section 6.3 and 8: a message shorter than its Content-Length is incomplete; the
                // server cannot take the head back, so it must close: the client then sees an
                // incomplete response, never a complete one nor the next response in its place.
                // Nothing was sent when the one last write breaks the handler's own Content-Length:
                // the server can still answer 500 (and close) rather than drop the connection silently.
                exactRow("Content-Length 10 but one last write of 5: 500 and close", GET_PLAIN,
                        (request, response) -> {
                            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 10);
                            write(response, true, "hello");
                        },
                        PLAIN_500, After.CLOSE),
                exactRow("Content-Length 3 but one last write of 5: 500 and close", GET_PLAIN,
                        (request, response) -> {
                            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 3);
                            write(response, true, "hello");
                        },
                        PLAIN_500, After.CLOSE),
                row("Content-Length 10 but 5 bytes written: close after them", get,
                        (request, response) -> {
                            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 10);
                            write(response, false, "hello");
                        },
                        """
                        HTTP/1.1 200 OK
                        Content-Length: 10

                        hello""", After.CLOSE),
                // More than declared must never reach the client: the extra bytes would be read as
                // the start of the next response (response splitting).
                row("Content-Length 5 and then 6 more bytes: close, the extra never sent", get,
                        (request, response) -> {
                            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 5);
                            write(response, false, "hello");
                            write(response, true, "HTTP/1");
                        },
                        """
                        HTTP/1.1 200 OK
                        Content-Length: 5

                        hello""", After.CLOSE),
                // RFC 9112 section 7.1.2: trailer fields follow the last chunk.
                row("trailers after chunks", get,
                        (request, response) -> {
                            response.setTrailersSupplier(() -> HttpFields.build().add("X-Checksum", "abc").add("X-Count", "2"));
                            write(response, false, "ab");
                            write(response, true, "cd");
                        },
                        """
                        HTTP/1.1 200 OK
                        Transfer-Encoding: chunked

                        2
                        ab
                        2
                        cd
                        0
                        X-Checksum: abc
                        X-Count: 2

                        """, After.KEEP_ALIVE),
                // Trailers need chunked framing, so even one last write is chunked.
                row("trailers with one last write: still chunked", get,
                        (request, response) -> {
                            response.setTrailersSupplier(() -> HttpFields.build().add("X-Checksum", "abc"));
                            write(response, true, "hello");
                        },
                        """
                        HTTP/1.1 200 OK
                        Transfer-Encoding: chunked

                        5
                        hello
                        0
                        X-Checksum: abc

                        """, After.KEEP_ALIVE),
                // HTTP/1.0 has no chunked coding, so no trailers: they are dropped (RFC 9112 section 7.1.2, 7).
                row("trailers to an HTTP/1.0 client are dropped", """
                        GET / HTTP/1.0
                        Connection: keep-alive

                        """,
                        (request, response) -> {
                            response.setTrailersSupplier(() -> HttpFields.build().add("X-Checksum", "abc"));
                            write(response, true, "hello");
                        },
                        """
                        HTTP/1.0 200 OK
                        Connection: keep-alive
                        Content-Length: 5

                        hello""", After.KEEP_ALIVE),
                // RFC 9110 sections 8.6 and 15.3.5: a 204 has no content and MUST NOT carry Content-Length.
                row("204: no content and no Content-Length even when the handler writes and sets one", get,
                        (request, response) -> {
                            response.setStatus(204);
                            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
                            write(response, true, "dropped");
                        },
                        """
                        HTTP/1.1 204 No Content

                        """, After.KEEP_ALIVE),
                row("204 written in parts: no chunked framing either", get,
                        (request, response) -> {
                            response.setStatus(204);
                            write(response, false, "dropped");
                            write(response, true, "too");
                        },
                        """
                        HTTP/1.1 204 No Content

                        """, After.KEEP_ALIVE),
                // RFC 9110 section 15.3.6: no content in a 205, and Content-Length: 0 so the client
                // does not read until the connection closes.
                row("205: content dropped, Content-Length: 0", get,
                        (request, response) -> {
                            response.setStatus(205);
                            write(response, false, "dropped");
                            write(response, true, "too");
                        },
                        """
                        HTTP/1.1 205 Reset Content
                        Content-Length: 0

                        """, After.KEEP_ALIVE),
                // RFC 9110 sections 8.6 and 15.4.5: a 304 has no content; a Content-Length there may only be the
                // 200's length, so the server never invents Content-Length: 0.
                row("304: no content, no Content-Length: 0", """
                        GET / HTTP/1.1
                        Host: localhost
                        If-None-Match: "v1"

                        """,
                        (request, response) -> {
                            response.setStatus(304);
                            response.getHeaders().put(HttpHeader.ETAG, "\"v1\"");
                        },
                        """
                        HTTP/1.1 304 Not Modified
                        ETag: "v1"

                        """, After.KEEP_ALIVE),
                // RFC 9110 section 9.3.2: HEAD gets the head a GET would get, without content.
                row("HEAD: the GET's Content-Length, no content", """
                        HEAD / HTTP/1.1
                        Host: localhost

                        """,
                        (request, response) -> write(response, true, "Hello"),
                        """
                        HTTP/1.1 200 OK
                        Content-Length: 5

                        """, After.KEEP_ALIVE),
                // Written in parts the length is unknown when the head goes: no framing field at all,
                // and no chunk bytes after it (RFC 9112 section 6.3 rule 1: a HEAD response ends with its head).
                row("HEAD answered in parts: no content, no chunks", """
                        HEAD / HTTP/1.1
                        Host: localhost

                        """,
                        (request, response) -> {
                            write(response, false, "Hel");
                            write(response, true, "lo");
                        },
                        """
                        HTTP/1.1 200 OK

                        """, After.KEEP_ALIVE),
                // RFC 9110 section 15.2: any number of interim responses may precede the final one.
                row("103 Early Hints before the final response", get,
                        (request, response) -> {
                            CompletableFuture<Void> sent = new CompletableFuture<>();
                            response.writeInterim(103, HttpFields.build().add(HttpHeader.LINK, "</style.css>; rel=preload"), Callback.from(sent));
                            sent.get();
                            write(response, true, "ok");
                        },
                        """
                        HTTP/1.1 103 Early Hints
                        Link: </style.css>; rel=preload

                        HTTP/1.1 200 OK
                        Content-Length: 2

                        ok""", After.KEEP_ALIVE),
                // RFC 9110 section 15.2: a server must not send a 1xx response to an HTTP/1.0 client.
                row("103 to an HTTP/1.0 client is not sent", """
                        GET / HTTP/1.0
                        Connection: keep-alive

                        """,
                        (request, response) -> {
                            CompletableFuture<Void> sent = new CompletableFuture<>();
                            response.writeInterim(103, HttpFields.build().add(HttpHeader.LINK, "</style.css>; rel=preload"), Callback.from(sent));
                            sent.get();
                            write(response, true, "ok");
                        },
                        """
                        HTTP/1.0 200 OK
                        Connection: keep-alive
                        Content-Length: 2

                        ok""", After.KEEP_ALIVE),
                // RFC 9112 section 6.3 rule 8 and 9.3: HTTP/1.0 without keep-alive; content of unknown
                // length is delimited by the close, never chunked.
                row("HTTP/1.0 in parts: delimited by close, not chunked", """
                        GET / HTTP/1.0

                        """,
                        (request, response) -> {
                            write(response, false, "first,");
                            write(response, true, "second");
                        },
                        """
                        HTTP/1.0 200 OK

                        first,second""", After.CLOSE),
                // RFC 9112 section 9.3: an HTTP/1.0 keep-alive answer says keep-alive and has a length.
                row("HTTP/1.0 keep-alive: Connection: keep-alive and Content-Length", """
                        GET / HTTP/1.0
                        Connection: keep-alive

                        """,
                        (request, response) -> write(response, true, "Hello"),
                        """
                        HTTP/1.0 200 OK
                        Connection: keep-alive
                        Content-Length: 5

                        Hello""", After.KEEP_ALIVE),
                // Keep-alive asked, but content of unknown length to HTTP/1.0 can only end at the close:
                // the answer must not say keep-alive.
                row("HTTP/1.0 keep-alive answered in parts: close-delimited, no keep-alive", """
                        GET / HTTP/1.0
                        Connection: keep-alive

                        """,
                        (request, response) -> {
                            write(response, false, "first,");
                            write(response, true, "second");
                        },
                        """
                        HTTP/1.0 200 OK

                        first,second""", After.CLOSE),
                // RFC 9112 section 6.1: chunked is HTTP/1.1 only; a Transfer-Encoding the handler set is not sent to HTTP/1.0.
                row("Transfer-Encoding: chunked set by the handler for an HTTP/1.0 client is dropped", """
                        GET / HTTP/1.0
                        Connection: keep-alive

                        """,
                        (request, response) -> {
                            response.getHeaders().put(HttpHeader.TRANSFER_ENCODING, "chunked");
                            write(response, true, "Hello");
                        },
                        """
                        HTTP/1.0 200 OK
                        Connection: keep-alive
                        Content-Length: 5

                        Hello""", After.KEEP_ALIVE),
                // RFC 9112 section 9.6: a sender of close closes after the message.
                row("Connection: close from the handler closes after the response", get,
                        (request, response) -> {
                            response.getHeaders().put(HttpHeader.CONNECTION, "close");
                            write(response, true, "bye");
                        },
                        """
                        HTTP/1.1 200 OK
                        Connection: close
                        Content-Length: 3

                        bye""", After.CLOSE),
                // RFC 9112 section 7.1: an aborted chunked response must not end with the last chunk,
                // or the client would take the part for the whole. Nothing else follows either.
                row("throws after committing: close, no last chunk, no second status line", get,
                        (request, response) -> {
                            write(response, false, "partial");
                            throw new IllegalStateException("handler failed after commit");
                        },
                        """
                        HTTP/1.1 200 OK
                        Transfer-Encoding: chunked

                        7
                        partial""", After.CLOSE),
                exactRow("throws before committing: 500 and close", """
                        GET / HTTP/1.1
                        Host: localhost
                        Accept: text/plain

                        """,
                        (request, response) -> {
                            response.getHeaders().put("X-Lost", "set before the failure");
                            throw new IllegalStateException("handler failed before commit");
                        },
                        PLAIN_500, After.CLOSE));
    }

    /** @param expected the response, byte for byte */
    private static Arguments exactRow(String name, String request, Behaviour behaviour, String expected, After after) {
        return Arguments.of(name, request, behaviour, expected, after);
    }

    /** @param expected the response with \n for every CR LF */
    private static Arguments row(String name, String request, Behaviour behaviour, String expected, After after) {
        return Arguments.of(name, request, behaviour, crlf(expected), after);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("responses")
    void framesTheResponse(String name, String request, Behaviour behaviour, String expected, After after) throws Exception {
        start(behaviour);
        String answer = exchangeTwice(request);
        assertEquals(after == After.KEEP_ALIVE ? expected + expected : expected, answer, name);
    }

    @Test
    void aResponseHeadLargerThanTheHeaderBufferGrowsIt() throws Exception {
        String value = "v".repeat(1000);
        start((request, response) -> {
            for (int i = 0; i < 20; i++) {
                response.getHeaders().add("X-Field-" + i, value);
            }
            write(response, true, "ok");
        });
        StringBuilder expected = new StringBuilder("HTTP/1.1 200 OK\n");
        for (int i = 0; i < 20; i++) {
            expected.append("X-Field-").append(i).append(": ").append(value).append('\n');
        }
        expected.append("Content-Length: 2\n\nok");
        String once = crlf(expected.toString());
        assertEquals(once + once, exchangeTwice("GET / HTTP/1.1\nHost: localhost\n\n"));
    }

    /**
     * A head that cannot be written within the most the server spends on one (64 KiB):
     * nothing of it was sent, so the server can still answer 500, and closes.
     */
    @Test
    void aResponseHeadBeyondTheLimitIsA500() throws Exception {
        String value = "v".repeat(1000);
        start((request, response) -> {
            for (int i = 0; i < 70; i++) {
                response.getHeaders().add("X-Field-" + i, value);
            }
            write(response, true, "ok");
        });
        assertEquals(PLAIN_500, exchangeTwice(GET_PLAIN));
    }

    private void start(Behaviour behaviour) throws Exception {
        local = new LocalServer(leaks.pool()).start(Handler.of((request, response, callback) -> {
            behaviour.answer(request, response);
            callback.succeeded();
            return true;
        }));
    }

    /** Sends {@code request} twice on one connection, ends the input, and returns all the server sent until it closed. */
    private String exchangeTwice(String request) throws Exception {
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf(request) + crlf(request));
            client.shutdownOutput();
            return client.readUntilClosed(WAIT);
        }
    }

    /** Writes {@code text} and waits until the write completed; throws what failed it. */
    private static void write(Response response, boolean last, String text) throws Exception {
        CompletableFuture<Void> written = new CompletableFuture<>();
        response.write(last, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), Callback.from(written));
        try {
            written.get();
        } catch (ExecutionException failed) {
            throw new IllegalStateException("write failed: " + failed.getCause().getMessage(), failed.getCause());
        }
    }
}
