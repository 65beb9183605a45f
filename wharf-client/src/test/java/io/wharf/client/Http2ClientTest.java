package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.wharf.http.HttpVersion;
import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client over HTTP/2 against Wharf's own server: h2c with prior knowledge, many exchanges
 * at once on one connection, the same listeners and content as HTTP/1.1.
 */
@Timeout(30)
class Http2ClientTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** Answers "METHOD /path|version|content". */
    static Handler echo() {
        return Handler.of((request, response, callback) -> {
            String content = io.wharf.server.Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20);
            io.wharf.server.Response.write(response, true, request.getMethod() + " " + request.getHttpURI().getPath() + "|"
                    + request.getConnectionMetaData().getHttpVersion() + "|" + content, callback);
            return true;
        });
    }

    @Test
    void getAndPostOverH2cWithPriorKnowledge() throws Exception {
        Http2TestServer server = loopback.http2Server(echo(), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });

        ContentResponse get = client.GET(server.uri("/hello"));
        assertEquals(200, get.getStatus());
        assertEquals(HttpVersion.HTTP_2, get.getVersion());
        assertEquals("GET /hello|HTTP/2.0|", get.getContentAsString());

        ContentResponse post = client.POST(server.uri("/items")).content(RequestContent.of("x".repeat(100_000))).send();
        assertEquals("POST /items|HTTP/2.0|" + "x".repeat(100_000), post.getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount(), "one connection carried both");
    }

    @Test
    void manyExchangesAtOnceShareOneConnection() throws Exception {
        Set<String> connections = ConcurrentHashMap.newKeySet();
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            connections.add(request.getConnectionMetaData().getId());
            io.wharf.server.Response.write(response, true, request.getHttpURI().getPath(), callback);
            return true;
        }), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        // The first opens the connection; then 200 go at once.
        assertEquals(200, client.GET(server.uri("/first")).getStatus());
        List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            BufferingResponseListener listener = new BufferingResponseListener(1 << 16);
            client.newRequest(server.uri("/" + i)).send(listener);
            CompletableFuture<ContentResponse> future = listener.future();
            responses.add(future);
        }
        for (int i = 0; i < 200; i++) {
            assertEquals("/" + i, responses.get(i).get(20, TimeUnit.SECONDS).getContentAsString());
        }
        assertEquals(1, connections.size(), "every exchange went on the one connection: " + connections);
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
        assertTrue(client.getDestinations().get(0).getQueuedRequestCount() == 0);
    }
}
