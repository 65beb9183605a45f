package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.loadgen.Resource;

import org.junit.jupiter.api.Test;

class ResourceFilesTest {

    @Test
    void readsATree() {
        Resource tree = ResourceFiles.read("""
                {"path": "/index.html", "children": [
                  {"path": "/style.css"},
                  {"path": "/app.js", "children": [{"path": "/logo.png?v=2"}]}
                ]}
                """);
        assertEquals(Resource.of("/index.html", Resource.of("/style.css"), Resource.of("/app.js", Resource.of("/logo.png?v=2"))), tree);
        assertEquals(4, tree.size());
    }

    @Test
    void readsTheFirstPageOfAHarFileWithItsInitiators() {
        Resource tree = ResourceFiles.read("""
                {"log": {"version": "1.2", "pages": [{"id": "page_1"}, {"id": "page_2"}], "entries": [
                  {"pageref": "page_1", "request": {"method": "GET", "url": "https://example.test/"}},
                  {"pageref": "page_1", "request": {"method": "GET", "url": "https://example.test/app.js"},
                   "_initiator": {"type": "parser", "url": "https://example.test/"}},
                  {"pageref": "page_1", "request": {"method": "GET", "url": "https://example.test/chunk.js?x=1"},
                   "_initiator": {"type": "script", "url": "https://example.test/app.js"}},
                  {"pageref": "page_1", "request": {"method": "GET", "url": "https://cdn.example.test/font.woff2"}},
                  {"pageref": "page_1", "request": {"method": "GET", "url": "https://example.test/app.js"}},
                  {"pageref": "page_2", "request": {"method": "GET", "url": "https://example.test/other"}}
                ]}}
                """);
        Resource.Request get = Resource.Request.of("GET");
        assertEquals(Resource.of("/",
                Resource.of("/app.js", Resource.of("/chunk.js?x=1").with(get)).with(get),
                Resource.of("https://cdn.example.test/font.woff2").with(get)).with(get), tree);
    }

    @Test
    void takesEachHarEntrysMethodAndContent() {
        Resource tree = ResourceFiles.read("""
                {"log": {"entries": [
                  {"request": {"method": "GET", "url": "https://example.test/"}},
                  {"request": {"method": "POST", "url": "https://example.test/api", "postData": {"mimeType": "application/json", "text": "[1]"}}},
                  {"request": {"method": "GET", "url": "https://example.test/api"}},
                  {"request": {"method": "POST", "url": "https://example.test/api", "postData": {"mimeType": "application/json", "text": "[2]"}}},
                  {"request": {"method": "POST", "url": "https://example.test/form",
                    "postData": {"mimeType": "application/x-www-form-urlencoded; charset=UTF-8", "params": [{"name": "q", "value": "a b&c"}]}}},
                  {"request": {"method": "DELETE", "url": "https://example.test/api/1"}}
                ]}}
                """);
        assertEquals(Resource.of("/",
                Resource.of("/api").with(Resource.Request.of("POST", "[1]", "application/json")),
                Resource.of("/api").with(Resource.Request.of("GET")),
                Resource.of("/form").with(Resource.Request.of("POST", "q=a+b%26c", "application/x-www-form-urlencoded; charset=UTF-8")),
                Resource.of("/api/1").with(Resource.Request.of("DELETE"))).with(Resource.Request.of("GET")), tree);
        assertEquals("POST /api", tree.children().get(0).name());
        assertEquals("/api", tree.children().get(1).name());
    }

    /**
     * An entry's header fields go with it, but not those the client writes itself: pseudo-header
     * fields (a HAR of HTTP/2 has them), Host, the framing (Content-Length, Transfer-Encoding),
     * the connection's own (Connection, Keep-Alive, Upgrade, TE...) and Content-Type, which
     * comes from {@code postData}.
     */
    @Test
    void takesEachHarEntrysOwnHeaderFieldsButNotThoseTheClientWrites() {
        Resource tree = ResourceFiles.read("""
                {"log": {"entries": [
                  {"request": {"method": "POST", "url": "https://example.test/api", "headers": [
                    {"name": ":method", "value": "POST"}, {"name": ":authority", "value": "example.test"},
                    {"name": ":scheme", "value": "https"}, {"name": ":path", "value": "/api"},
                    {"name": "accept", "value": "application/json"}, {"name": "Host", "value": "example.test"},
                    {"name": "content-length", "value": "3"}, {"name": "Transfer-Encoding", "value": "chunked"},
                    {"name": "Connection", "value": "keep-alive"}, {"name": "Keep-Alive", "value": "timeout=5"},
                    {"name": "Proxy-Connection", "value": "keep-alive"}, {"name": "Upgrade", "value": "h2c"},
                    {"name": "TE", "value": "trailers"}, {"name": "Content-Type", "value": "application/json"},
                    {"name": "X-Requested-With", "value": "fetch"}, {"name": "accept", "value": "text/plain"}],
                    "postData": {"mimeType": "application/json", "text": "[1]"}}}
                ]}}
                """);
        assertEquals(Resource.of("/api").with(new Resource.Request("POST", "[1]".getBytes(StandardCharsets.UTF_8), "application/json",
                List.of(new HttpField("accept", "application/json"), new HttpField("X-Requested-With", "fetch"),
                        new HttpField("accept", "text/plain")))), tree);
    }

    @Test
    void namesABadHarHeaderField() {
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class, () -> ResourceFiles.read("""
                {"log": {"entries": [{"request": {"method": "GET", "url": "https://example.test/",
                  "headers": [{"name": "Bad Name", "value": "x"}]}}]}}
                """));
        assertTrue(name.getMessage().contains("log.entries[0].request.headers[0] has a name that is not an HTTP token: Bad Name"),
                name.getMessage());
        IllegalArgumentException value = assertThrows(IllegalArgumentException.class, () -> ResourceFiles.read("""
                {"log": {"entries": [{"request": {"method": "GET", "url": "https://example.test/",
                  "headers": [{"name": "Accept", "value": "a"}, {"name": "X-Smuggled", "value": "a\\r\\nHost: evil"}]}}]}}
                """));
        assertTrue(value.getMessage().contains("log.entries[0].request.headers[1] (X-Smuggled) has a value with a character"
                + " a field value cannot hold"), value.getMessage());
        IllegalArgumentException noValue = assertThrows(IllegalArgumentException.class, () -> ResourceFiles.read("""
                {"log": {"entries": [{"request": {"method": "GET", "url": "https://example.test/",
                  "headers": [{"name": "Accept"}]}}]}}
                """));
        assertTrue(noValue.getMessage().contains("log.entries[0].request.headers[0] (Accept) has no value string"), noValue.getMessage());
    }

    @Test
    void namesABadHarRequest() {
        IllegalArgumentException noMethod = assertThrows(IllegalArgumentException.class,
                () -> ResourceFiles.read("{\"log\": {\"entries\": [{\"request\": {\"url\": \"https://example.test/\"}}]}}"));
        assertTrue(noMethod.getMessage().contains("log.entries[0].request has no method"), noMethod.getMessage());
        IllegalArgumentException multipart = assertThrows(IllegalArgumentException.class, () -> ResourceFiles.read("""
                {"log": {"entries": [{"request": {"method": "POST", "url": "https://example.test/",
                  "postData": {"mimeType": "multipart/form-data", "params": [{"name": "a", "value": "b"}]}}}]}}
                """));
        assertTrue(multipart.getMessage().contains("log.entries[0].request.postData has params but no text"), multipart.getMessage());
    }

    @Test
    void namesWhatIsMissing() {
        IllegalArgumentException noPath = assertThrows(IllegalArgumentException.class,
                () -> ResourceFiles.read("{\"path\": \"/\", \"children\": [{\"href\": \"/x\"}]}"));
        assertTrue(noPath.getMessage().contains("has no \"path\""), noPath.getMessage());
        IllegalArgumentException noEntries = assertThrows(IllegalArgumentException.class,
                () -> ResourceFiles.read("{\"log\": {\"entries\": []}}"));
        assertTrue(noEntries.getMessage().contains("no entries"), noEntries.getMessage());
        IllegalArgumentException notATree = assertThrows(IllegalArgumentException.class, () -> ResourceFiles.read("[1]"));
        assertTrue(notATree.getMessage().contains("is not a JSON object"), notATree.getMessage());
    }
}
