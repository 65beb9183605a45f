package io.wharf.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.wharf.http.HostPort;
import io.wharf.http.HttpURI;
import io.wharf.http.UriCompliance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One memory shared by many threads, as an HTTP/2 connection's is by the threads that run its
 * streams' handlers: whatever a thread gets back was made from exactly the inputs it asked with,
 * never another thread's URI or a half-written one.
 */
@Timeout(60)
class UriMemoryStressTest {

    private static final int THREADS = 8;
    private static final int ROUNDS = 200_000;

    @Test
    void everyAnswerMatchesTheInputsAskedWith() throws Exception {
        UriMemory memory = new UriMemory();
        List<HostPort> authorities = List.of(HostPort.of("a.example", 80), HostPort.of("b.example", 8080));
        List<String> schemes = List.of("http", "https");
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Integer>> hits = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                hits.add(threads.submit(() -> {
                    start.await();
                    int found = 0;
                    for (int i = 0; i < ROUNDS; i++) {
                        String target = "/t" + ((thread + i) % 3);
                        HostPort authority = authorities.get(i % 2);
                        String scheme = schemes.get((i / 2) % 2);
                        HttpURI uri = memory.get(target, authority, scheme, UriCompliance.DEFAULT);
                        if (uri == null) {
                            memory.put(target, authority, scheme, UriCompliance.DEFAULT, HttpURI.parse(target, scheme, authority));
                        } else {
                            found++;
                            assertEquals(target, uri.getPath());
                            assertEquals(authority.getHost(), uri.getHost());
                            assertEquals(authority.getPort(), uri.getPort());
                            assertEquals(scheme, uri.getScheme());
                        }
                    }
                    return found;
                }));
            }
            start.countDown();
            int found = 0;
            for (Future<Integer> hit : hits) {
                found += hit.get(50, TimeUnit.SECONDS);
            }
            assertTrue(found > 0, "no thread ever found a remembered URI: the test proves nothing");
        } finally {
            threads.shutdownNow();
        }
    }
}
