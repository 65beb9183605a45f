package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server may answer a request in full before it has read the request's content (RFC 9113
 * section 8.1): over HTTP/2 that response can even arrive before the sending thread got back
 * from opening the stream. The exchange then succeeds with that response; the client must not
 * take it for an abort and fail the request with its own CANCEL.
 */
@Timeout(60)
class Http2EarlyResponseTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @Test
    void postsAnsweredBeforeTheirContentWasReadAllSucceed() throws Exception {
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            io.wharf.server.Response.write(response, true, "ok", callback);
            return true;
        }), setup -> setup.session.setMaxConcurrentStreams(256));
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        assertEquals(200, client.GET(server.uri("/first")).getStatus());

        Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
        AtomicInteger succeeded = new AtomicInteger();
        int rounds = 40;
        int perRound = 100;
        for (int round = 0; round < rounds; round++) {
            List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
            for (int i = 0; i < perRound; i++) {
                BufferingResponseListener listener = new BufferingResponseListener(1024);
                client.POST(server.uri("/items")).content(RequestContent.of("hello")).send(listener);
                responses.add(listener.future());
            }
            for (CompletableFuture<ContentResponse> response : responses) {
                try {
                    assertEquals("ok", response.get(20, TimeUnit.SECONDS).getContentAsString());
                    succeeded.incrementAndGet();
                } catch (java.util.concurrent.ExecutionException failed) {
                    // Grouped by message without the stream number, so the failure says how many of each kind.
                    failures.computeIfAbsent(String.valueOf(failed.getCause()).replaceAll("stream \\d+", "stream N"), key -> new AtomicInteger()).incrementAndGet();
                }
            }
        }
        assertTrue(failures.isEmpty(), succeeded + " of " + rounds * perRound + " succeeded; failures: " + failures);
    }
}
