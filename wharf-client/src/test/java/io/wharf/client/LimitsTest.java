package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The client's bounds: queued requests per destination, buffered response content, request heads. */
@Timeout(30)
class LimitsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private TestServer server;
    private HttpClient client;
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch handling = new CountDownLatch(1);

    private void start(Handler handler) throws Exception {
        server = loopback.server(handler);
        client = loopback.client();
    }

    @AfterEach
    void release() {
        release.countDown();
    }

    private Handler sized(int bytes) {
        return Handler.of((request, response, callback) -> {
            handling.countDown();
            release.await(20, TimeUnit.SECONDS);
            io.wharf.server.Response.write(response, true, "x".repeat(bytes), callback);
            return true;
        });
    }

    @Test
    void aFullQueueRejectsTheRequestClearly() throws Exception {
        start(sized(2));
        client.setMaxConnectionsPerDestination(1);
        client.setMaxRequestsQueuedPerDestination(3);
        List<CompletableFuture<ContentResponse>> accepted = new ArrayList<>();
        // One on the connection (the server handles it), three in the queue.
        accepted.add(client.newRequest(server.uri("/0")).sendAsync());
        assertTrue(handling.await(10, TimeUnit.SECONDS));
        for (int i = 1; i < 4; i++) {
            accepted.add(client.newRequest(server.uri("/" + i)).sendAsync());
        }
        assertEquals(3, client.getDestinations().get(0).getQueuedRequestCount());
        ExecutionException rejected = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/5")));
        assertInstanceOf(RejectedExecutionException.class, rejected.getCause());
        assertTrue(rejected.getCause().getMessage().contains("is full: 3 requests already wait"), rejected.getCause().getMessage());
        release.countDown();
        for (CompletableFuture<ContentResponse> future : accepted) {
            assertEquals("xx", future.get(10, TimeUnit.SECONDS).getContentAsString());
        }
    }

    @Test
    void aResponseOverTheCapFailsNamingTheCap() throws Exception {
        start(sized(5000));
        release.countDown();
        client.setMaxResponseContentBytes(4096);
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/big")));
        assertInstanceOf(IOException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().contains("exceeds the buffer cap of 4096 bytes"), failure.getCause().getMessage());
        client.setMaxResponseContentBytes(5000);
        assertEquals(5000, client.GET(server.uri("/big")).getContent().length);
    }

    @Test
    void aChunkedResponseOverTheCapFailsAsItGrows() throws Exception {
        start(Handler.of((request, response, callback) -> {
            try (var out = io.wharf.server.Response.asOutputStream(response)) {
                for (int i = 0; i < 100; i++) {
                    out.write(new byte[1000]);
                    out.flush();
                }
            } catch (IOException expected) {
                // The client gave up.
            }
            callback.succeeded();
            return true;
        }));
        client.setMaxResponseContentBytes(10_000);
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/growing")));
        assertTrue(failure.getCause().getMessage().contains("exceeds the buffer cap of 10000 bytes"), failure.getCause().getMessage());
    }

    @Test
    void anOverLongRequestHeadFailsClearly() throws Exception {
        start(sized(2));
        release.countDown();
        client.setMaxRequestHeadBytes(8192);
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> client.newRequest(server.uri("/")).header("X-Big", "y".repeat(10_000)).send());
        assertInstanceOf(IllegalArgumentException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().contains("is larger than 8192 bytes"), failure.getCause().getMessage());
        // Heads that need a larger buffer than the first one, within the limit, are written.
        assertEquals("xx", client.newRequest(server.uri("/")).header("X-Big", "y".repeat(6000)).send().getContentAsString());
    }
}
