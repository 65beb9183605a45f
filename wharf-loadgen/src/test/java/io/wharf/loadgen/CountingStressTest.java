package io.wharf.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The counters under concurrency: four sending threads, eight users each, trees of five
 * resources fetched in parallel, responses on the client's threads, intervals closing meanwhile —
 * and every count still exact, every histogram holding every response, nothing left in flight.
 */
@Timeout(120)
class CountingStressTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private static final Resource TREE = Resource.of("/", Resource.of("/a", Resource.of("/a1"), Resource.of("/a2")), Resource.of("/b"));

    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"HTTP_1_1", "H2C"})
    void everyCountIsExact(Protocol protocol) throws Exception {
        AtomicLong trees = new AtomicLong();
        AtomicLong responses = new AtomicLong();
        try (DelayingHandler answers = new DelayingHandler(path -> 0);
             LoadTestServer server = new LoadTestServer(leaks.pool(), answers.handler())) {
            LoadResult result = LoadGenerator.builder(URI.create(server.uri("/")))
                    .protocol(protocol)
                    .threads(4)
                    .usersPerThread(8)
                    .connectionsPerUser(protocol == Protocol.HTTP_1_1 ? 3 : 1)
                    .resource(TREE)
                    .rate(1_000)
                    .warmupIterations(200)
                    .iterations(2_000)
                    .reportInterval(Duration.ofMillis(50))
                    .listener(new LoadListener() {
                        @Override
                        public void onResponse(ResponseEvent event) {
                            if (!event.warmup()) {
                                responses.incrementAndGet();
                            }
                        }

                        @Override
                        public void onTree(TreeEvent event) {
                            if (!event.warmup()) {
                                trees.incrementAndGet();
                            }
                        }
                    })
                    .build()
                    .run();
            assertEquals(0, result.errors(), () -> "errors: " + result.errorsByKind() + " " + result.errorExamples());
            assertEquals(2_000, result.iterations());
            assertEquals(2_000 * 5, result.requests());
            assertEquals(2_200 * 5, answers.requests.get());
            assertEquals(2_000 * 5, responses.get());
            assertEquals(2_000, trees.get());
            assertEquals(2_000, result.trees().getTotalCount());
            assertEquals(2_000 * 5, result.corrected().getTotalCount());
            assertEquals(2_000 * 5, result.uncorrected().getTotalCount());
            long inIntervals = result.intervals().stream().mapToLong(LoadListener.IntervalReport::requests).sum();
            assertEquals(2_000 * 5, inIntervals, "the intervals' counts add up");
            for (ResourceStatistics resource : result.resources().values()) {
                assertEquals(2_000, resource.requests(), resource.path());
                assertEquals(2_000, resource.latency().getTotalCount(), resource.path());
            }
        }
    }
}
