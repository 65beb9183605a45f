package io.wharf.server.handler.context;

import static io.wharf.server.handler.RoutingServer.WAIT;
import static io.wharf.server.handler.RoutingServer.content;
import static io.wharf.server.handler.RoutingServer.crlf;
import static io.wharf.server.handler.RoutingServer.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.io.Content;
import io.wharf.server.Handler;
import io.wharf.server.LocalConnector;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.handler.RoutingServer;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class ContextHandlerTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private RoutingServer local;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    private RoutingServer start(Handler handler) throws Exception {
        local = new RoutingServer(leaks.pool()).start(handler);
        return local;
    }

    /** Answers "contextPath=... path=...", inline. */
    private static Handler paths() {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Response.write(response, true, "contextPath=" + request.getContextPath() + " path=" + request.getPathInContext(), callback);
            return true;
        });
    }

    @Test
    void stripsTheContextPathForTheChild() throws Exception {
        start(new ContextHandler("/app", paths()));
        assertEquals("contextPath=/app path=/x/y", content(local.get("h", "/app/x/y")));
        assertEquals("contextPath=/app path=/", content(local.get("h", "/app/")));
        assertEquals("contextPath=/app path=/a b", content(local.get("h", "/app/a%20b")));
    }

    @Test
    void doesNotMatchAPathThatMerelyStartsWithTheContextPath() throws Exception {
        start(new ContextHandler("/app", paths()));
        assertEquals(404, status(local.get("h", "/application")));
        assertEquals(404, status(local.get("h", "/ap")));
        assertEquals(404, status(local.get("h", "/")));
    }

    @Test
    void redirectsTheBareContextPathKeepingTheQuery() throws Exception {
        start(new ContextHandler("/app", paths()));
        assertEquals(crlf("""
                HTTP/1.1 301 Moved Permanently
                Location: /app/?a=1&b=2
                Content-Length: 0

                """), local.get("h", "/app?a=1&b=2"));
        String post = local.get("""
                POST /app HTTP/1.1
                Host: h
                Content-Length: 0

                """);
        assertEquals(308, status(post), post);
        assertTrue(post.contains("Location: /app/\r\n"), post);
    }

    @Test
    void servesTheBareContextPathWhenToldTo() throws Exception {
        ContextHandler context = new ContextHandler("/app", paths());
        context.setServeBareContextPath(true);
        start(context);
        assertEquals("contextPath=/app path=/", content(local.get("h", "/app")));
    }

    @Test
    void rootContextKeepsThePath() throws Exception {
        ContextHandler context = new ContextHandler("/", paths());
        assertEquals("/", context.getContextPath());
        start(context);
        assertEquals("contextPath= path=/x", content(local.get("h", "/x")));
    }

    @Test
    void nestedContextsAddUpTheirPaths() throws Exception {
        start(new ContextHandler("/outer", new ContextHandler("/inner", paths())));
        assertEquals("contextPath=/outer/inner path=/x", content(local.get("h", "/outer/inner/x")));
        String redirect = local.get("h", "/outer/inner");
        assertTrue(redirect.contains("Location: /outer/inner/\r\n"), redirect);
    }

    @Test
    void rejectsMalformedContextPaths() {
        for (String bad : List.of("app", "/app/", "/a//b", "/a/../b", "/a*", "/a?b")) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> new ContextHandler(bad));
            assertTrue(x.getMessage().contains(bad), x.getMessage());
        }
    }

    @Test
    void virtualHostsMatchExactNamesAndOneLabelWildcardsIgnoringCase() throws Exception {
        ContextHandler context = new ContextHandler("/", paths());
        context.setVirtualHosts(List.of("example.com", "*.example.org"));
        start(context);
        assertEquals(200, status(local.get("example.com", "/")));
        assertEquals(200, status(local.get("EXAMPLE.Com:8080", "/")));
        assertEquals(200, status(local.get("example.com.", "/")));
        assertEquals(200, status(local.get("www.example.org", "/")));
        assertEquals(200, status(local.get("WWW.Example.ORG", "/")));
        assertEquals(404, status(local.get("example.org", "/")));
        assertEquals(404, status(local.get("a.b.example.org", "/")));
        assertEquals(404, status(local.get("www.example.com", "/")));
        assertEquals(404, status(local.get("other.net", "/")));
    }

    @Test
    void virtualHostsBindToANamedConnector() throws Exception {
        ContextHandler internal = new ContextHandler("/", paths());
        internal.setVirtualHosts(List.of("@internal"));
        local = new RoutingServer(leaks.pool());
        local.connector.setName("internal");
        local.start(internal);
        assertEquals(200, status(local.get("anything", "/")));
        internal.setVirtualHosts(List.of("@public"));
        assertEquals(404, status(local.get("anything", "/")));
        internal.setVirtualHosts(List.of("@internal", "example.com"));
        assertEquals(200, status(local.get("example.com", "/")));
        assertEquals(404, status(local.get("other.com", "/")));
    }

    @Test
    void rejectsMalformedVirtualHosts() {
        ContextHandler context = new ContextHandler();
        for (String bad : List.of("@", "*.", "a*.example.com", "")) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> context.setVirtualHosts(List.of(bad)));
            assertTrue(x.getMessage().contains("'" + bad + "'"), x.getMessage());
        }
    }

    @Test
    void setsTheClassLoaderWhileTheChildHandlesAndRestoresIt() throws Exception {
        ClassLoader contextLoader = new URLClassLoader("context", new URL[0], getClass().getClassLoader());
        AtomicReference<ClassLoader> during = new AtomicReference<>();
        AtomicReference<ClassLoader> before = new AtomicReference<>();
        AtomicReference<ClassLoader> after = new AtomicReference<>();
        CountDownLatch returned = new CountDownLatch(1);
        ContextHandler context = new ContextHandler("/app", Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            during.set(Thread.currentThread().getContextClassLoader());
            Response.write(response, true, "ok", callback);
            return true;
        }));
        context.setClassLoader(contextLoader);
        Handler.Wrapper outer = new Handler.Wrapper(context) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                before.set(Thread.currentThread().getContextClassLoader());
                try {
                    return super.handle(request, response, callback);
                } finally {
                    after.set(Thread.currentThread().getContextClassLoader());
                    returned.countDown();
                }
            }
        };
        start(outer);
        assertEquals("ok", content(local.get("h", "/app/x")));
        // The response can reach the client before handle() returns: wait for the return.
        assertTrue(returned.await(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertSame(contextLoader, during.get());
        assertTrue(before.get() != contextLoader);
        assertSame(before.get(), after.get());
    }

    @Test
    void setsTheClassLoaderDuringDemandCallbacks() throws Exception {
        ClassLoader contextLoader = new URLClassLoader("context", new URL[0], getClass().getClassLoader());
        CountDownLatch demanded = new CountDownLatch(1);
        AtomicReference<ClassLoader> inDemand = new AtomicReference<>();
        ContextHandler context = new ContextHandler("/app", Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Runnable reader = new Runnable() {
                private final StringBuilder body = new StringBuilder();

                @Override
                public void run() {
                    inDemand.compareAndSet(null, Thread.currentThread().getContextClassLoader());
                    while (true) {
                        Content.Chunk chunk = request.read();
                        if (chunk == null) {
                            request.demand(this);
                            return;
                        }
                        body.append(java.nio.charset.StandardCharsets.UTF_8.decode(chunk.getByteBuffer()));
                        chunk.release();
                        if (chunk.isLast()) {
                            Response.write(response, true, "read " + body, callback);
                            return;
                        }
                    }
                }
            };
            request.demand(reader);
            demanded.countDown();
            return true;
        }));
        context.setClassLoader(contextLoader);
        start(context);
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf("""
                    POST /app/upload HTTP/1.1
                    Host: h
                    Content-Length: 5

                    """));
            assertTrue(demanded.await(WAIT.toSeconds(), TimeUnit.SECONDS));
            client.send("hello");
            assertEquals("read hello", content(client.readResponse(WAIT)));
        }
        assertSame(contextLoader, inDemand.get());
    }

    @Test
    void unavailableContextAnswers503() throws Exception {
        ContextHandler context = new ContextHandler("/app", paths());
        start(context);
        context.setAvailable(false);
        assertEquals(503, status(local.get("h", "/app/x")));
        assertEquals(404, status(local.get("h", "/other")));
        context.setAvailable(true);
        assertEquals(200, status(local.get("h", "/app/x")));
    }

    @Test
    void contextAttributesAreVisibleToTheChild() throws Exception {
        ContextHandler context = new ContextHandler("/app", Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            ContextHandler.Context found = ContextHandler.getContext(request);
            request.setAttribute("shadowed", "request");
            Response.write(response, true, found.getDisplayName() + " " + found.getAttribute("greeting")
                    + " " + request.getAttribute("greeting") + " " + request.getAttribute("shadowed")
                    + " " + request.getAttributeNames().contains("greeting"), callback);
            return true;
        }));
        context.setDisplayName("shop");
        context.getContext().setAttribute("greeting", "hello");
        context.getContext().setAttribute("shadowed", "context");
        start(context);
        assertEquals("shop hello hello request true", content(local.get("h", "/app/")));
        context.getContext().removeAttribute("greeting");
        assertEquals("shop null null request false", content(local.get("h", "/app/")));
    }

    @Test
    void noContextAboveARequestMeansNoContext() throws Exception {
        AtomicReference<Object> found = new AtomicReference<>("unset");
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            found.set(ContextHandler.getContext(request));
            Response.write(response, true, "ok", callback);
            return true;
        }));
        assertEquals(200, status(local.get("h", "/")));
        assertNull(found.get());
    }

    @Test
    void createsTheTempDirectoryOnStart(@TempDir Path root) throws Exception {
        Path temp = root.resolve("work/app");
        ContextHandler context = new ContextHandler("/app", paths());
        context.setTempDirectory(temp);
        start(context);
        assertTrue(Files.isDirectory(temp));
        assertEquals(temp, context.getContext().getTempDirectory());
    }
}
