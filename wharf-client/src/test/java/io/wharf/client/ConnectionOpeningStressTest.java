package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A burst of requests sent at once by many threads opens exactly one connection per request
 * the server holds, never one more: a connection that has just opened counts as opening
 * until it has taken its first exchange, so a thread that found no free connection a moment
 * earlier does not open another for that exchange. Each round starts a new client, sends
 * {@value #BURST} requests from {@value #BURST} threads released together, and the server
 * answers none until all of them are in, so that the client must open {@value #BURST}.
 */
@Timeout(120)
class ConnectionOpeningStressTest {

    private static final int BURST = 16;
    private static final int ROUNDS = 100;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @Test
    void aBurstOpensOneConnectionPerHeldRequest() throws Exception {
        AtomicReference<CountDownLatch> arrived = new AtomicReference<>();
        TestServer server = loopback.server(Handler.of((request, response, callback) -> {
            CountDownLatch all = arrived.get();
            all.countDown();
            all.await(20, TimeUnit.SECONDS);
            Response.write(response, true, "ok", callback);
            return true;
        }));
        for (int round = 0; round < ROUNDS; round++) {
            arrived.set(new CountDownLatch(BURST));
            HttpClient client = new HttpClient(HttpTransport.HTTP_1_1);
            client.setByteBufferPool(leaks.pool());
            client.start();
            CyclicBarrier start = new CyclicBarrier(BURST);
            List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
            List<Thread> senders = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                CompletableFuture<ContentResponse> response = new CompletableFuture<>();
                responses.add(response);
                String path = "/burst" + i;
                senders.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        client.newRequest(server.uri(path)).sendAsync().whenComplete((answer, failure) -> {
                            if (failure != null) {
                                response.completeExceptionally(failure);
                            } else {
                                response.complete(answer);
                            }
                        });
                    } catch (Exception x) {
                        response.completeExceptionally(x);
                    }
                }));
            }
            for (CompletableFuture<ContentResponse> response : responses) {
                assertEquals(200, response.get(30, TimeUnit.SECONDS).getStatus(), "round " + round);
            }
            for (Thread sender : senders) {
                sender.join();
            }
            assertEquals(BURST, client.getDestinations().get(0).getConnectionCount(), "connections opened in round " + round);
            client.stop();
        }
    }
}
