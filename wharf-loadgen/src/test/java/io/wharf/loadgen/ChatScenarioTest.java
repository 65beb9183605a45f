package io.wharf.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The chat scenario on the engine, against a small chat room on Wharf's server: the rate held
 * (every intended message started), every delivery counted, both latencies, warm-up left out,
 * the interval log (its messages and deliveries tagged, merged back whole); a slow room puts
 * the generator behind its schedule and it says so; missing deliveries are errors by kind; a
 * room that cannot be reached fails the run, naming why.
 */
@Timeout(60)
class ChatScenarioTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"HTTP_1_1", "H2C"})
    void everyMessageReachesEveryMemberAtTheRate(Protocol protocol) throws Exception {
        Path log = directory.resolve("chat.hlog");
        List<LoadListener.TreeEvent> messages = new CopyOnWriteArrayList<>();
        try (TestChatRoom room = new TestChatRoom(0, false);
             LoadTestServer server = new LoadTestServer(leaks.pool(), room.handler())) {
            LoadResult result = LoadGenerator.chat(URI.create(server.uri("/chat/ws").replace("http:", "ws:")))
                    .protocol(protocol)
                    .usersPerThread(10)
                    .rate(200)
                    .warmupIterations(20)
                    .duration(Duration.ofSeconds(1))
                    .intervalLog(log)
                    .listener(new LoadListener() {
                        @Override
                        public void onTree(TreeEvent event) {
                            messages.add(event);
                        }
                    })
                    .build()
                    .run();
            assertEquals(200, result.intendedIterations(), "the schedule: 200 messages a second for a second");
            assertEquals(200, result.iterations(), "every intended message was started");
            assertEquals(200, result.requests());
            assertEquals(0, result.errors(), () -> "errors: " + result.errorsByKind() + " " + result.errorExamples());
            assertEquals(220, room.messages.get(), "the warm-up's 20 and the 200 measured were sent");
            assertEquals(220, messages.size());
            assertEquals(20, messages.stream().filter(LoadListener.TreeEvent::warmup).count());
            ResourceStatistics deliveries = result.resources().get(LoadGenerator.CHAT_DELIVERIES);
            assertEquals(200 * 10, deliveries.requests(), "each measured message reached each of the 10 members");
            assertEquals(0, deliveries.errors());
            assertEquals(200 * 10, deliveries.latency().getTotalCount());
            assertEquals(200, result.resources().get(LoadGenerator.CHAT_MESSAGES).requests());
            assertEquals(200, result.corrected().getTotalCount(), "a corrected latency per message");
            assertEquals(200, result.uncorrected().getTotalCount(), "an uncorrected latency per message");
            assertTrue(result.correctedMicros(100) >= result.uncorrectedMicros(100) && result.uncorrectedMicros(50) > 0,
                    "corrected max " + result.correctedMicros(100) + " µs, uncorrected " + result.uncorrected());
            // The last member's copy comes no sooner than any member's.
            assertTrue(result.correctedMicros(100) >= deliveries.latency().getMaxValue() * 999 / 1000);
            assertEquals(protocol, result.protocol());
            String text = Files.readString(log);
            assertTrue(text.contains("corrected") && text.contains("uncorrected") && text.contains("\"deliveries\""), text);
            // The parts are histograms of each interval too, so that a merged log keeps them.
            assertTrue(text.contains("Tag=resource:messages,") && text.contains("Tag=resource:deliveries,"), text);
            ResourceStatistics merged = LoadResult.merge(List.of(log)).resources().get(LoadGenerator.CHAT_DELIVERIES);
            assertEquals(200 * 10, merged.requests());
            assertEquals(200 * 10, merged.latency().getTotalCount(), "every measured delivery's latency is in the log");
        }
    }

    @Test
    void aSlowRoomPutsTheGeneratorBehindAndItSaysSo() throws Exception {
        // 20 ms a message in the room, one message on its way at a time, 100 due a second: each waits longer than the last.
        try (TestChatRoom room = new TestChatRoom(20, false);
             LoadTestServer server = new LoadTestServer(leaks.pool(), room.handler())) {
            LoadResult result = LoadGenerator.chat(URI.create(server.uri("/chat/ws").replace("http:", "ws:")))
                    .usersPerThread(3)
                    .window(1)
                    .rate(100)
                    .iterations(30)
                    .build()
                    .run();
            assertEquals(30, result.iterations());
            assertEquals(0, result.errors(), () -> "errors: " + result.errorsByKind() + " " + result.errorExamples());
            assertEquals(90, result.resources().get(LoadGenerator.CHAT_DELIVERIES).requests());
            assertTrue(result.lag().isBehind(), "messages waited for the window: " + result.lag());
            assertTrue(result.lag().maxQueueLag().toMillis() >= 100, "the last ones waited 30 × (20 - 10) ms: " + result.lag());
            assertTrue(result.lag().lateRequests() >= 10, result.lag().toString());
            assertTrue(result.correctedMicros(100) >= 300_000, "the last message was due 300 ms before the room got it");
            assertTrue(result.achievedRate() < 100, "achieved " + result.achievedRate());
        }
    }

    /** Four sending threads, twenty members, eight messages on their way at most: every count exact. */
    @Test
    void manySendersKeepExactCounts() throws Exception {
        try (TestChatRoom room = new TestChatRoom(0, false);
             LoadTestServer server = new LoadTestServer(leaks.pool(), room.handler())) {
            LoadResult result = LoadGenerator.chat(URI.create(server.uri("/chat/ws").replace("http:", "ws:")))
                    .threads(4)
                    .usersPerThread(5)
                    .window(8)
                    .rate(1_000)
                    .duration(Duration.ofSeconds(1))
                    .reportInterval(Duration.ofMillis(50))
                    .build()
                    .run();
            assertEquals(1_000, result.iterations());
            assertEquals(1_000, result.requests());
            assertEquals(0, result.errors(), () -> "errors: " + result.errorsByKind() + " " + result.errorExamples());
            assertEquals(1_000, room.messages.get());
            ResourceStatistics deliveries = result.resources().get(LoadGenerator.CHAT_DELIVERIES);
            assertEquals(20_000, deliveries.requests());
            assertEquals(20_000, deliveries.latency().getTotalCount());
            assertEquals(1_000, result.intervals().stream().mapToLong(LoadListener.IntervalReport::requests).sum(),
                    "the intervals add up to the messages");
        }
    }

    /**
     * A room twice too slow for the rate, and a short timeout: messages time out while their
     * copies arrive and while they wait for the window. Every due delivery is still counted
     * once, received or missing: a copy that comes after its message gave up is not counted again.
     */
    @Test
    void timeoutsRacingDeliveriesCountEachDeliveryOnce() throws Exception {
        try (TestChatRoom room = new TestChatRoom(5, false);
             LoadTestServer server = new LoadTestServer(leaks.pool(), room.handler())) {
            LoadResult result = LoadGenerator.chat(URI.create(server.uri("/chat/ws").replace("http:", "ws:")))
                    .usersPerThread(5)
                    .window(16)
                    .rate(400)
                    .iterations(200)
                    .requestTimeout(Duration.ofMillis(100))
                    .build()
                    .run();
            assertEquals(200, result.requests(), "every message ended");
            ResourceStatistics deliveries = result.resources().get(LoadGenerator.CHAT_DELIVERIES);
            assertEquals(200 * 5, deliveries.requests(), "each due delivery counted once");
            assertEquals(deliveries.requests() - deliveries.errors(), deliveries.latency().getTotalCount());
            assertTrue(result.errors() > 0 && deliveries.errors() >= result.errors(), () -> "some timed out: " + result.errorsByKind());
            assertEquals(result.errors(), result.errorsByKind().getOrDefault("MissingDeliveriesException", 0L), result.errorsByKind()::toString);
            assertEquals(200 - result.errors(), result.corrected().getTotalCount());
        }
    }

    @Test
    void missingDeliveriesAreErrorsByKind() throws Exception {
        try (TestChatRoom room = new TestChatRoom(0, true);
             LoadTestServer server = new LoadTestServer(leaks.pool(), room.handler())) {
            LoadResult result = LoadGenerator.chat(URI.create(server.uri("/chat/ws").replace("http:", "ws:")))
                    .usersPerThread(4)
                    .rate(50)
                    .iterations(10)
                    .requestTimeout(Duration.ofMillis(500))
                    .build()
                    .run();
            assertEquals(10, result.requests());
            assertEquals(10, result.errors());
            assertEquals(java.util.Map.of("MissingDeliveriesException", 10L), result.errorsByKind());
            assertTrue(result.errorExamples().get("MissingDeliveriesException").contains("reached 3 of 4 members within 500 ms"),
                    result.errorExamples().toString());
            ResourceStatistics deliveries = result.resources().get(LoadGenerator.CHAT_DELIVERIES);
            assertEquals(40, deliveries.requests());
            assertEquals(10, deliveries.errors(), "one member never heard a message");
            assertEquals(30, deliveries.latency().getTotalCount());
            assertEquals(0, result.corrected().getTotalCount(), "a failed message has no latency");
        }
    }

    @Test
    void aRoomThatCannotBeReachedFailsTheRun() {
        LoadGenerator generator = LoadGenerator.chat(URI.create("ws://127.0.0.1:1/chat/ws"))
                .usersPerThread(3)
                .iterations(10)
                .requestTimeout(Duration.ofSeconds(5))
                .build();
        IllegalStateException failure = assertThrows(IllegalStateException.class, generator::run);
        assertTrue(failure.getMessage().contains("3 of 3 members could not connect to ws://127.0.0.1:1/chat/ws"), failure.getMessage());
    }

    @Test
    void aChatRunRefusesWhatIsForHttp() {
        URI room = URI.create("ws://127.0.0.1:8080/chat/ws");
        assertThrows(IllegalArgumentException.class, () -> LoadGenerator.chat(room).resource(Resource.of("/")).build());
        assertThrows(IllegalArgumentException.class, () -> LoadGenerator.chat(room).probe(1).build());
        assertThrows(IllegalArgumentException.class, () -> LoadGenerator.chat(room).protocol(Protocol.H2).build());
        assertThrows(IllegalArgumentException.class, () -> LoadGenerator.chat(URI.create("http://127.0.0.1/chat/ws")).build());
        assertThrows(IllegalArgumentException.class, () -> LoadGenerator.builder(URI.create("http://127.0.0.1/")).window(4).build());
        assertFalse(LoadGenerator.chat(room).window(4).build() == null);
    }
}
