package io.wharf.server.handler.push;

import static io.wharf.server.LocalServer.crlf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.LocalServer;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 103 Early Hints learned by the {@link ReferrerPushStrategy}: what a browser's requests teach
 * it, what a page then gets before its response, and what never gets hints. Exact bytes over the
 * in-memory connector, on the leak-tracking pool.
 */
class PushHandlerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private LocalServer local;
    private final ReferrerPushStrategy strategy = new ReferrerPushStrategy();

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    /** Serves every path with its own name as content, except /missing.png (404). */
    private void start() throws Exception {
        Handler site = Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            String path = request.getHttpURI().getPath();
            if (path.equals("/missing.png")) {
                response.setStatus(404);
            }
            Response.write(response, true, path, callback);
            return true;
        });
        local = new LocalServer(leaks.pool()).start(new PushHandler(strategy, site));
    }

    /** @return everything the server answers to one GET of {@code path} (on a connection it closes) */
    private String get(String path, String... headers) throws Exception {
        return getWith("HTTP/1.1", path, headers);
    }

    private String getWith(String version, String path, String... headers) throws Exception {
        StringBuilder request = new StringBuilder("GET " + path + " " + version + "\nHost: localhost\nConnection: close\n");
        for (String header : headers) {
            request.append(header).append('\n');
        }
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf(request.append('\n').toString()));
            return client.readUntilClosed(WAIT);
        }
    }

    private void browse(String page, String... resources) throws Exception {
        get(page);
        for (String resource : resources) {
            get(resource, "Referer: http://localhost" + page);
        }
    }

    @Test
    void aPageGetsTheResourcesBrowsersAskedForAfterIt() throws Exception {
        start();
        assertEquals(crlf("""
                HTTP/1.1 200 OK
                Connection: close
                Content-Length: 1

                """) + "/", get("/"), "nothing is known at first: no 103");
        browse("/", "/site.css", "/app.js?v=2", "/missing.png", "/font.woff2");
        assertEquals(crlf("""
                HTTP/1.1 103 Early Hints
                Link: </site.css>; rel=preload; as=style
                Link: </app.js?v=2>; rel=preload; as=script
                Link: </font.woff2>; rel=preload; as=font; crossorigin

                HTTP/1.1 200 OK
                Connection: close
                Content-Length: 1

                """) + "/", get("/"), "the 404 is not learned");
    }

    @Test
    void aStylesheetsImagesComeWithThePage() throws Exception {
        start();
        browse("/", "/site.css");
        get("/site.css", "Referer: http://localhost/");
        get("/bg.png", "Referer: http://localhost/site.css");
        assertEquals(List.of(PushResource.of("/site.css"), PushResource.of("/bg.png")), hintedFor("/"));
        assertFalse(get("/site.css").contains("103"), "a resource gets no hints itself");
    }

    @Test
    void noHintsForConditionalRequestsNorHttp10() throws Exception {
        start();
        browse("/", "/site.css");
        assertTrue(get("/").startsWith("HTTP/1.1 103 "));
        assertTrue(get("/", "If-None-Match: \"abc\"").startsWith("HTTP/1.1 200 "), "the browser has it cached");
        assertTrue(get("/", "If-Modified-Since: Sat, 21 Nov 2026 10:00:00 GMT").startsWith("HTTP/1.1 200 "));
        String http10 = getWith("HTTP/1.0", "/");
        assertTrue(http10.startsWith("HTTP/1.0 200 "), "HTTP/1.0 cannot parse a 1xx: " + http10);
    }

    @Test
    void otherOriginsAndLateRequestsTeachNothing() throws Exception {
        start();
        get("/");
        get("/evil.js", "Referer: http://attacker.example/");
        get("/other.js", "Referer: http://localhost:8081/");
        get("/bad.js", "Referer: not a uri");
        assertEquals(List.of(), hintedFor("/"));

        strategy.setAssociatePeriod(Duration.ZERO);
        get("/");
        Thread.sleep(5);
        get("/late.js", "Referer: http://localhost/");
        assertEquals(List.of(), hintedFor("/"), "after the associate period");
    }

    @Test
    void pagesAndAssociationsAreBounded() throws Exception {
        strategy.setMaxPages(3);
        strategy.setMaxAssociations(2);
        start();
        browse("/", "/1.js", "/2.js", "/3.js");
        assertEquals(List.of(PushResource.of("/1.js"), PushResource.of("/2.js")), hintedFor("/"));
        for (int i = 0; i < 10; i++) {
            get("/page" + i);
        }
        assertEquals(3, strategy.getPageCount());
    }

    @Test
    void theChildsWritesWaitForA103ThatCannotBeWrittenAtOnce() throws Exception {
        // A pipe of 8 bytes: the 103 stays pending until the client reads, while the child
        // writes at once and ends its exchange; nothing may overtake the 103 or fail.
        Server server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setSendDateHeader(false);
        configuration.setSendServerVersion(false);
        LocalConnector tiny = new LocalConnector(server, 8, new HttpConnectionFactory(configuration));
        server.addConnector(tiny);
        server.setHandler(new PushHandler(strategy, Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.write(false, ByteBuffer.wrap("one,".getBytes(StandardCharsets.US_ASCII)), Callback.from(
                    () -> Response.write(response, true, "two", callback), callback::failed));
            return true;
        })));
        server.start();
        try {
            for (String page : new String[] {"/", "/style.css"}) {
                try (LocalConnector.Client client = tiny.connect()) {
                    client.send(crlf("GET " + page + " HTTP/1.1\nHost: localhost\nConnection: close\n" + (page.equals("/") ? "" : "Referer: http://localhost/\n") + "\n"));
                    client.readUntilClosed(WAIT);
                }
            }
            try (LocalConnector.Client client = tiny.connect()) {
                client.send(crlf("GET / HTTP/1.1\nHost: localhost\nConnection: close\n\n"));
                assertEquals(crlf("""
                        HTTP/1.1 103 Early Hints
                        Link: </style.css>; rel=preload; as=style

                        HTTP/1.1 200 OK
                        Connection: close
                        Transfer-Encoding: chunked

                        4
                        one,
                        3
                        two
                        0

                        """), client.readUntilClosed(WAIT));
            }
        } finally {
            server.stop();
        }
    }

    /** @return the resources the strategy would hint now for a GET of {@code path}, read from a real 103 */
    private List<PushResource> hintedFor(String path) throws Exception {
        String answer = get(path);
        if (!answer.startsWith("HTTP/1.1 103 ")) {
            return List.of();
        }
        String hints = answer.substring(0, answer.indexOf("\r\n\r\n"));
        return hints.lines().filter(line -> line.startsWith("Link: <"))
                .map(line -> PushResource.of(line.substring("Link: <".length(), line.indexOf('>'))))
                .toList();
    }

    @Test
    void linkValuesNameWhatEachResourceIs() {
        assertEquals("</a.css>; rel=preload; as=style", PushResource.of("/a.css").asLinkValue());
        assertEquals("</img/x.JPG?s=1>; rel=preload; as=image", PushResource.of("/img/x.JPG?s=1").asLinkValue());
        assertEquals("</api.v1/data>; rel=preload; as=fetch", PushResource.of("/api.v1/data").asLinkValue());
    }
}
