package io.wharf.server.handler;

import static io.wharf.server.handler.RoutingServer.WAIT;
import static io.wharf.server.handler.RoutingServer.content;
import static io.wharf.server.handler.RoutingServer.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.wharf.http.HttpStatus;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The counters are updated when a request's callback completes, which may be just after the
 * client read the response; the tests wait for the {@link CompletionCounter} above the
 * statistics handler before reading them.
 */
class StatisticsHandlerTest {

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

    /** /ok answers "hello"; /missing 404; /boom throws; /fail fails its callback; /echo returns the body; /pass passes. */
    private static Handler routes(CyclicBarrier barrier) {
        return Handler.of((request, response, callback) -> {
            switch (request.getPathInContext()) {
                case "/ok" -> Response.write(response, true, "hello", callback);
                case "/missing" -> Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404, null);
                case "/boom" -> throw new IllegalStateException("boom");
                case "/fail" -> callback.failed(new IllegalStateException("failed"));
                case "/echo" -> Response.write(response, true, Request.getContentAsString(request, StandardCharsets.UTF_8, 1024), callback);
                case "/wait" -> {
                    barrier.await(WAIT.toSeconds(), TimeUnit.SECONDS);
                    Response.write(response, true, "waited", callback);
                }
                default -> {
                    return false;
                }
            }
            return true;
        });
    }

    private StatisticsHandler start(CyclicBarrier barrier) throws Exception {
        StatisticsHandler statistics = new StatisticsHandler(routes(barrier));
        completions = new CompletionCounter(statistics);
        local = new RoutingServer(leaks.pool()).start(completions);
        return statistics;
    }

    /** Waits until {@code requests} requests have passed through the statistics handler. */
    private void awaitCompleted(int requests) throws InterruptedException {
        completions.await(requests, WAIT);
    }

    @Test
    void countsRequestsAndResponsesByStatusClass() throws Exception {
        StatisticsHandler statistics = start(null);
        for (int i = 0; i < 5; i++) {
            assertEquals("hello", content(local.get("h", "/ok")));
        }
        assertEquals(404, status(local.get("h", "/missing")));
        assertEquals(500, status(local.get("h", "/boom")));
        assertEquals(500, status(local.get("h", "/fail")));
        assertEquals(404, status(local.get("h", "/pass")));
        awaitCompleted(9);

        assertEquals(9, statistics.getRequests());
        assertEquals(1, statistics.getRequestsNotTaken());
        assertEquals(0, statistics.getRequestsActive());
        assertTrue(statistics.getRequestsActiveMax() >= 1);
        assertEquals(0, statistics.getResponses(1));
        assertEquals(5, statistics.getResponses(2));
        assertEquals(0, statistics.getResponses(3));
        assertEquals(1, statistics.getResponses(4));
        assertEquals(2, statistics.getResponses(5));
        assertEquals(8, statistics.getResponses());
        assertEquals(2, statistics.getFailures());
        assertTrue(statistics.getRequestTimeMax().compareTo(statistics.getRequestTimeMean()) >= 0);
        assertTrue(statistics.getRequestTimeMean().compareTo(Duration.ZERO) > 0);
        assertTrue(statistics.toString().contains("requests=9"), statistics.toString());
        assertThrows(IllegalArgumentException.class, () -> statistics.getResponses(6));
    }

    @Test
    void countsContentBytesReadAndWritten() throws Exception {
        StatisticsHandler statistics = start(null);
        for (int i = 0; i < 2; i++) {
            String response = local.get("""
                    POST /echo HTTP/1.1
                    Host: h
                    Content-Length: 11

                    hello world""");
            assertEquals("hello world", content(response));
        }
        assertEquals("hello", content(local.get("h", "/ok")));
        awaitCompleted(3);
        assertEquals(22, statistics.getBytesRead());
        assertEquals(27, statistics.getBytesWritten());
    }

    @Test
    void resetStartsANewPeriod() throws Exception {
        StatisticsHandler statistics = start(null);
        assertEquals("hello", content(local.get("h", "/ok")));
        awaitCompleted(1);
        statistics.reset();
        assertEquals(0, statistics.getRequests());
        assertEquals(0, statistics.getResponses());
        assertEquals(0, statistics.getBytesWritten());
        assertEquals(0, statistics.getRequestsActiveMax());
        assertEquals(Duration.ZERO, statistics.getRequestTimeMean());
        assertEquals(Duration.ZERO, statistics.getRequestTimeMax());
    }

    @Test
    void countsMaxActiveWhenRequestsOverlap() throws Exception {
        int parties = 4;
        CyclicBarrier barrier = new CyclicBarrier(parties);
        StatisticsHandler statistics = start(barrier);
        ExecutorService clients = Executors.newFixedThreadPool(parties);
        try {
            List<Future<String>> responses = new ArrayList<>();
            for (int i = 0; i < parties; i++) {
                responses.add(clients.submit(() -> local.get("h", "/wait")));
            }
            for (Future<String> response : responses) {
                assertEquals("waited", content(response.get(WAIT.toSeconds(), TimeUnit.SECONDS)));
            }
        } finally {
            clients.shutdownNow();
        }
        awaitCompleted(parties);
        assertEquals(parties, statistics.getRequestsActiveMax());
        assertEquals(0, statistics.getRequestsActive());
    }

    @Test
    void manyRequestsFromSeveralThreadsSumExactly() throws Exception {
        StatisticsHandler statistics = start(null);
        int threads = 4;
        int perThread = 50;
        ExecutorService clients = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                runs.add(clients.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        String path = (i % 10 == id) ? "/missing" : "/ok";
                        String response = local.get("h", path);
                        if (path.equals("/ok") && !"hello".equals(content(response))) {
                            throw new AssertionError(response);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(WAIT.toSeconds() * 3, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        awaitCompleted(threads * perThread);
        // Each thread sends /missing when i % 10 == its id: 5 of its 50 requests.
        long missing = threads * (perThread / 10);
        assertEquals(threads * perThread, statistics.getRequests());
        assertEquals(threads * perThread - missing, statistics.getResponses(2));
        assertEquals(missing, statistics.getResponses(4));
        assertEquals((threads * perThread - missing) * 5, statistics.getBytesWritten() - missing * notFoundPageBytes());
        assertEquals(0, statistics.getRequestsActive());
    }

    /** @return the content bytes of one 404 page, measured on a server of its own */
    private long notFoundPageBytes() throws Exception {
        StatisticsHandler probe = new StatisticsHandler(routes(null));
        CompletionCounter probeCompletions = new CompletionCounter(probe);
        RoutingServer other = new RoutingServer(leaks.pool()).start(probeCompletions);
        try {
            assertEquals(404, status(other.get("h", "/missing")));
            probeCompletions.await(1, WAIT);
        } finally {
            other.close();
        }
        assertTrue(probe.getBytesWritten() > 0);
        return probe.getBytesWritten();
    }
}
