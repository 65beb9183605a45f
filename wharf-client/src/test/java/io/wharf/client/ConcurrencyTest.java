package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Many exchanges at once: none lost, none completed twice, the pool bound held, no buffer leaked. */
@Timeout(120)
class ConcurrencyTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private TestServer server;
    private HttpClient client;
    private final Set<Integer> remotePorts = ConcurrentHashMap.newKeySet();

    /** Answers the request's path, without blocking. */
    private Handler echoPath() {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            remotePorts.add(io.wharf.server.Request.getRemotePort(request));
            io.wharf.server.Response.write(response, true, request.getHttpURI().getPath(), callback);
            return true;
        });
    }

    private void start(Handler handler) throws Exception {
        server = loopback.server(handler);
        client = loopback.client();
    }

    /** Records each exchange's completions by request path. */
    private static final class Tally implements Response.Listener {
        final Map<String, AtomicInteger> completions = new ConcurrentHashMap<>();
        final Map<String, String> failures = new ConcurrentHashMap<>();
        final CountDownLatch remaining;

        Tally(int count) {
            remaining = new CountDownLatch(count);
        }

        Response.Listener forRequest() {
            StringBuilder content = new StringBuilder();
            return new Response.Listener() {
                @Override
                public void onContent(Response response, io.wharf.io.Content.Chunk chunk, Runnable demand) {
                    content.append(StandardCharsets.UTF_8.decode(chunk.getByteBuffer()));
                    demand.run();
                }

                @Override
                public void onComplete(Result result) {
                    String path = result.request().getPath();
                    completions.computeIfAbsent(path, key -> new AtomicInteger()).incrementAndGet();
                    if (result.isFailed()) {
                        failures.put(path, String.valueOf(result.getFailure()));
                    } else if (!content.toString().equals(path)) {
                        failures.put(path, "content " + content);
                    }
                    remaining.countDown();
                }
            };
        }
    }

    @Test
    void tenThousandConcurrentRequestsOverSixtyFourConnections() throws Exception {
        start(echoPath());
        int count = 10_000;
        client.setMaxRequestsQueuedPerDestination(count);
        Tally tally = new Tally(count);
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            client.newRequest(server.uri("/" + i)).send(tally.forRequest());
        }
        assertTrue(tally.remaining.await(90, TimeUnit.SECONDS), tally.remaining.getCount() + " exchanges never completed");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(Map.of(), tally.failures);
        assertEquals(count, tally.completions.size());
        assertTrue(tally.completions.values().stream().allMatch(c -> c.get() == 1), "each exchange completes exactly once");
        assertTrue(remotePorts.size() <= 64, remotePorts.size() + " connections");
        Destination destination = client.getDestinations().get(0);
        assertTrue(destination.getConnectionCount() <= 64);
        assertEquals(0, destination.getQueuedRequestCount());
        System.out.printf("%d requests over %d connections in %d ms%n", count, remotePorts.size(), millis);
    }

    @Test
    void manyThreadsSendAndAbortAtRandom() throws Exception {
        start(echoPath());
        client.setMaxConnectionsPerDestination(8);
        int threads = 16;
        int perThread = 300;
        client.setMaxRequestsQueuedPerDestination(threads * perThread);
        Tally tally = new Tally(threads * perThread);
        ExecutorService senders = Executors.newFixedThreadPool(threads);
        AtomicInteger aborted = new AtomicInteger();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(senders.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        Request request = client.newRequest(server.uri("/" + thread + "-" + i));
                        request.send(tally.forRequest());
                        int dice = ThreadLocalRandom.current().nextInt(4);
                        if (dice == 0) {
                            if (request.abort(new IOException("abort " + thread + "-" + i))) {
                                aborted.incrementAndGet();
                            }
                        } else if (dice == 1) {
                            Thread.yield();
                            if (request.abort(new IOException("late abort"))) {
                                aborted.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            senders.shutdownNow();
        }
        assertTrue(tally.remaining.await(60, TimeUnit.SECONDS), tally.remaining.getCount() + " exchanges never completed");
        assertEquals(threads * perThread, tally.completions.size());
        assertTrue(tally.completions.values().stream().allMatch(c -> c.get() == 1), "each exchange completes exactly once");
        // Every failure is an abort this test made; everything else succeeded with its own content.
        tally.failures.values().forEach(failure -> assertTrue(failure.contains("abort"), failure));
        assertEquals(aborted.get(), tally.failures.size());
        // The client still works, with no connection left in a bad state.
        assertEquals("/after", client.GET(server.uri("/after")).getContentAsString());
        assertTrue(client.getDestinations().get(0).getConnectionCount() <= 8);
    }

    @Test
    void totalTimeoutsRacingResponsesCompleteEachExchangeOnce() throws Exception {
        start(echoPath());
        int count = 2000;
        client.setMaxRequestsQueuedPerDestination(count);
        Tally tally = new Tally(count);
        for (int i = 0; i < count; i++) {
            client.newRequest(server.uri("/" + i))
                    .timeout(java.time.Duration.ofMillis(1 + ThreadLocalRandom.current().nextInt(5)))
                    .send(tally.forRequest());
        }
        assertTrue(tally.remaining.await(60, TimeUnit.SECONDS), tally.remaining.getCount() + " exchanges never completed");
        assertEquals(count, tally.completions.size());
        assertTrue(tally.completions.values().stream().allMatch(c -> c.get() == 1), "each exchange completes exactly once");
        tally.failures.values().forEach(failure -> assertTrue(failure.contains("total timeout of"), failure));
        assertEquals("/after", client.GET(server.uri("/after")).getContentAsString());
    }

    @Test
    void sequentialBlockingSendsFromManyThreads() throws Exception {
        start(echoPath());
        client.setMaxConnectionsPerDestination(4);
        ExecutorService senders = Executors.newFixedThreadPool(12);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 12; t++) {
                int thread = t;
                done.add(senders.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        String path = "/" + thread + "/" + i;
                        assertEquals(path, client.GET(server.uri(path)).getContentAsString());
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            senders.shutdownNow();
        }
        assertTrue(remotePorts.size() <= 4, remotePorts.size() + " connections");
    }
}
