package io.wharf.server.handler.log;

import static io.wharf.server.handler.RoutingServer.WAIT;
import static io.wharf.server.handler.RoutingServer.content;
import static io.wharf.server.handler.RoutingServer.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.handler.CompletionCounter;
import io.wharf.server.handler.PathMappingsHandler;
import io.wharf.server.handler.RoutingServer;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class NcsaRequestLogTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-10-10T13:55:36Z"), ZoneOffset.ofHours(2));

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private RoutingServer local;
    private CompletionCounter completions;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    /** A line and the name of the thread that wrote it. */
    private record Written(String line, String thread) {
    }

    /** An output collecting lines with their writing thread. */
    private static final class Collecting implements RequestLogOutput {
        final BlockingQueue<Written> lines = new LinkedBlockingQueue<>();

        @Override
        public void write(String line) {
            lines.add(new Written(line, Thread.currentThread().getName()));
        }

        Written next() throws InterruptedException {
            Written written = lines.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (written == null) {
                throw new AssertionError("no line written within " + WAIT);
            }
            return written;
        }
    }

    /** Answers "Hello" inline, telling the thread that handled. */
    private static Handler hello(AtomicReference<String> handlingThread) {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            handlingThread.set(Thread.currentThread().getName());
            Response.write(response, true, "Hello", callback);
            return true;
        });
    }

    private void start(RequestLog log, Handler handler) throws Exception {
        completions = new CompletionCounter(new RequestLogHandler(log, handler));
        local = new RoutingServer(leaks.pool()).start(completions);
    }

    @Test
    void formatsTheCombinedFormatExactly() throws Exception {
        NcsaRequestLog ncsa = new NcsaRequestLog(new Collecting(), 16, CLOCK);
        AtomicReference<String> line = new AtomicReference<>();
        // Format on the request thread with a known duration, as log() does with the real one.
        start((request, response, outcome) -> line.set(ncsa.format(request,
                new RequestLog.Outcome(outcome.status(), outcome.bytesWritten(), 12_345_678, null))), hello(new AtomicReference<>()));
        local.get("""
                GET /index.html?q=1 HTTP/1.1
                Host: example.com
                Referer: https://example.com/start
                User-Agent: curl/8.5.0

                """);
        completions.await(1, WAIT);
        assertEquals("- - - [10/Oct/2025:15:55:36 +0200] \"GET /index.html?q=1 HTTP/1.1\" 200 5 "
                + "\"https://example.com/start\" \"curl/8.5.0\" 12", line.get());
    }

    @Test
    void logsEveryRequestThroughTheWriterThreadIncludingNotFound() throws Exception {
        Collecting output = new Collecting();
        AtomicReference<String> handlingThread = new AtomicReference<>();
        PathMappingsHandler routes = new PathMappingsHandler();
        routes.addMapping("/hello", hello(handlingThread));
        NcsaRequestLog ncsa = new NcsaRequestLog(output, 16, CLOCK);
        start(ncsa, routes);
        assertTrue(ncsa.isStarted(), "the log starts with its handler");

        assertEquals("Hello", content(local.get("h", "/hello")));
        Written hello = output.next();
        assertTrue(hello.line().matches("- - - \\[10/Oct/2025:15:55:36 \\+0200] \"GET /hello HTTP/1\\.1\" 200 5 \"-\" \"-\" \\d+"),
                hello.line());
        assertTrue(hello.thread().startsWith("wharf-request-log-"), hello.thread());
        assertNotEquals(handlingThread.get(), hello.thread());

        assertEquals(404, status(local.get("h", "/nothing")));
        Written notFound = output.next();
        assertTrue(notFound.line().contains("\"GET /nothing HTTP/1.1\" 404 "), notFound.line());

        local.close();
        local = null;
        assertTrue(ncsa.isStopped(), "the log stops with its handler");
        assertEquals(2, ncsa.getWritten());
        assertEquals(0, ncsa.getDropped());
    }

    @Test
    void escapesQuotesBackslashesAndNonPrintableBytesOfPeerFields() throws Exception {
        Collecting output = new Collecting();
        start(new NcsaRequestLog(output, 16, CLOCK), hello(new AtomicReference<>()));
        local.connector.getResponse("GET /x HTTP/1.1\r\nHost: h\r\n"
                + "User-Agent: evil\" 200 \"injected\\\r\n"
                + "Referer: a\tb\u00e9\r\n\r\n");
        String line = output.next().line();
        assertTrue(line.contains(" \"a\\x09b\\xE9\" \"evil\\\" 200 \\\"injected\\\\\" "), line);
        assertTrue(line.chars().allMatch(c -> c >= 0x20 && c <= 0x7E), line);
    }

    @Test
    void escapingNeverLetsALineBreakOrOverlongValueThrough() {
        StringBuilder out = new StringBuilder();
        NcsaRequestLog.appendEscaped(out, "a\r\nb\u0000\u007f\u2028\"\\");
        assertEquals("a\\x0D\\x0Ab\\x00\\x7F\\xE2\\x80\\xA8\\\"\\\\", out.toString());

        out.setLength(0);
        NcsaRequestLog.appendEscaped(out, null);
        NcsaRequestLog.appendEscaped(out, "");
        assertEquals("--", out.toString());

        out.setLength(0);
        NcsaRequestLog.appendEscaped(out, "x".repeat(NcsaRequestLog.MAX_FIELD_LENGTH + 10));
        assertEquals("x".repeat(NcsaRequestLog.MAX_FIELD_LENGTH) + "...", out.toString());
    }

    @Test
    void dropsAndCountsWhenTheQueueIsFullWithoutBlockingTheRequest() throws Exception {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Collecting collected = new Collecting();
        RequestLogOutput stuck = line -> {
            writing.countDown();
            try {
                if (!release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new AssertionError("never released");
                }
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
            collected.write(line);
        };
        NcsaRequestLog ncsa = new NcsaRequestLog(stuck, 2, CLOCK);
        ncsa.start();
        try {
            start(ncsa, hello(new AtomicReference<>()));
            assertEquals("Hello", content(local.get("h", "/first")));
            completions.await(1, WAIT);
            assertTrue(writing.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "the writer took the first line");
            for (int i = 0; i < 5; i++) {
                assertEquals("Hello", content(local.get("h", "/more/" + i)));
                completions.await(1, WAIT); // in order: the next request is logged after this one
            }
            assertEquals(3, ncsa.getDropped(), "two lines queued, three dropped");
        } finally {
            release.countDown();
            ncsa.stop();
        }
        assertEquals(3, ncsa.getWritten());
        assertTrue(collected.next().line().contains("/first"));
        assertTrue(collected.next().line().contains("/more/0"));
        assertTrue(collected.next().line().contains("/more/1"));
        assertNull(collected.lines.poll());
    }

    @Test
    void dropsWhenNotRunning() throws Exception {
        NcsaRequestLog ncsa = new NcsaRequestLog(new Collecting(), 2, CLOCK);
        // Started here, the log is not managed by the handler: stopping it leaves the server running.
        ncsa.start();
        start(ncsa, hello(new AtomicReference<>()));
        ncsa.stop();
        assertEquals("Hello", content(local.get("h", "/late")));
        completions.await(1, WAIT);
        assertEquals(1, ncsa.getDropped());
    }

    @Test
    void writesToAFileAndToOneFilePerDay(@TempDir Path directory) throws Exception {
        Path single = directory.resolve("logs/access.log");
        try (RequestLogOutput file = RequestLogOutput.file(single)) {
            file.write("one");
            file.write("two");
            file.flush();
        }
        assertEquals(List.of("one", "two"), Files.readAllLines(single, StandardCharsets.UTF_8));

        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2025-10-10T23:59:59Z"));
        Clock clock = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
        try (RequestLogOutput daily = RequestLogOutput.dailyFiles(directory, "access", clock)) {
            daily.write("friday");
            now.set(now.get().plus(Duration.ofSeconds(1)));
            daily.write("saturday");
        }
        assertEquals(List.of("friday"), Files.readAllLines(directory.resolve("access-2025_10_10.log")));
        assertEquals(List.of("saturday"), Files.readAllLines(directory.resolve("access-2025_10_11.log")));
    }
}
