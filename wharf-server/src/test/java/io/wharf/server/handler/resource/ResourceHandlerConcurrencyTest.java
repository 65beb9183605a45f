package io.wharf.server.handler.resource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.wharf.server.LocalConnector;
import io.wharf.server.handler.ResourceServer;
import io.wharf.server.handler.ResourceServer.Reply;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Many downloads of a large file at once, whole, by ranges and abandoned: every pooled buffer comes back. */
class ResourceHandlerConcurrencyTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int CLIENTS = 100;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path base;

    private byte[] large;
    private ResourceServer local;

    @BeforeEach
    void start() throws Exception {
        large = ResourceHandlerTest.pattern(1536 * 1024 + 17);
        Files.write(base.resolve("large.bin"), large);
        ResourceHandler resources = new ResourceHandler(base);
        // Stream every byte through pooled buffers, the path that could leak them.
        resources.setMappingThreshold(Long.MAX_VALUE);
        resources.setBufferSize(16 * 1024);
        local = new ResourceServer(leaks.pool()).start(resources);
    }

    @AfterEach
    void stop() throws Exception {
        local.close();
    }

    @Test
    void serves100ConcurrentDownloadsAndReleasesEveryBuffer() throws Exception {
        List<LocalConnector.Client> clients = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                LocalConnector.Client client = local.connector.connect();
                clients.add(client);
                String range = i % 4 == 3 ? "Range: bytes=1000-1999,500000-1100000" : i % 4 == 2 ? "Range: bytes=-70000" : null;
                client.send(range == null ? ResourceServer.request("GET", "/large.bin") : ResourceServer.request("GET", "/large.bin", range));
            }
            for (int i = 0; i < CLIENTS; i++) {
                Reply reply = Reply.parse(clients.get(i).readResponse(WAIT));
                switch (i % 4) {
                    case 3 -> {
                        assertEquals(206, reply.status(), "client " + i);
                        String type = reply.header("Content-Type");
                        List<String[]> parts = ResourceHandlerTest.multipart(reply.body(), type.substring(type.indexOf('=') + 1));
                        assertArrayEquals(Arrays.copyOfRange(large, 1000, 2000), parts.get(0)[1].getBytes(StandardCharsets.ISO_8859_1));
                        assertArrayEquals(Arrays.copyOfRange(large, 500_000, 1_100_001), parts.get(1)[1].getBytes(StandardCharsets.ISO_8859_1));
                    }
                    case 2 -> {
                        assertEquals(206, reply.status(), "client " + i);
                        assertArrayEquals(Arrays.copyOfRange(large, large.length - 70_000, large.length), reply.bodyBytes());
                    }
                    default -> {
                        assertEquals(200, reply.status(), "client " + i);
                        assertArrayEquals(large, reply.bodyBytes(), "client " + i);
                    }
                }
            }
        } finally {
            clients.forEach(LocalConnector.Client::close);
        }
        assertTrue(leaks.pool().awaitNoLeaks(Duration.ofSeconds(10)), () -> leaks.pool().leaks().size() + " buffers still out");
    }

    @Test
    void releasesEveryBufferWhenClientsGoAwayMidDownload() throws Exception {
        List<LocalConnector.Client> clients = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            LocalConnector.Client client = local.connector.connect();
            clients.add(client);
            client.send(ResourceServer.request("GET", "/large.bin"));
        }
        // The pipes fill up and the writes wait; then every client closes without reading.
        clients.forEach(LocalConnector.Client::close);
        assertTrue(leaks.pool().awaitNoLeaks(Duration.ofSeconds(10)), () -> leaks.pool().leaks().size() + " buffers still out");
        // The server still serves.
        assertArrayEquals(large, local.get("/large.bin").bodyBytes());
    }
}
