package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

import io.wharf.examples.Demo;
import io.wharf.loadgen.HtmlReport;
import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.ResourceStatistics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./wharf chat-load} small against the demo as {@code ./wharf demo} starts it, on the load
 * generator's engine ({@link LoadGenerator#chat}): 50 members, 500 messages at 250 a second,
 * every broadcast at every member (25,000 deliveries), both latencies and their percentiles in
 * order, the report; and a room that cannot be reached is a failure naming why.
 */
@Timeout(120)
class ChatLoadTest {

    @TempDir
    Path directory;

    @RegisterExtension
    final TestDemo demos = new TestDemo();

    @Test
    void everyBroadcastReachesEveryMember() throws Exception {
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        URI uri = URI.create("ws://127.0.0.1:" + demo.httpPort() + "/chat/ws");
        LoadResult result = LoadGenerator.chat(uri)
                .usersPerThread(50)
                .rate(250)
                .iterations(500)
                .requestTimeout(Duration.ofSeconds(10))
                .build()
                .run();
        String report = result.errorsByKind() + " " + result.errorExamples() + " " + result.lag().warning();
        assertEquals(500, result.intendedIterations(), report);
        assertEquals(500, result.iterations(), report);
        assertEquals(500, result.requests(), report);
        assertEquals(0, result.errors(), report);
        ResourceStatistics deliveries = result.resources().get(LoadGenerator.CHAT_DELIVERIES);
        assertEquals(25_000, deliveries.requests(), report);
        assertEquals(0, deliveries.errors(), report);
        assertEquals(25_000, deliveries.latency().getTotalCount(), report);
        assertEquals(500, result.corrected().getTotalCount());
        assertEquals(500, result.uncorrected().getTotalCount());
        assertTrue(result.correctedMicros(50) <= result.correctedMicros(90) && result.correctedMicros(90) <= result.correctedMicros(99)
                && result.correctedMicros(99) <= result.corrected().getMaxValue(), report);
        assertTrue(result.achievedRate() > 0, report);
        assertTrue(HtmlReport.of(result).contains("deliveries"), "the report lists the deliveries");
    }

    @Test
    void aRoomThatCannotBeReachedIsAFailure() {
        LoadGenerator generator = LoadGenerator.chat(URI.create("ws://127.0.0.1:1/chat/ws"))
                .usersPerThread(3)
                .iterations(10)
                .requestTimeout(Duration.ofSeconds(5))
                .build();
        IllegalStateException failure = assertThrows(IllegalStateException.class, generator::run);
        assertTrue(failure.getMessage().contains("could not connect"), failure.getMessage());
    }
}
