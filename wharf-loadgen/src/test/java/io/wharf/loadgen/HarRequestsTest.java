package io.wharf.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HAR file's entries are sent with their own methods and content, not the run's: a small HAR
 * made here (a page, a GET and a POST of one URL, a form sent as params, a PUT without content)
 * loaded with a run whose method is DELETE and whose body is "run's", against a server that
 * counts what it received as "METHOD path type body".
 */
@Timeout(60)
class HarRequestsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private final Map<String, AtomicLong> received = new ConcurrentHashMap<>();

    private boolean record(Request request, Response response, io.wharf.util.Callback callback) throws Exception {
        String body = Request.getContentAsString(request, StandardCharsets.UTF_8, 4096);
        String type = request.getHeaders().get("Content-Type");
        String query = request.getHttpURI().getQuery();
        received.computeIfAbsent(request.getMethod() + " " + request.getHttpURI().getPath() + (query == null ? "" : "?" + query)
                + " " + type + " " + body,
                key -> new AtomicLong()).incrementAndGet();
        Response.write(response, true, "ok", callback);
        return true;
    }

    @Test
    void eachEntryIsSentWithItsOwnMethodAndContent() throws Exception {
        Path har = directory.resolve("page.har");
        Files.writeString(har, """
                {"log": {"version": "1.2", "pages": [{"id": "page_1"}], "entries": [
                  {"pageref": "page_1", "request": {"method": "GET", "url": "http://example.test/page"}},
                  {"pageref": "page_1", "request": {"method": "GET", "url": "http://example.test/api/items"},
                   "_initiator": {"type": "script", "url": "http://example.test/page"}},
                  {"pageref": "page_1", "request": {"method": "POST", "url": "http://example.test/api/items",
                    "postData": {"mimeType": "application/json", "text": "{\\"name\\": \\"tea\\"}"}},
                   "_initiator": {"type": "script", "url": "http://example.test/page"}},
                  {"pageref": "page_1", "request": {"method": "POST", "url": "http://example.test/login?next=%2F",
                    "postData": {"mimeType": "application/x-www-form-urlencoded",
                                 "params": [{"name": "user", "value": "ann e"}, {"name": "pass", "value": "a&b"}]}}},
                  {"pageref": "page_1", "request": {"method": "PUT", "url": "http://example.test/flag"}}
                ]}}
                """);
        Resource tree = Resource.read(har);
        try (LoadTestServer server = new LoadTestServer(leaks.pool(), Handler.of(InvocationType.BLOCKING, this::record))) {
            LoadResult result = LoadGenerator.builder(URI.create(server.uri("/")))
                    .resource(tree)
                    .method("DELETE")
                    .body("run's", "text/plain")
                    .connectionsPerUser(4)
                    .model(Model.CLOSED)
                    .iterations(3)
                    .build()
                    .run();
            assertEquals(0, result.errors(), () -> result.errorExamples().toString());
            assertEquals(List.of("/page", "/api/items", "POST /api/items", "POST /login?next=%2F", "PUT /flag"),
                    List.copyOf(result.resources().keySet()));
        }
        Map<String, Long> counts = new TreeMap<>();
        received.forEach((line, count) -> counts.put(line, count.get()));
        assertEquals(Map.of(
                "GET /page null ", 3L,
                "GET /api/items null ", 3L,
                "POST /api/items application/json {\"name\": \"tea\"}", 3L,
                "POST /login?next=%2F application/x-www-form-urlencoded user=ann+e&pass=a%26b", 3L,
                "PUT /flag null ", 3L), counts);
    }

    /**
     * An entry's own header fields go with it; the run's go too, except a field of a name the
     * entry has, which the entry's replaces. Host stays the target's, whatever the HAR says.
     */
    @Test
    void eachEntryIsSentWithItsOwnHeaderFields() throws Exception {
        Path har = directory.resolve("fields.har");
        Files.writeString(har, """
                {"log": {"entries": [
                  {"request": {"method": "GET", "url": "http://example.test/page", "headers": [
                    {"name": ":authority", "value": "example.test"}, {"name": "Host", "value": "example.test"},
                    {"name": "accept", "value": "text/html"}, {"name": "X-Page", "value": "yes"}]}},
                  {"request": {"method": "GET", "url": "http://example.test/style.css", "headers": [
                    {"name": "Accept", "value": "text/css"}]}}
                ]}}
                """);
        Map<String, AtomicLong> seen = new ConcurrentHashMap<>();
        Handler fields = Handler.of(InvocationType.BLOCKING, (request, response, callback) -> {
            seen.computeIfAbsent(request.getHttpURI().getPath() + " accept=" + request.getHeaders().getValuesList("Accept")
                    + " x-page=" + request.getHeaders().get("X-Page") + " x-run=" + request.getHeaders().get("X-Run")
                    + " host-is-target=" + request.getHeaders().get("Host").startsWith("127.0.0.1:"),
                    key -> new AtomicLong()).incrementAndGet();
            Response.write(response, true, "ok", callback);
            return true;
        });
        try (LoadTestServer server = new LoadTestServer(leaks.pool(), fields)) {
            LoadResult result = LoadGenerator.builder(URI.create(server.uri("/")))
                    .resource(Resource.read(har))
                    .header("Accept", "*/*")
                    .header("X-Run", "1")
                    .model(Model.CLOSED)
                    .iterations(2)
                    .build()
                    .run();
            assertEquals(0, result.errors(), () -> result.errorExamples().toString());
        }
        Map<String, Long> counts = new TreeMap<>();
        seen.forEach((line, count) -> counts.put(line, count.get()));
        assertEquals(Map.of(
                "/page accept=[text/html] x-page=yes x-run=1 host-is-target=true", 2L,
                "/style.css accept=[text/css] x-page=null x-run=1 host-is-target=true", 2L), counts);
    }
}
