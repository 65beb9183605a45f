package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redirects against Wharf's server: chains of relative and absolute locations, the method and
 * content rules of each status, bounds and loops, credentials that stay on their origin,
 * locations the client refuses, and the total timeout and abort across hops.
 */
@Timeout(30)
class RedirectTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** Path to "status location": the paths that redirect; any other path echoes the request. */
    private final Map<String, String> routes = new ConcurrentHashMap<>();
    /** What each server received, one line per request. */
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final Set<Integer> remotePorts = ConcurrentHashMap.newKeySet();
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch stalled = new CountDownLatch(1);
    private TestServer server;
    private HttpClient client;

    @AfterEach
    void releaseHandlers() {
        release.countDown();
    }

    /**
     * Redirects the routed paths (with a small body), holds {@code /stall} until the test ends,
     * and echoes any other request as "METHOD target|content|field=value...".
     */
    private Handler handler(String name) {
        return Handler.of((request, response, callback) -> {
            remotePorts.add(Request.getRemotePort(request));
            String path = request.getHttpURI().getPath();
            String query = request.getHttpURI().getQuery();
            String content = Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20);
            StringBuilder line = new StringBuilder(name).append(' ').append(request.getMethod()).append(' ').append(path)
                    .append(query == null ? "" : "?" + query).append('|').append(content);
            HttpFields headers = request.getHeaders();
            for (String field : List.of("Content-Type", "Cookie", "Authorization", "Proxy-Authorization", "X-Custom", "Host")) {
                if (headers.contains(field)) {
                    line.append('|').append(field).append('=').append(headers.get(field));
                }
            }
            received.add(line.toString());
            if (path.equals("/stall")) {
                stalled.countDown();
                release.await(20, TimeUnit.SECONDS);
            }
            String route = routes.get(path);
            if (route != null) {
                int space = route.indexOf(' ');
                response.setStatus(Integer.parseInt(route.substring(0, space)));
                response.getHeaders().put(HttpHeader.LOCATION, route.substring(space + 1));
                Response.write(response, true, "moved", callback);
                return true;
            }
            if (path.equals("/login")) {
                response.getHeaders().add(HttpHeader.SET_COOKIE, "session=ok; Path=/");
                response.setStatus(302);
                response.getHeaders().put(HttpHeader.LOCATION, "/page");
                callback.succeeded();
                return true;
            }
            if (path.equals("/page") && !String.valueOf(headers.get("Cookie")).contains("session=ok")) {
                response.setStatus(302);
                response.getHeaders().put(HttpHeader.LOCATION, "/login");
                callback.succeeded();
                return true;
            }
            Response.write(response, true, line.toString(), callback);
            return true;
        });
    }

    private void start() throws Exception {
        server = loopback.server(handler("A"));
        client = loopback.client();
    }

    /** Records the statuses the application's listener hears begin, and the result. */
    private static final class Heard implements io.wharf.client.Response.Listener {
        final List<Integer> begins = new CopyOnWriteArrayList<>();
        final CompletableFuture<Result> result = new CompletableFuture<>();
        final StringBuilder content = new StringBuilder();

        @Override
        public void onBegin(io.wharf.client.Response response) {
            begins.add(response.getStatus());
        }

        @Override
        public void onContent(io.wharf.client.Response response, io.wharf.io.Content.Chunk chunk, Runnable demand) {
            content.append(StandardCharsets.UTF_8.decode(chunk.getByteBuffer()));
            demand.run();
        }

        @Override
        public void onComplete(Result done) {
            result.complete(done);
        }
    }

    @Test
    void aChainOfRelativeAndAbsoluteLocationsEndsAtTheFinalResponseOnly() throws Exception {
        start();
        routes.put("/a/one", "301 two");
        routes.put("/a/two", "302 " + server.uri("/b/three?x=1#fragment"));
        routes.put("/b/three", "303 ../c/./four?y=2");
        routes.put("/c/four", "307 //127.0.0.1:" + server.port() + "/d/five");
        routes.put("/d/five", "308 /final");
        Heard heard = new Heard();
        List<String> requestBegins = new CopyOnWriteArrayList<>();
        client.newRequest(server.uri("/a/one"))
                .listener(new io.wharf.client.Request.Listener() {
                    @Override
                    public void onBegin(io.wharf.client.Request request) {
                        requestBegins.add(request.getPath());
                    }
                })
                .send(heard);
        Result result = heard.result.get(10, TimeUnit.SECONDS);
        assertTrue(result.isSucceeded(), () -> String.valueOf(result.getFailure()));
        assertEquals(200, result.response().getStatus());
        assertEquals(List.of(200), heard.begins, "the listener hears the final response only");
        assertEquals("A GET /final|", heard.content.toString().split("\\|Host")[0]);
        assertEquals(URI.create(server.uri("/final")), result.request().getURI(), "the final request is the last hop");
        assertEquals(List.of("/a/one", "/a/two", "/b/three", "/c/four", "/d/five", "/final"), requestBegins,
                "request listeners hear every hop");
        assertEquals(List.of("A GET /a/one|", "A GET /a/two|", "A GET /b/three?x=1|", "A GET /c/four?y=2|",
                "A GET /d/five|", "A GET /final|"), received.stream().map(line -> line.split("\\|Host")[0]).toList());
        assertEquals(1, remotePorts.size(), "the redirects' bodies were read: one connection carried every hop");
    }

    @Test
    void eachStatusKeepsOrChangesTheMethodAndContent() throws Exception {
        start();
        for (int status : new int[] {301, 302, 303, 307, 308}) {
            routes.put("/s" + status, status + " /landed");
        }
        record Case(String method, int status, String expected) {
        }
        List<Case> cases = List.of(
                new Case("POST", 301, "A GET /landed|"),
                new Case("POST", 302, "A GET /landed|"),
                new Case("POST", 303, "A GET /landed|"),
                new Case("POST", 307, "A POST /landed|body|Content-Type=text/plain;charset=utf-8"),
                new Case("POST", 308, "A POST /landed|body|Content-Type=text/plain;charset=utf-8"),
                new Case("PUT", 301, "A PUT /landed|body|Content-Type=text/plain;charset=utf-8"),
                new Case("PUT", 302, "A PUT /landed|body|Content-Type=text/plain;charset=utf-8"),
                new Case("PUT", 303, "A GET /landed|"),
                new Case("DELETE", 303, "A GET /landed|"));
        for (Case each : cases) {
            ContentResponse response = client.newRequest(server.uri("/s" + each.status())).method(each.method())
                    .content(RequestContent.of("body")).send();
            assertEquals(each.expected(), response.getContentAsString().split("\\|Host")[0], each.toString());
        }
        ContentResponse head = client.newRequest(server.uri("/s303")).method(HttpMethod.HEAD).send();
        assertEquals(200, head.getStatus());
        assertTrue(received.get(received.size() - 1).startsWith("A HEAD /landed"), "303 keeps HEAD: " + received);
    }

    @Test
    void aStreamedBodyIsNotReplayed() throws Exception {
        start();
        routes.put("/upload", "307 /elsewhere");
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.POST(server.uri("/upload"))
                .content(RequestContent.of(new ByteArrayInputStream("streamed".getBytes(StandardCharsets.US_ASCII)))).send());
        IOException cause = assertInstanceOf(IOException.class, failure.getCause());
        assertTrue(cause.getMessage().startsWith("cannot follow the 307 redirect to " + server.uri("/elsewhere") + " of POST "),
                cause.getMessage());
        assertTrue(cause.getMessage().endsWith("is read as it is sent and cannot be sent again"), cause.getMessage());
        // A 303 drops the content, so the same upload may be redirected that way.
        routes.put("/upload", "303 /elsewhere");
        ContentResponse response = client.POST(server.uri("/upload"))
                .content(RequestContent.of(new ByteArrayInputStream("streamed".getBytes(StandardCharsets.US_ASCII)))).send();
        assertTrue(response.getContentAsString().startsWith("A GET /elsewhere|"), response.getContentAsString());
    }

    @Test
    void theNumberOfRedirectsIsBoundedPerClientAndPerRequest() throws Exception {
        start();
        for (int i = 0; i < 12; i++) {
            routes.put("/n" + i, "302 /n" + (i + 1));
        }
        ExecutionException tooMany = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/n0")));
        String message = tooMany.getCause().getMessage();
        assertTrue(message.startsWith("too many redirects: more than 8 for GET " + server.uri("/n0") + " → 302 → GET "),
                message);
        assertTrue(message.contains("GET " + server.uri("/n8") + " → 302 → GET " + server.uri("/n9")), message);

        assertTrue(client.newRequest(server.uri("/n9")).send().getContentAsString().startsWith("A GET /n12|"),
                "three redirects are within the default");
        ExecutionException perRequest = assertThrows(ExecutionException.class,
                () -> client.newRequest(server.uri("/n9")).maxRedirects(2).send());
        assertTrue(perRequest.getCause().getMessage().startsWith("too many redirects: more than 2"));

        ContentResponse notFollowed = client.newRequest(server.uri("/n0")).followRedirects(false).send();
        assertEquals(302, notFollowed.getStatus());
        assertEquals("/n1", notFollowed.getHeaders().get("Location"));
        assertEquals("moved", notFollowed.getContentAsString());

        client.setMaxRedirects(20);
        assertTrue(client.GET(server.uri("/n0")).getContentAsString().startsWith("A GET /n12|"));
        client.setFollowRedirects(false);
        assertEquals(302, client.GET(server.uri("/n0")).getStatus());
    }

    @Test
    void aLoopFailsNamingTheChain() throws Exception {
        start();
        routes.put("/loop/a", "302 b");
        routes.put("/loop/b", "301 " + server.uri("/loop/a"));
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/loop/a")));
        assertEquals("redirect loop: GET " + server.uri("/loop/a") + " → 302 → GET " + server.uri("/loop/b") + " → 301 → GET "
                + server.uri("/loop/a") + " (the last request was sent before, with the same cookies)",
                failure.getCause().getMessage());
        assertEquals(2, received.size(), "the loop is seen before the request is sent again");
    }

    @Test
    void comingBackWithANewCookieIsNoLoop() throws Exception {
        start();
        ContentResponse response = client.GET(server.uri("/page"));
        assertEquals(200, response.getStatus());
        assertEquals(List.of("A GET /page|", "A GET /login|", "A GET /page||Cookie=session=ok"),
                received.stream().map(line -> line.split("\\|Host")[0]).toList());
    }

    @Test
    void credentialsAndCookiesStayOnTheirOrigin() throws Exception {
        start();
        TestServer other = loopback.server(handler("B"));
        routes.put("/same", "302 /landed");
        routes.put("/away", "302 " + other.uri("/landed"));
        routes.put("/back", "302 " + other.uri("/return"));
        // B's /return is not routed on B... B shares the routes map: send it back to A.
        routes.put("/return", "302 " + server.uri("/landed"));

        io.wharf.client.Request same = client.newRequest(server.uri("/same"))
                .header("Authorization", "Basic c2VjcmV0")
                .header("Cookie", "app=1")
                .header("Proxy-Authorization", "Basic cHJveHk=")
                .header("X-Custom", "kept");
        String sameOrigin = same.send().getContentAsString();
        assertTrue(sameOrigin.contains("|Cookie=app=1|Authorization=Basic c2VjcmV0|Proxy-Authorization=Basic cHJveHk=|X-Custom=kept"),
                sameOrigin);

        String crossOrigin = client.newRequest(server.uri("/away"))
                .header("Authorization", "Basic c2VjcmV0")
                .header("Cookie", "app=1")
                .header("Proxy-Authorization", "Basic cHJveHk=")
                .header("X-Custom", "kept")
                .send().getContentAsString();
        assertTrue(crossOrigin.startsWith("B GET /landed||X-Custom=kept|Host=127.0.0.1:" + other.port()), crossOrigin);

        String andBack = client.newRequest(server.uri("/back"))
                .header("Authorization", "Basic c2VjcmV0")
                .header("Cookie", "app=1")
                .send().getContentAsString();
        assertEquals("A GET /landed||Host=127.0.0.1:" + server.port(), andBack,
                "once the chain left the origin, the application's credentials are gone for good");
    }

    @Test
    void locationsTheClientCannotFollowFailClearly() throws Exception {
        start();
        Map<String, String> bad = Map.of(
                "/ftp", "cannot follow the 302 redirect of GET " + server.uri("/ftp") + " HTTP/1.1 to Location \"ftp://files.example/x\": the client follows http and https only",
                "/nohost", "cannot follow the 302 redirect of GET " + server.uri("/nohost") + " HTTP/1.1 to Location \"http:///path\": it names no host",
                "/syntax", "cannot follow the 302 redirect of GET " + server.uri("/syntax") + " HTTP/1.1 to Location \"http://[::1/\": it is not a URI reference",
                "/port", "cannot follow the 302 redirect of GET " + server.uri("/port") + " HTTP/1.1 to Location \"http://127.0.0.1:70000/\": its port is out of range");
        routes.put("/ftp", "302 ftp://files.example/x");
        routes.put("/nohost", "302 http:///path");
        routes.put("/syntax", "302 http://[::1/");
        routes.put("/port", "302 http://127.0.0.1:70000/");
        for (Map.Entry<String, String> each : bad.entrySet()) {
            ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri(each.getKey())));
            assertTrue(failure.getCause().getMessage().startsWith(each.getValue()), failure.getCause().getMessage());
        }
        routes.put("/spaces", "302 /with space/x?q=a b");
        String followed = client.GET(server.uri("/spaces")).getContentAsString();
        assertTrue(followed.startsWith("A GET /with%20space/x?q=a%20b|"), "spaces are encoded: " + followed);
    }

    @Test
    void aRedirectWithoutLocationIsTheFinalResponse() throws Exception {
        server = loopback.server(Handler.of((request, response, callback) -> {
            response.setStatus(302);
            Response.write(response, true, "no location", callback);
            return true;
        }));
        client = loopback.client();
        ContentResponse response = client.GET(server.uri("/"));
        assertEquals(302, response.getStatus());
        assertEquals("no location", response.getContentAsString());
    }

    @Test
    void theTotalTimeoutSpansEveryHop() throws Exception {
        start();
        routes.put("/slow", "302 /stall");
        long begin = System.nanoTime();
        TimeoutException timeout = assertThrows(TimeoutException.class,
                () -> client.newRequest(server.uri("/slow")).timeout(Duration.ofMillis(400)).send());
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
        assertEquals("total timeout of 400 ms elapsed for GET " + server.uri("/slow") + " HTTP/1.1", timeout.getMessage());
        assertTrue(elapsed >= 390 && elapsed < 5000, "elapsed " + elapsed);
        // The aborted hop's handler is held until released: let it answer the closed connection
        // and wait for the server to close it, so that its buffers are back before the leak check.
        release.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server.connectionCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(0, server.connectionCount(), "the aborted connection is still open on the server");
    }

    @Test
    void abortingTheRequestAbortsTheHopInFlight() throws Exception {
        start();
        routes.put("/slow", "302 /stall");
        Heard heard = new Heard();
        io.wharf.client.Request request = client.newRequest(server.uri("/slow"));
        request.send(heard);
        assertTrue(stalled.await(10, TimeUnit.SECONDS));
        IOException cause = new IOException("changed my mind");
        assertTrue(request.abort(cause));
        Result result = heard.result.get(10, TimeUnit.SECONDS);
        assertEquals(cause, result.getFailure());
        assertEquals(URI.create(server.uri("/stall")), result.request().getURI());
        assertFalse(request.abort(new IOException("again")), "the conversation is over");
    }

    @Test
    void aRedirectsBodyIsBoundedWhileItIsDropped() throws Exception {
        server = loopback.server(Handler.of((request, response, callback) -> {
            response.setStatus(302);
            response.getHeaders().put(HttpHeader.LOCATION, "/next");
            Response.write(response, true, "x".repeat(2 * 1024 * 1024), callback);
            return true;
        }));
        client = loopback.client();
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/")));
        assertTrue(failure.getCause().getMessage().startsWith("the 302 response to GET " + server.uri("/")
                + " HTTP/1.1 has more than 1048576 bytes of content"), failure.getCause().getMessage());
    }
}
