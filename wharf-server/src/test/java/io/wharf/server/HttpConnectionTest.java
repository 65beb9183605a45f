package io.wharf.server;

import static io.wharf.server.LocalServer.crlf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class HttpConnectionTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private LocalServer local;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    private LocalServer start(Handler handler) throws Exception {
        local = new LocalServer(leaks.pool()).start(handler);
        return local;
    }

    /** Answers "Hello" as text/plain, inline (never blocks). */
    private static Handler hello() {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            Response.write(response, true, "Hello", callback);
            return true;
        });
    }

    /** Answers with the method, path, query and content it read, blocking. */
    private static Handler echo() {
        return Handler.of((request, response, callback) -> {
            String content = Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20);
            String body = request.getMethod() + " " + request.getHttpURI().getPath()
                    + (request.getHttpURI().getQuery() == null ? "" : "?" + request.getHttpURI().getQuery())
                    + " [" + content + "]";
            HttpFields trailers = request.getTrailers();
            if (trailers != null) {
                body += " trailers=" + trailers.size();
            }
            Response.write(response, true, body, callback);
            return true;
        });
    }

    @Test
    void answersAGetWithContentLength() throws Exception {
        String response = start(hello()).get("""
                GET / HTTP/1.1
                Host: localhost

                """);
        assertEquals(crlf("""
                HTTP/1.1 200 OK
                Content-Type: text/plain
                Content-Length: 5

                Hello"""), response);
    }

    @Test
    void readsContentOfKnownLengthAndChunkedWithTrailers() throws Exception {
        start(echo());
        assertTrue(local.get("""
                POST /form?x=1 HTTP/1.1
                Host: localhost
                Content-Length: 11

                hello world""").endsWith("POST /form?x=1 [hello world]"));
        String chunked = local.get("""
                POST /upload HTTP/1.1
                Host: localhost
                Transfer-Encoding: chunked

                5
                hello
                6;name=value
                 world
                0
                X-Checksum: abc

                """);
        assertTrue(chunked.endsWith("POST /upload [hello world] trailers=1"), chunked);
    }

    @Test
    void beginAndHeaderTimesAreWhenTheirBytesWereRead() throws Exception {
        long[] seen = new long[3];
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            seen[0] = request.getBeginNanoTime();
            seen[1] = request.getHeadersNanoTime();
            seen[2] = System.nanoTime();
            Response.write(response, true, "ok", callback);
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            long before = System.nanoTime();
            client.send("GET /slow HTTP/1.1\r\nHost: h\r\n");
            Thread.sleep(300);
            client.send("User-Agent: late\r\n\r\n");
            assertTrue(client.readResponse(WAIT).endsWith("ok"));
            assertTrue(seen[0] >= before, "begins after the first bytes were sent");
            assertTrue(seen[1] - seen[0] >= java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(250),
                    "the head completed with the second read, " + (seen[1] - seen[0]) + " ns after the first");
            assertTrue(seen[2] >= seen[1], "the handler runs after the head was read");
        }
    }

    @Test
    void answersPipelinedRequestsInOrderOnOneConnection() throws Exception {
        start(echo());
        StringBuilder requests = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            requests.append("POST /").append(i).append(" HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\n").append(i % 10);
        }
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(requests.toString());
            for (int i = 0; i < 50; i++) {
                String response = client.readResponse(WAIT);
                assertTrue(response.endsWith("POST /" + i + " [" + (i % 10) + "]"), response);
            }
        }
    }

    @Test
    void streamsAResponseOfUnknownLengthChunked() throws Exception {
        String response = start(Handler.of((request, response1, callback) -> {
            try (OutputStream out = Response.asOutputStream(response1)) {
                out.write("first,".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                out.write("second".getBytes(StandardCharsets.US_ASCII));
            }
            callback.succeeded();
            return true;
        })).get("""
                GET /stream HTTP/1.1
                Host: localhost

                """);
        assertEquals(crlf("""
                HTTP/1.1 200 OK
                Transfer-Encoding: chunked

                6
                first,
                6
                second
                0

                """), response);
    }

    @Test
    void headResponsesHaveTheHeadButNoContent() throws Exception {
        start(hello());
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf("""
                    HEAD / HTTP/1.1
                    Host: localhost

                    GET / HTTP/1.1
                    Host: localhost

                    """));
            assertEquals(crlf("""
                    HTTP/1.1 200 OK
                    Content-Type: text/plain
                    Content-Length: 5

                    """), client.readResponse(WAIT, true));
            assertTrue(client.readResponse(WAIT).endsWith("\r\n\r\nHello"));
        }
    }

    @Test
    void closesAfterConnectionCloseAndAfterHttp10WithoutKeepAlive() throws Exception {
        start(hello());
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf("""
                    GET / HTTP/1.1
                    Host: localhost
                    Connection: close

                    """));
            String response = client.readUntilClosed(WAIT);
            assertTrue(response.contains("Connection: close\r\n"), response);
        }
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send("GET / HTTP/1.0\r\n\r\n");
            String response = client.readUntilClosed(WAIT);
            assertTrue(response.startsWith("HTTP/1.0 200 OK\r\n"), response);
            assertTrue(response.endsWith("Hello"), response);
        }
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            String response = client.readResponse(WAIT);
            assertTrue(response.contains("Connection: keep-alive\r\n"), response);
            client.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            assertTrue(client.readResponse(WAIT).endsWith("Hello"));
        }
    }

    @Test
    void sendsContinueOnlyWhenTheHandlerReads() throws Exception {
        start(echo());
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf("""
                    POST /upload HTTP/1.1
                    Host: localhost
                    Expect: 100-continue
                    Content-Length: 4

                    """));
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", client.readResponse(WAIT));
            client.send("data");
            assertTrue(client.readResponse(WAIT).endsWith("POST /upload [data]"));
        }
    }

    @Test
    void answersNotFoundWhenNoHandlerTakesTheRequestAndServerErrorWhenOneThrows() throws Exception {
        start(Handler.of((request, response, callback) -> {
            if (request.getHttpURI().getPath().equals("/boom")) {
                throw new IllegalStateException("secret detail");
            }
            return false;
        }));
        String notFound = local.get("GET /nothing HTTP/1.1\nHost: h\nAccept: text/plain\n\n");
        assertTrue(notFound.startsWith("HTTP/1.1 404 Not Found\r\n"), notFound);
        String error = local.get("GET /boom HTTP/1.1\nHost: h\nAccept: application/json\n\n");
        assertTrue(error.startsWith("HTTP/1.1 500 Internal Server Error\r\n"), error);
        assertTrue(error.contains("application/json"), error);
        assertFalse(error.contains("secret detail"), error);
    }

    @Test
    void aBadRequestIsAnsweredAndWhatFollowsItIsNeverParsed() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            handled.incrementAndGet();
            callback.succeeded();
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf("""
                    POST / HTTP/1.1
                    Host: localhost
                    Content-Length: +10

                    GET /smuggled HTTP/1.1
                    Host: localhost

                    """));
            String response = client.readUntilClosed(WAIT);
            assertTrue(response.startsWith("HTTP/1.1 400 Bad Request\r\n"), response);
            assertTrue(response.contains("Connection: close\r\n"), response);
            assertEquals(1, response.split("HTTP/1.1 ").length - 1, response);
        }
        assertEquals(0, handled.get());
    }

    @Test
    void aHandlerCanCompleteLaterOnAnotherThread() throws Exception {
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            new Thread(() -> Response.write(response, true, "later", callback)).start();
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertTrue(client.readResponse(WAIT).endsWith("later"));
            assertTrue(client.readResponse(WAIT).endsWith("later"));
        }
    }

    @Test
    void blockingHandlersReadWithAnInputStream() throws Exception {
        start(Handler.of((request, response, callback) -> {
            try (InputStream in = Request.asInputStream(request)) {
                byte[] all = in.readAllBytes();
                Response.write(response, true, "read " + all.length, callback);
            }
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n");
            client.send("x".repeat(100_000));
            assertTrue(client.readResponse(WAIT).endsWith("read 100000"));
        }
    }

    @Test
    void unreadContentIsSkippedOrTheConnectionCloses() throws Exception {
        start(hello());
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nabcdeGET / HTTP/1.1\r\nHost: h\r\n\r\n");
            assertTrue(client.readResponse(WAIT).endsWith("Hello"));
            assertTrue(client.readResponse(WAIT).endsWith("Hello"));
        }
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1000000\r\n\r\nabcde");
            String response = client.readUntilClosed(WAIT);
            assertTrue(response.contains("Connection: close\r\n"), response);
        }
    }
}
