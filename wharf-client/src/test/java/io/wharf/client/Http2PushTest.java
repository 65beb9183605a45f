package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpVersion;
import io.wharf.server.Handler;
import io.wharf.server.Push;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client receiving HTTP/2 server pushes from Wharf's server: taken through a request's
 * push listener, refused without one, refused when the listener says no or throws, and never
 * offered when the client left push disabled. Every case under the leak-tracking pool.
 */
@Timeout(30)
class Http2PushTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** What the server's push() answered for each promised path, in order. */
    private final BlockingQueue<String> promised = new LinkedBlockingQueue<>();

    /** {@code /page} pushes /site.css and /app.js (with a header) and answers "page"; others answer "body of PATH". */
    private Handler site() {
        return Handler.of((request, response, callback) -> {
            String path = request.getHttpURI().getPath();
            if (path.equals("/page")) {
                Push push = request.getPush();
                for (String resource : List.of("/site.css", "/app.js")) {
                    HttpFields.Mutable fields = HttpFields.build().add("x-pushed-by", "page");
                    if (resource.endsWith(".js")) {
                        fields.add("accept-encoding", "gzip");
                    }
                    boolean made = push != null && push.push(resource, fields.asImmutable());
                    promised.add(resource + "=" + made);
                }
                io.wharf.server.Response.write(response, true, "page", callback);
            } else {
                String body = "body of " + path + " " + request.getHeaders().get("x-pushed-by");
                if (!"gzip".equals(request.getHeaders().get("accept-encoding"))) {
                    io.wharf.server.Response.write(response, true, body, callback);
                    return true;
                }
                // Gzipped, as a pushed script often is: the client decodes it as any response.
                java.io.ByteArrayOutputStream gzipped = new java.io.ByteArrayOutputStream();
                try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gzipped)) {
                    out.write(body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                response.getHeaders().put("Content-Encoding", "gzip");
                response.write(true, java.nio.ByteBuffer.wrap(gzipped.toByteArray()), callback);
            }
            return true;
        });
    }

    private HttpClient client(boolean pushEnabled) throws Exception {
        return loopback.client(HttpTransport.HTTP_2, client -> client.getHttp2Configuration().setPushEnabled(pushEnabled));
    }

    @Test
    void pushedResponsesReachTheRequestsPushListener() throws Exception {
        Http2TestServer server = loopback.http2Server(site(), setup -> { });
        HttpClient client = client(true);
        Map<String, CompletableFuture<ContentResponse>> pushes = new ConcurrentHashMap<>();
        Map<String, String> methods = new ConcurrentHashMap<>();

        ContentResponse page = client.newRequest(server.uri("/page")).onPush(pushed -> {
            methods.put(pushed.getPath(), pushed.getMethod() + " " + pushed.getHeaders().get("x-pushed-by"));
            BufferingResponseListener listener = new BufferingResponseListener(1024);
            pushes.put(pushed.getPath(), listener.future());
            return listener;
        }).send();

        assertEquals("page", page.getContentAsString());
        assertEquals("/site.css=true", promised.poll(5, TimeUnit.SECONDS));
        assertEquals("/app.js=true", promised.poll(5, TimeUnit.SECONDS));
        assertEquals(Map.of("/site.css", "GET page", "/app.js", "GET page"), methods);
        for (String path : List.of("/site.css", "/app.js")) {
            ContentResponse pushed = pushes.get(path).get(5, TimeUnit.SECONDS);
            assertEquals(200, pushed.getStatus());
            assertEquals(HttpVersion.HTTP_2, pushed.getVersion());
            assertEquals("body of " + path + " page", pushed.getContentAsString());
        }
        assertEquals(1, client.getDestinations().get(0).getConnectionCount(), "the pushes came on the page's connection");
    }

    @Test
    void withoutAPushListenerPushesAreRefusedAndTheConnectionGoesOn() throws Exception {
        Http2TestServer server = loopback.http2Server(site(), setup -> { });
        HttpClient client = client(true);
        for (int i = 0; i < 20; i++) {
            assertEquals("page", client.GET(server.uri("/page")).getContentAsString());
        }
        assertEquals("/site.css=true", promised.poll(5, TimeUnit.SECONDS), "the server could promise");
        assertEquals("body of /other null", client.GET(server.uri("/other")).getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
    }

    @Test
    void aListenerThatSaysNoOrThrowsRefusesThePush() throws Exception {
        Http2TestServer server = loopback.http2Server(site(), setup -> { });
        HttpClient client = client(true);
        BlockingQueue<String> offered = new LinkedBlockingQueue<>();
        Function<Request, Response.Listener> choosy = pushed -> {
            offered.add(pushed.getPath());
            if (pushed.getPath().endsWith(".js")) {
                throw new IllegalStateException("no scripts");
            }
            return null;
        };
        for (int i = 0; i < 10; i++) {
            assertEquals("page", client.newRequest(server.uri("/page")).onPush(choosy).send().getContentAsString());
        }
        assertEquals(20, offered.size(), "each promise was offered: " + offered);
        assertEquals("body of /next null", client.GET(server.uri("/next")).getContentAsString());
    }

    @Test
    void aClientThatLeftPushDisabledIsNeverPromisedAnything() throws Exception {
        Http2TestServer server = loopback.http2Server(site(), setup -> { });
        HttpClient client = client(false);
        List<String> offered = new java.util.concurrent.CopyOnWriteArrayList<>();
        ContentResponse page = client.newRequest(server.uri("/page")).onPush(pushed -> {
            offered.add(pushed.getPath());
            return null;
        }).send();
        assertEquals("page", page.getContentAsString());
        assertEquals("/site.css=false", promised.poll(5, TimeUnit.SECONDS));
        assertEquals("/app.js=false", promised.poll(5, TimeUnit.SECONDS));
        assertTrue(offered.isEmpty());
        assertFalse(client.getHttp2Configuration().isPushEnabled());
    }
}
