package io.wharf.server.handler;

import static io.wharf.server.handler.RoutingServer.content;
import static io.wharf.server.handler.RoutingServer.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;

import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PathMappingsHandlerTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private RoutingServer local;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    /** Answers "name pathInContext {parameters}", inline. */
    private static Handler named(String name) {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Map<String, String> parameters = new TreeMap<>(PathMappingsHandler.getParameters(request));
            Response.write(response, true, name + " " + request.getPathInContext() + " " + parameters, callback);
            return true;
        });
    }

    private PathMappingsHandler everyKind() {
        PathMappingsHandler mappings = new PathMappingsHandler();
        mappings.addMapping("/status", named("exact"));
        mappings.addMapping("/api/*", named("prefix"));
        mappings.addMapping("*.css", named("suffix"));
        mappings.addMapping("^/items/(?<id>[0-9]+)$", named("regex"));
        mappings.addMapping("/users/{user}/posts/{post}", named("template"));
        return mappings;
    }

    @Test
    void eachKindOfSpecRoutesToItsHandler() throws Exception {
        local = new RoutingServer(leaks.pool()).start(everyKind());
        assertEquals("exact /status {}", content(local.get("h", "/status")));
        assertEquals("prefix /api/v1/things {}", content(local.get("h", "/api/v1/things")));
        assertEquals("prefix /api {}", content(local.get("h", "/api")));
        assertEquals("suffix /static/site.css {}", content(local.get("h", "/static/site.css")));
        assertEquals("regex /items/42 {1=42, id=42}", content(local.get("h", "/items/42")));
        assertEquals("template /users/ann/posts/7 {post=7, user=ann}", content(local.get("h", "/users/ann/posts/7")));
    }

    @Test
    void templateVariablesReachTheChildDecoded() throws Exception {
        PathMappingsHandler mappings = new PathMappingsHandler();
        mappings.addMapping("/files/{name}", Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Response.write(response, true, "name=" + PathMappingsHandler.getParameters(request).get("name")
                    + " match=" + PathMappingsHandler.getMatchedPath(request).getPathMatch(), callback);
            return true;
        }));
        local = new RoutingServer(leaks.pool()).start(mappings);
        assertEquals("name=a b match=/files/a b", content(local.get("h", "/files/a%20b")));
    }

    @Test
    void noMatchingSpecAnswers404() throws Exception {
        local = new RoutingServer(leaks.pool()).start(everyKind());
        assertEquals(404, status(local.get("h", "/nothing/here")));
        assertEquals(404, status(local.get("h", "/items/abc")));
        assertEquals(404, status(local.get("h", "/statusx")));
    }

    @Test
    void exactBeatsPrefixAndLongerPrefixBeatsShorter() throws Exception {
        PathMappingsHandler mappings = new PathMappingsHandler();
        mappings.addMapping("/*", named("all"));
        mappings.addMapping("/a/*", named("a"));
        mappings.addMapping("/a/b/*", named("ab"));
        mappings.addMapping("/a/b/c", named("abc"));
        local = new RoutingServer(leaks.pool()).start(mappings);
        assertEquals("abc /a/b/c {}", content(local.get("h", "/a/b/c")));
        assertEquals("ab /a/b/d {}", content(local.get("h", "/a/b/d")));
        assertEquals("a /a/x {}", content(local.get("h", "/a/x")));
        assertEquals("all /x {}", content(local.get("h", "/x")));
    }

    @Test
    void onlyTheBestMatchIsAskedEvenWhenItPasses() throws Exception {
        PathMappingsHandler mappings = new PathMappingsHandler();
        mappings.addMapping("/*", named("fallback"));
        mappings.addMapping("/private/*", Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> false));
        local = new RoutingServer(leaks.pool()).start(mappings);
        assertEquals(404, status(local.get("h", "/private/x")));
        assertEquals("fallback /public {}", content(local.get("h", "/public")));
    }

    @Test
    void invocationTypeCombinesTheChildrenAndChildrenFollowTheLifecycle() throws Exception {
        PathMappingsHandler mappings = new PathMappingsHandler();
        assertEquals(InvocationType.NON_BLOCKING, mappings.invocationType());
        Handler inline = named("inline");
        mappings.addMapping("/a", inline);
        assertEquals(InvocationType.NON_BLOCKING, mappings.invocationType());
        Handler blocking = Handler.of((request, response, callback) -> {
            Response.write(response, true, "blocking", callback);
            return true;
        });
        mappings.addMapping("/b", blocking);
        assertEquals(InvocationType.BLOCKING, mappings.invocationType());

        local = new RoutingServer(leaks.pool()).start(mappings);
        assertTrue(inline.isStarted());
        assertTrue(blocking.isStarted());
        assertEquals("blocking", content(local.get("h", "/b")));

        Handler replacement = named("replacement");
        mappings.addMapping("/b", replacement);
        assertTrue(replacement.isStarted());
        assertFalse(blocking.isRunning(), "the replaced child is stopped");
        assertEquals(InvocationType.NON_BLOCKING, mappings.invocationType());
        assertEquals("replacement /b {}", content(local.get("h", "/b")));

        local.close();
        assertFalse(inline.isRunning());
        local = null;
    }

    @Test
    void regexOverItsStepBudgetAnswers400() throws Exception {
        PathMappingsHandler mappings = new PathMappingsHandler();
        mappings.addMapping("^/(.*a){12}$", named("catastrophic"));
        local = new RoutingServer(leaks.pool()).start(mappings);
        String response = local.get("h", "/" + "a".repeat(28) + "!");
        assertEquals(400, status(response), response);
    }
}
