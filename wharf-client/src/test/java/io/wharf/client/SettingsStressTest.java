package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import io.wharf.client.transport.ClientSettings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Setters called at once from many threads: once they are all done, the published settings
 * snapshot holds every last value, none lost to a snapshot taken by another setter at the same
 * moment.
 */
@Timeout(60)
class SettingsStressTest {

    @Test
    void concurrentSettersLoseNoValue() throws Exception {
        int rounds = 200;
        int iterations = 2_000;
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < rounds; round++) {
                HttpClient client = new HttpClient();
                CountDownLatch go = new CountDownLatch(1);
                List<IntConsumer> setters = List.of(
                        client::setMaxRedirects,
                        i -> client.setUserAgent("agent-" + i),
                        client::setMaxResponseContentBytes,
                        i -> client.setIdleTimeout(Duration.ofMillis(i)));
                List<Future<?>> done = new ArrayList<>();
                for (IntConsumer setter : setters) {
                    done.add(threads.submit(() -> {
                        go.await();
                        for (int i = 1; i <= iterations; i++) {
                            setter.accept(i);
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> each : done) {
                    each.get(30, TimeUnit.SECONDS);
                }
                ClientSettings settings = client.getSettings();
                assertEquals(iterations, settings.maxRedirects(), "round " + round);
                assertEquals("agent-" + iterations, settings.userAgent(), "round " + round);
                assertEquals(iterations, settings.maxResponseContentBytes(), "round " + round);
                assertEquals(Duration.ofMillis(iterations), settings.idleTimeout(), "round " + round);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
