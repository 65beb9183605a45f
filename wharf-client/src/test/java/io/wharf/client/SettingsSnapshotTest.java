package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutionException;

import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The settings a running client's requests go by: each request keeps the snapshot of the
 * client's settings taken when it was made, so a setter called afterwards changes the requests
 * made after it and never one already made.
 */
@Timeout(30)
class SettingsSnapshotTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @Test
    void aRequestSendsTheUserAgentOfTheMomentItWasMade() throws Exception {
        TestServer server = loopback.server(Handler.of((request, response, callback) -> {
            Response.write(response, true, String.valueOf(request.getHeaders().get("User-Agent")), callback);
            return true;
        }));
        HttpClient client = loopback.client();
        client.setUserAgent("before");
        Request made = client.newRequest(server.uri("/"));
        client.setUserAgent("after");
        assertEquals("before", made.send().getContentAsString());
        assertEquals("after", client.GET(server.uri("/")).getContentAsString());
    }

    @Test
    void aRequestKeepsTheContentCapOfTheMomentItWasMade() throws Exception {
        TestServer server = loopback.server(Handler.of((request, response, callback) -> {
            Response.write(response, true, "x".repeat(5000), callback);
            return true;
        }));
        HttpClient client = loopback.client();
        client.setMaxResponseContentBytes(10_000);
        Request made = client.newRequest(server.uri("/big"));
        client.setMaxResponseContentBytes(4096);
        assertEquals(5000, made.send().getContent().length);
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/big")));
        assertTrue(failure.getCause().getMessage().contains("exceeds the buffer cap of 4096 bytes"), failure.getCause().getMessage());
    }
}
