package io.wharf.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The closed model: users back to back, warm-up excluded, think time between iterations. */
@Timeout(60)
class ClosedModelTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @Test
    void usersRunTheirIterationsBackToBack() throws Exception {
        try (DelayingHandler answers = new DelayingHandler(path -> 0);
             LoadTestServer server = new LoadTestServer(leaks.pool(), answers.handler())) {
            LoadResult result = LoadGenerator.builder(URI.create(server.uri("/closed")))
                    .model(Model.CLOSED)
                    .threads(2)
                    .usersPerThread(2)
                    .warmupIterations(40)
                    .iterations(400)
                    .build()
                    .run();
            assertEquals(440, answers.requests.get());
            assertEquals(400, result.iterations());
            assertEquals(400, result.requests());
            assertEquals(0, result.errors());
            assertEquals(0, result.targetRate());
            assertTrue(result.achievedRate() > 0);
            assertEquals(400, result.corrected().getTotalCount());
        }
    }

    @Test
    void aUserThinksBetweenIterations() throws Exception {
        try (DelayingHandler answers = new DelayingHandler(path -> 0);
             LoadTestServer server = new LoadTestServer(leaks.pool(), answers.handler())) {
            LoadResult result = LoadGenerator.builder(URI.create(server.uri("/think")))
                    .model(Model.CLOSED)
                    .iterations(5)
                    .thinkTime(Duration.ofMillis(100))
                    .build()
                    .run();
            assertEquals(5, result.requests());
            // Four pauses between five iterations: a lower bound, whatever the machine's load.
            assertTrue(result.elapsed().toMillis() >= 400, "elapsed " + result.elapsed());
        }
    }

    @Test
    void runsForTheDuration() throws Exception {
        try (DelayingHandler answers = new DelayingHandler(path -> 0);
             LoadTestServer server = new LoadTestServer(leaks.pool(), answers.handler())) {
            LoadResult result = LoadGenerator.builder(URI.create(server.uri("/timed")))
                    .model(Model.CLOSED)
                    .duration(Duration.ofMillis(500))
                    .thinkTime(Duration.ofMillis(10))
                    .build()
                    .run();
            assertTrue(result.requests() > 0 && result.requests() <= 51, "requests " + result.requests());
            assertEquals(result.requests(), answers.requests.get());
        }
    }
}
