package io.wharf.server.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.wharf.http.HttpFields;
import io.wharf.server.Handler;
import io.wharf.server.LocalConnector;
import io.wharf.server.LocalServer;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.handler.DefaultHandler;
import io.wharf.server.handler.PathMappingsHandler;
import io.wharf.server.handler.SizeLimitHandler;
import io.wharf.server.handler.StatisticsHandler;
import io.wharf.server.handler.context.ContextHandler;
import io.wharf.server.handler.context.ContextHandlerCollection;
import io.wharf.server.handler.gzip.GzipHandler;
import io.wharf.server.handler.log.NcsaRequestLog;
import io.wharf.server.handler.log.RequestLogHandler;
import io.wharf.server.handler.log.RequestLogOutput;
import io.wharf.server.handler.push.PushHandler;
import io.wharf.server.handler.resource.ResourceHandler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Request targets that name no path — the authority form of {@code CONNECT host:port} and the
 * asterisk form of {@code OPTIONS *} (RFC 9112 sections 3.2.3 and 3.2.4), and an HTTP/2 CONNECT
 * without {@code :protocol} (RFC 9113 section 8.5) — through every standard handler, over
 * HTTP/1.1 and h2c, under the leak-tracking pool. {@link Request#getPathInContext()} is
 * {@code ""} for them; no handler takes them, and the server answers CONNECT with 405 and an
 * {@code Allow} field and {@code OPTIONS *} with 200 and {@code Allow}, never a 5xx.
 */
@Timeout(60)
class TargetsWithoutPathTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    static Path files;

    private LocalH2cServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private LocalConnector start(Handler handler) throws Exception {
        server = new LocalH2cServer(leaks.pool());
        return server.start(handler);
    }

    /** A handler that answers whatever reaches it, as a leaf of the trees under test would. */
    private static Handler answering() {
        return Handler.of((request, response, callback) -> {
            Response.write(response, true, "reached " + request.getPathInContext(), callback);
            return true;
        });
    }

    static Stream<Arguments> trees() throws Exception {
        Files.writeString(files.resolve("index.html"), "<p>index</p>");
        PathMappingsHandler mappings = new PathMappingsHandler();
        mappings.addMapping("/", answering());
        mappings.addMapping("^.*$", answering());
        List<Supplier<Handler>> trees = List.of(
                () -> null,
                DefaultHandler::new,
                () -> new ContextHandler("", answering()),
                () -> new ContextHandler("/app", answering()),
                () -> new ContextHandlerCollection(new ContextHandler("", answering()), new ContextHandler("/app", answering())),
                () -> new ResourceHandler(files),
                () -> new ContextHandler("", new ResourceHandler(files)),
                () -> new GzipHandler(new DefaultHandler()),
                () -> new PushHandler(new io.wharf.server.handler.push.ReferrerPushStrategy(), new DefaultHandler()),
                () -> new SizeLimitHandler(4096, 4096, new DefaultHandler()),
                () -> mappings,
                () -> new StatisticsHandler(new DefaultHandler()),
                () -> new RequestLogHandler(new NcsaRequestLog(RequestLogOutput.of(new StringBuilder())), new DefaultHandler()));
        return trees.stream().map(tree -> {
            Handler handler = tree.get();
            return Arguments.of(handler == null ? "no handler" : handler.getClass().getSimpleName(), handler);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void http1ConnectGets405WithAllow(String name, Handler handler) throws Exception {
        String response = start(handler).getResponse(LocalServer.crlf("""
                CONNECT 127.0.0.1:22 HTTP/1.1
                Host: 127.0.0.1:22

                """));
        assertTrue(response.startsWith("HTTP/1.1 405 "), response);
        assertTrue(response.contains("\r\nAllow: GET, HEAD, POST, PUT, DELETE, OPTIONS\r\n"), response);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void http1OptionsAsteriskGets200WithAllow(String name, Handler handler) throws Exception {
        String response = start(handler).getResponse(LocalServer.crlf("""
                OPTIONS * HTTP/1.1
                Host: localhost

                """));
        assertEquals(LocalServer.crlf("""
                HTTP/1.1 200 OK
                Allow: GET, HEAD, POST, PUT, DELETE, OPTIONS
                Content-Length: 0

                """), response);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void http2ConnectAndOptionsAsterisk(String name, Handler handler) throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(handler)).start()) {
            client.headers(1, HttpFields.build().add(":method", "CONNECT").add(":authority", "127.0.0.1:22"), true);
            String connect = client.await("HEADERS 1");
            assertTrue(connect.startsWith("HEADERS 1 :status=405 allow=GET, HEAD, POST, PUT, DELETE, OPTIONS "), connect);
            client.headers(3, RawHttp2Client.request("OPTIONS", "*"), true);
            assertEquals("HEADERS 3 :status=200 allow=GET, HEAD, POST, PUT, DELETE, OPTIONS content-length=0 END_STREAM",
                    client.await("HEADERS 3"));
        }
    }

    /** The definition itself: the path in context of a target without a path is empty, never null. */
    @Test
    void thePathInContextOfATargetWithoutPathIsEmpty() throws Exception {
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        LocalConnector connector = start(Handler.of((request, response, callback) -> {
            seen.add(request.getMethod() + " [" + request.getPathInContext() + "]");
            callback.succeeded();
            return true;
        }));
        connector.getResponse("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
        assertEquals("CONNECT []", seen.poll(10, TimeUnit.SECONDS));
        connector.getResponse("OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assertEquals("OPTIONS []", seen.poll(10, TimeUnit.SECONDS));
        try (RawHttp2Client client = new RawHttp2Client(connector).start()) {
            client.headers(1, HttpFields.build().add(":method", "CONNECT").add(":authority", "example.com:443"), true);
            client.await("HEADERS 1");
            assertEquals("CONNECT []", seen.poll(10, TimeUnit.SECONDS));
            client.headers(3, RawHttp2Client.request("OPTIONS", "*"), true);
            client.await("HEADERS 3");
            assertEquals("OPTIONS []", seen.poll(10, TimeUnit.SECONDS));
        }
    }

    /** Asterisk form is for OPTIONS only (RFC 9112 section 3.2.4, RFC 9113 section 8.3.1): other methods get 400. */
    @Test
    void asteriskFormWithAnotherMethodIsBad() throws Exception {
        LocalConnector connector = start(answering());
        String response = connector.getResponse("GET * HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 400 "), response);
        try (RawHttp2Client client = new RawHttp2Client(connector).start()) {
            client.headers(1, RawHttp2Client.request("GET", "*"), true);
            String answer = client.await(frame -> frame.startsWith("HEADERS 1") || frame.startsWith("RST_STREAM 1"));
            assertTrue(answer.startsWith("HEADERS 1 :status=400") || answer.startsWith("RST_STREAM 1 PROTOCOL_ERROR"), answer);
        }
    }
}
