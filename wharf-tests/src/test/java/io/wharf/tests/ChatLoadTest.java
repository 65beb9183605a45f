package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import io.wharf.examples.ChatLoad;
import io.wharf.examples.Demo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./wharf chat-load} small against the demo as {@code ./wharf demo} starts it: 50
 * members, 500 messages, every broadcast at every member (25,000 deliveries), the report's
 * counts and percentiles; and a run that cannot reach the room reports failure.
 */
@Timeout(120)
class ChatLoadTest {

    @TempDir
    Path directory;

    private Demo.Running demo;

    @AfterEach
    void stop() throws Exception {
        if (demo != null) {
            demo.server().stop();
        }
    }

    @Test
    void everyBroadcastReachesEveryMember() throws Exception {
        demo = Demo.start(0, 0, directory.resolve("demo-tls"));
        URI uri = URI.create("ws://127.0.0.1:" + demo.httpPort() + "/chat/ws");
        ChatLoad.Result result = ChatLoad.run(ChatLoad.Options.parse("--clients", "50", "--messages", "500", "--uri", uri.toString()));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        result.print(new PrintStream(printed, true, StandardCharsets.UTF_8));
        String report = printed.toString(StandardCharsets.UTF_8);
        System.out.print(report);
        assertTrue(result.complete(), report);
        assertEquals(50, result.opened());
        assertEquals(500, result.sent());
        assertEquals(25_000, result.expected());
        assertEquals(25_000, result.received());
        assertTrue(result.p50() <= result.p90() && result.p90() <= result.p99() && result.p99() <= result.max(), report);
        assertTrue(result.messagesPerSecond() > 0, report);
        assertTrue(report.contains("50 members opened, 500 messages sent, 25000 of 25000 deliveries received"), report);
    }

    @Test
    void aRoomThatCannotBeReachedIsAFailure() throws Exception {
        ChatLoad.Result result = ChatLoad.run(new ChatLoad.Options(3, 10, URI.create("ws://127.0.0.1:1/chat/ws"), 8, Duration.ofSeconds(5)));
        assertFalse(result.complete());
        assertEquals(0, result.opened());
        assertTrue(result.problem().contains("could not connect"), result.problem());
    }
}
