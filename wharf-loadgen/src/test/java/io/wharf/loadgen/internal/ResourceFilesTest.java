package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(Resource.of("/",
                Resource.of("/app.js", Resource.of("/chunk.js?x=1")),
                Resource.of("https://cdn.example.test/font.woff2")), tree);
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
