package io.wharf.server.handler;

import static io.wharf.server.handler.GzipServer.crlf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpHeader;
import io.wharf.io.Content;
import io.wharf.server.Handler;
import io.wharf.server.LocalConnector;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.handler.GzipServer.Reply;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SizeLimitHandlerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private GzipServer local;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    private void start(long maxRequest, long maxResponse, Handler child) throws Exception {
        local = new GzipServer(leaks.pool()).start(new SizeLimitHandler(maxRequest, maxResponse, child));
    }

    /** Echoes the content it read, blocking. */
    private static Handler echo(AtomicBoolean ran) {
        return Handler.of((request, response, callback) -> {
            ran.set(true);
            String content = Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            Response.write(response, true, "[" + content + "]", callback);
            return true;
        });
    }

    private static String chunked(int chunks, int size) {
        StringBuilder request = new StringBuilder("POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < chunks; i++) {
            request.append(Integer.toHexString(size)).append("\r\n").append("x".repeat(size)).append("\r\n");
        }
        return request.append("0\r\n\r\n").toString();
    }

    @Test
    void passesContentWithinTheLimits() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        start(10, 12, echo(ran));
        Reply reply = local.get("""
                POST / HTTP/1.1
                Host: localhost
                Content-Length: 10

                0123456789""");
        assertEquals(200, reply.status());
        assertEquals("[0123456789]", reply.text());
        assertEquals("[xxxxxxxxxx]", Reply.parse(local.connector.getResponse(chunked(2, 5))).text());
    }

    @Test
    void answersAContentLengthOverTheLimitWith413WithoutRunningTheChild() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        start(10, -1, echo(ran));
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf("""
                    POST / HTTP/1.1
                    Host: localhost
                    Content-Length: 11

                    0123456789A"""));
            Reply reply = Reply.parse(client.readResponse(WAIT));
            assertEquals(413, reply.status());
            // The content was refused, not read, so the connection does not carry another request.
            assertEquals("close", reply.field("Connection"));
        }
        assertFalse(ran.get());
    }

    @Test
    void answersChunkedContentOverTheLimitWith413() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        start(10, -1, echo(ran));
        Reply reply = Reply.parse(local.connector.getResponse(chunked(3, 5)));
        assertEquals(413, reply.status());
        assertTrue(ran.get());
    }

    @Test
    void givesTheChildA413FailureChunkAndAnswers413WhenItDoesNotCommit() throws Exception {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        start(10, -1, Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            new Object() {
                void readAll() {
                    while (true) {
                        Content.Chunk chunk = request.read();
                        if (chunk == null) {
                            request.demand(this::readAll);
                            return;
                        }
                        chunk.release();
                        if (chunk.getFailure() != null) {
                            seen.set(chunk.getFailure());
                            // Swallows the failure and succeeds without writing.
                            callback.succeeded();
                            return;
                        }
                        if (chunk.isLast()) {
                            Response.write(response, true, "all read", callback);
                            return;
                        }
                    }
                }
            }.readAll();
            return true;
        }));
        Reply reply = Reply.parse(local.connector.getResponse(chunked(4, 4)));
        assertEquals(413, reply.status());
        BadMessageException failure = assertInstanceOf(BadMessageException.class, seen.get());
        assertEquals(413, failure.getStatus());
    }

    @Test
    void answersAResponseOverTheLimitWith500() throws Exception {
        AtomicReference<Throwable> writeFailure = new AtomicReference<>();
        start(-1, 10, Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            // Ignores the failed write and succeeds: the handler answers 500 all the same.
            Response.write(response, true, "eleven char", Callback.from(callback::succeeded, failure -> {
                writeFailure.set(failure);
                callback.succeeded();
            }));
            return true;
        }));
        Reply reply = local.get("""
                GET / HTTP/1.1
                Host: localhost

                """);
        assertEquals(500, reply.status());
        assertFalse(reply.text().contains("eleven char"));
        assertNotNull(writeFailure.get());
        assertTrue(writeFailure.get().getMessage().contains("larger than 10 bytes"), writeFailure.get().getMessage());
    }

    @Test
    void answersADeclaredLengthOverTheLimitWith500() throws Exception {
        start(-1, 10, Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 100);
            response.write(false, ByteBuffer.wrap(new byte[5]), callback);
            return true;
        }));
        assertEquals(500, local.get("""
                GET / HTTP/1.1
                Host: localhost

                """).status());
    }

    @Test
    void abortsACommittedResponseThatGoesOverTheLimit() throws Exception {
        start(-1, 10, Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            Response.write(response, false, "12345678", Callback.from(
                    () -> Response.write(response, true, "9abc", callback), callback::failed));
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf("""
                    GET / HTTP/1.1
                    Host: localhost

                    """));
            String raw = client.readUntilClosed(WAIT);
            assertTrue(raw.startsWith("HTTP/1.1 200 OK"), raw);
            assertTrue(raw.contains("12345678"), raw);
            assertFalse(raw.contains("9abc"), raw);
            // Chunked and cut short: no terminating chunk, so the client cannot take it as complete.
            assertFalse(raw.endsWith("0\r\n\r\n"), raw);
        }
    }

    @Test
    void rejectsLimitsBelowMinusOne() {
        assertThrows(IllegalArgumentException.class, () -> new SizeLimitHandler(-2, 0));
        assertThrows(IllegalArgumentException.class, () -> new SizeLimitHandler(0, -2));
    }
}
