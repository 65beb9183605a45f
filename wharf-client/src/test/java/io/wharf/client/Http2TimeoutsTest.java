package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Timeouts over HTTP/2, as HTTP/1.1 has them: the total timeout and the request's idle timeout
 * fail their exchange only (its stream reset, the connection kept for the others); the
 * client's idle timeout fails what the silent connection carries and closes it.
 */
@Timeout(30)
class Http2TimeoutsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private final CountDownLatch release = new CountDownLatch(1);

    /** Answers /slow only when the test ends, the rest at once. */
    private Http2TestServer server() throws Exception {
        return loopback.http2Server(Handler.of((request, response, callback) -> {
            if (request.getHttpURI().getPath().equals("/slow")) {
                release.await(20, TimeUnit.SECONDS);
            }
            io.wharf.server.Response.write(response, true, "done", callback);
            return true;
        }), setup -> { });
    }

    @AfterEach
    void release() {
        release.countDown();
    }

    @Test
    void totalTimeoutFailsOnlyItsExchange() throws Exception {
        Http2TestServer server = server();
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        assertEquals("done", client.GET(server.uri("/fast")).getContentAsString());
        TimeoutException timeout = assertThrows(TimeoutException.class,
                () -> client.newRequest(server.uri("/slow")).timeout(Duration.ofMillis(300)).send());
        assertTrue(timeout.getMessage().startsWith("total timeout of 300 ms elapsed"), timeout.getMessage());
        assertEquals("done", client.GET(server.uri("/fast")).getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount(), "the connection went on");
    }

    @Test
    void idleTimeoutOfTheRequestFailsOnlyItsExchange() throws Exception {
        Http2TestServer server = server();
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        TimeoutException timeout = assertThrows(TimeoutException.class,
                () -> client.newRequest(server.uri("/slow")).idleTimeout(Duration.ofMillis(250)).send());
        assertTrue(timeout.getMessage().startsWith("idle timeout of 250 ms elapsed"), timeout.getMessage());
        assertEquals("done", client.GET(server.uri("/fast")).getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
    }

    @Test
    void idleTimeoutOfTheClientClosesTheSilentConnection() throws Exception {
        Http2TestServer server = server();
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> c.setIdleTimeout(Duration.ofMillis(300)));
        TimeoutException timeout = assertThrows(TimeoutException.class, () -> client.GET(server.uri("/slow")));
        assertTrue(timeout.getMessage().startsWith("idle timeout of 300 ms elapsed"), timeout.getMessage());
        release.countDown();
        assertEquals("done", client.GET(server.uri("/fast")).getContentAsString(), "a new connection serves the next");
    }
}
