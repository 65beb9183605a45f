package io.wharf.server;

import static io.wharf.server.LocalServer.crlf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;
import io.wharf.io.Content;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How an exchange ends: the one rule that turns a failed request content into the answer,
 * whatever the handler then does, and the connection's one response writer shared by many
 * writes from many threads.
 */
class ExchangeCompletionTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String BAD_CHUNK = crlf("""
            POST / HTTP/1.1
            Host: h
            Transfer-Encoding: chunked

            zz
            """);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private LocalServer local;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    /** What a handler does after reading a content that failed. */
    enum AfterFailure {
        SUCCEEDS, FAILS_WITH_ANOTHER_CAUSE, THROWS
    }

    @ParameterizedTest
    @EnumSource(AfterFailure.class)
    void aBadChunkIsAnsweredWith400WhateverTheHandlerDoesWithoutCommitting(AfterFailure after) throws Exception {
        local = new LocalServer(leaks.pool()).start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Content.Chunk chunk = readUntilFailureOrEnd(request);
            assertTrue(chunk.getFailure() instanceof BadMessageException, String.valueOf(chunk.getFailure()));
            switch (after) {
                case SUCCEEDS -> callback.succeeded();
                case FAILS_WITH_ANOTHER_CAUSE -> callback.failed(new IllegalStateException("gave up"));
                case THROWS -> throw new IllegalStateException("gave up");
            }
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(BAD_CHUNK);
            String response = client.readUntilClosed(WAIT);
            assertTrue(response.startsWith("HTTP/1.1 400 Bad Request\r\n"), response);
            assertTrue(response.contains("Connection: close\r\n"), response);
        }
    }

    @Test
    void aWrapperThatFailsTheContentIsAnsweredWithItsStatus() throws Exception {
        BadMessageException tooLarge = new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413, "content over the wrapper's limit");
        local = new LocalServer(leaks.pool()).start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Request wrapper = new Request.Wrapper(request);
            // A wrapper limiting the content reports its failure to the request it wraps.
            wrapper.fail(tooLarge);
            callback.succeeded();
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc");
            String response = client.readUntilClosed(WAIT);
            assertTrue(response.startsWith("HTTP/1.1 413 Content Too Large\r\n"), response);
            assertTrue(response.contains("content over the wrapper"), response);
        }
    }

    @Test
    void aResponseCommittedBeforeTheFailureStandsAndTheConnectionCloses() throws Exception {
        local = new LocalServer(leaks.pool()).start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.write(false, java.nio.ByteBuffer.wrap("partial".getBytes()), Callback.from(() -> {
                readUntilFailureOrEnd(request);
                callback.succeeded();
            }, callback::failed));
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(BAD_CHUNK);
            String response = client.readUntilClosed(WAIT);
            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
            assertEquals(1, response.split("HTTP/1.1 ").length - 1, response);
        }
    }

    @Test
    void contentReadAfterTheExchangeEndedFailsAndNeverTakesTheNextRequestsBytes() throws Exception {
        java.util.concurrent.CompletableFuture<Request> first = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.atomic.AtomicInteger handled = new java.util.concurrent.atomic.AtomicInteger();
        local = new LocalServer(leaks.pool()).start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            if (handled.incrementAndGet() == 1) {
                first.complete(request);
                Response.write(response, true, "first", callback);
                return true;
            }
            // The first request's handler reads again while this second request is being handled.
            Content.Chunk late = first.getNow(null).read();
            String outcome = late == null ? "null" : late.getFailure() != null ? "failed"
                    : late.isLast() && !late.hasRemaining() ? "its end" : "bytes";
            if (late != null) {
                late.release();
            }
            Response.write(response, true, "second saw " + outcome, callback);
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nPOST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nabcde");
            assertTrue(client.readResponse(WAIT).endsWith("first"));
            String second = client.readResponse(WAIT);
            // Its own end again, or a failure: never the second request's content.
            assertTrue(second.endsWith("second saw its end") || second.endsWith("second saw failed"), second);
        }
    }

    /**
     * Many connections, each with pipelined requests whose handler writes its body in many
     * small writes, every next write started from the previous write's callback on whatever
     * thread completed it: the connection's one response writer must frame every body whole
     * and in order, and leak no buffer.
     */
    @Test
    void chainedWritesFromCompletionThreadsShareTheConnectionsWriterSafely() throws Exception {
        int pieces = 50;
        ExecutorService elsewhere = Executors.newFixedThreadPool(4);
        local = new LocalServer(leaks.pool()).start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            String name = request.getHttpURI().getPath().substring(1);
            new ChainedWrites(response, callback, name, pieces, elsewhere).next();
            return true;
        }));
        int connections = 16;
        int requests = 20;
        ExecutorService clients = Executors.newFixedThreadPool(connections);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                int connection = c;
                done.add(clients.submit(() -> {
                    try (LocalConnector.Client client = local.connector.connect()) {
                        StringBuilder pipeline = new StringBuilder();
                        for (int r = 0; r < requests; r++) {
                            pipeline.append("GET /c").append(connection).append('r').append(r).append(" HTTP/1.1\r\nHost: h\r\n\r\n");
                        }
                        client.send(pipeline.toString());
                        for (int r = 0; r < requests; r++) {
                            String response = client.readResponse(WAIT);
                            String name = "c" + connection + "r" + r;
                            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
                            assertEquals((name + ";").repeat(pieces), dechunk(response), response);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get();
            }
        } finally {
            clients.shutdownNow();
            elsewhere.shutdownNow();
        }
    }

    /** Writes {@code name;} {@code pieces} times, alternating the thread each next write starts on. */
    private record ChainedWrites(Response response, Callback callback, String name, int pieces, ExecutorService elsewhere,
                                 int[] written) implements Callback {
        ChainedWrites(Response response, Callback callback, String name, int pieces, ExecutorService elsewhere) {
            this(response, callback, name, pieces, elsewhere, new int[1]);
        }

        void next() {
            int count = ++written[0];
            boolean last = count == pieces;
            response.write(last, java.nio.ByteBuffer.wrap((name + ";").getBytes()), last ? callback : this);
        }

        @Override
        public void succeeded() {
            if (written[0] % 2 == 0) {
                elsewhere.execute(this::next);
            } else {
                next();
            }
        }

        @Override
        public void failed(Throwable cause) {
            callback.failed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }

    /** @return the body of a chunked response, its framing checked */
    private static String dechunk(String response) {
        assertTrue(response.contains("Transfer-Encoding: chunked\r\n"), response);
        int at = response.indexOf("\r\n\r\n") + 4;
        StringBuilder body = new StringBuilder();
        while (true) {
            int lineEnd = response.indexOf("\r\n", at);
            int size = Integer.parseInt(response.substring(at, lineEnd), 16);
            at = lineEnd + 2;
            if (size == 0) {
                assertEquals("\r\n", response.substring(at), response);
                return body.toString();
            }
            body.append(response, at, at + size);
            at += size;
            assertEquals("\r\n", response.substring(at, at + 2), response);
            at += 2;
        }
    }

    private static Content.Chunk readUntilFailureOrEnd(Request request) {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                throw new AssertionError("the bad chunk should have been read at once");
            }
            chunk.release();
            if (chunk.getFailure() != null || chunk.isLast()) {
                return chunk;
            }
        }
    }
}
