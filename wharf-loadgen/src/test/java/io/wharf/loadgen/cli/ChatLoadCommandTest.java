package io.wharf.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.wharf.loadgen.LoadTestServer;
import io.wharf.loadgen.TestChatRoom;
import io.wharf.loadgen.internal.JsonReader;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./wharf chat-load} end to end against a chat room on Wharf's server: its summary and files, its exit statuses. */
@Timeout(60)
class ChatLoadCommandTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        ChatLoadCommand command = new ChatLoadCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), true);
        return ChatLoadCommand.execute(command, args);
    }

    @Test
    void loadsTheRoomAndWritesTheReports(@TempDir Path directory) throws Exception {
        Path json = directory.resolve("chat.json");
        Path log = directory.resolve("chat.hlog");
        Path html = directory.resolve("chat.html");
        try (TestChatRoom room = new TestChatRoom(0, false);
             LoadTestServer server = new LoadTestServer(leaks.pool(), room.handler())) {
            String uri = server.uri("/chat/ws").replace("http:", "ws:");
            int status = run("--clients", "10", "--messages", "50", "--rate", "100", "--window", "8", "--quiet", "10",
                    "--uri", uri, "--json", json.toString(), "--log", log.toString(), "--html", html.toString());
            assertEquals(0, status, () -> "stdout: " + out + "\nstderr: " + err);
            assertEquals(50, room.messages.get());
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("rate: 100.0/s asked") && text.contains("50 of 50 scheduled iterations started"), text);
        assertTrue(text.contains("50 messages in") && text.contains("0 errors"), text);
        assertTrue(text.contains("msg/s") && text.contains("in flight"), "a progress line on a terminal: " + text);
        assertTrue(text.contains("deliveries: 500 of 500 received, 0 missing"), text);
        Map<?, ?> summary = (Map<?, ?>) JsonReader.read(Files.readString(json));
        assertEquals(50L, ((Number) summary.get("requests")).longValue());
        List<?> parts = (List<?>) summary.get("resources");
        Map<?, ?> deliveries = (Map<?, ?>) parts.get(1);
        assertEquals("deliveries", deliveries.get("path"));
        assertEquals(500L, ((Number) deliveries.get("requests")).longValue());
        assertTrue(Files.readString(log).contains("uncorrected"));
        String report = Files.readString(html);
        assertTrue(report.contains("<svg"));
        assertTrue(report.contains("<tr><td>messages</td><td>50</td><td>0</td>") && report.contains("<tr><td>deliveries</td><td>500</td><td>0</td>"),
                "the report's table has the chat's parts: " + report);
        assertTrue(report.contains("<h2>Messages and deliveries</h2>") && report.contains("<th>part</th><th>count</th>")
                && report.contains("500 of 500 deliveries received, 0 missing") && !report.contains("trees")
                && !report.contains("Resources") && !report.contains("<th>resource</th>"),
                "a chat run's report speaks of messages and deliveries, not resources and trees: " + report);
        assertTrue(report.contains("<tr><th>messages</th><td>50</td></tr>") && !report.contains("<tr><th>requests</th>"), report);
    }

    @Test
    void missingDeliveriesExitWithOne() throws Exception {
        try (TestChatRoom room = new TestChatRoom(0, true);
             LoadTestServer server = new LoadTestServer(leaks.pool(), room.handler())) {
            String uri = server.uri("/chat/ws").replace("http:", "ws:");
            int status = run("--clients", "3", "--messages", "5", "--rate", "50", "--timeout", "300ms", "--uri", uri);
            assertEquals(1, status, () -> "stdout: " + out + "\nstderr: " + err);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("MissingDeliveriesException") && text.contains("FAILED: 5 of 15 deliveries missing"), text);
    }

    @Test
    void aRoomThatCannotBeReachedExitsWithOne() {
        assertEquals(1, run("--clients", "2", "--messages", "5", "--uri", "ws://127.0.0.1:1/chat/ws"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("2 of 2 members could not connect"), err::toString);
        assertEquals(2, run("--clients", "3", "--threads", "2"));
        assertEquals(2, run("--window"));
    }
}
