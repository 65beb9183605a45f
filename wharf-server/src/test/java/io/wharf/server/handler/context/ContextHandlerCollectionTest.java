package io.wharf.server.handler.context;

import static io.wharf.server.handler.RoutingServer.content;
import static io.wharf.server.handler.RoutingServer.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.handler.RoutingServer;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ContextHandlerCollectionTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private RoutingServer local;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    /** A context at {@code path} answering "name path", inline. */
    private static ContextHandler context(String path, String name, String... virtualHosts) {
        ContextHandler context = new ContextHandler(path, Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Response.write(response, true, name + " " + request.getPathInContext(), callback);
            return true;
        }));
        context.setVirtualHosts(List.of(virtualHosts));
        return context;
    }

    @Test
    void longestMatchingContextPathWins() throws Exception {
        ContextHandlerCollection contexts = new ContextHandlerCollection(
                context("/", "root"), context("/a", "a"), context("/a/b", "ab"));
        local = new RoutingServer(leaks.pool()).start(contexts);
        assertEquals("ab /c", content(local.get("h", "/a/b/c")));
        assertEquals("ab /", content(local.get("h", "/a/b/")));
        assertEquals("a /bc", content(local.get("h", "/a/bc")));
        assertEquals("a /x", content(local.get("h", "/a/x")));
        assertEquals("root /ab", content(local.get("h", "/ab")));
        assertEquals("root /", content(local.get("h", "/")));
        assertEquals(301, status(local.get("h", "/a/b")));
    }

    @Test
    void virtualHostContextsComeBeforeTheCatchAllOfTheSamePath() throws Exception {
        ContextHandlerCollection contexts = new ContextHandlerCollection(
                context("/", "default"), context("/", "one", "one.com"), context("/", "two", "two.com", "*.two.com"));
        local = new RoutingServer(leaks.pool()).start(contexts);
        assertEquals("one /x", content(local.get("one.com", "/x")));
        assertEquals("two /x", content(local.get("two.com", "/x")));
        assertEquals("two /x", content(local.get("www.two.com", "/x")));
        assertEquals("default /x", content(local.get("three.com", "/x")));
    }

    @Test
    void aContextOfAnotherHostFallsBackToAShorterPath() throws Exception {
        ContextHandlerCollection contexts = new ContextHandlerCollection(
                context("/", "root"), context("/app", "app", "app.com"));
        local = new RoutingServer(leaks.pool()).start(contexts);
        assertEquals("app /x", content(local.get("app.com", "/app/x")));
        assertEquals("root /app/x", content(local.get("other.com", "/app/x")));
    }

    @Test
    void noMatchingContextAnswers404() throws Exception {
        local = new RoutingServer(leaks.pool()).start(new ContextHandlerCollection(context("/a", "a"), context("/b", "b", "b.com")));
        assertEquals(404, status(local.get("h", "/c")));
        assertEquals(404, status(local.get("h", "/b/x")));
    }

    @Test
    void routesAmongTwoHundredContexts() throws Exception {
        ContextHandlerCollection contexts = new ContextHandlerCollection();
        for (int i = 0; i < 200; i++) {
            contexts.addHandler(context("/c" + i, "c" + i));
        }
        local = new RoutingServer(leaks.pool()).start(contexts);
        for (int i = 0; i < 200; i++) {
            assertEquals("c" + i + " /x", content(local.get("h", "/c" + i + "/x")));
        }
        assertEquals(404, status(local.get("h", "/c200/x")));
        assertEquals(404, status(local.get("h", "/c")));
    }

    @Test
    void addingAndRemovingWhileRunningStartsAndStopsContexts() throws Exception {
        ContextHandlerCollection contexts = new ContextHandlerCollection(context("/a", "a"));
        local = new RoutingServer(leaks.pool()).start(contexts);
        ContextHandler b = context("/b", "b");
        contexts.addHandler(b);
        assertTrue(b.isStarted());
        assertEquals("b /x", content(local.get("h", "/b/x")));
        contexts.removeHandler(b);
        assertFalse(b.isRunning());
        assertEquals(404, status(local.get("h", "/b/x")));
    }

    @Test
    void invocationTypeCombinesTheContexts() {
        ContextHandlerCollection contexts = new ContextHandlerCollection(context("/a", "a"));
        assertEquals(InvocationType.NON_BLOCKING, contexts.invocationType());
        contexts.addHandler(new ContextHandler("/b", Handler.of((request, response, callback) -> false)));
        assertEquals(InvocationType.BLOCKING, contexts.invocationType());
    }
}
