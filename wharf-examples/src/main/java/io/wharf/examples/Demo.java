package io.wharf.examples;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import io.wharf.http.HttpField;
import io.wharf.http.MimeTypes;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.handler.DefaultHandler;
import io.wharf.server.handler.gzip.GzipHandler;
import io.wharf.server.handler.push.PushHandler;
import io.wharf.server.handler.push.ReferrerPushStrategy;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * {@code ./wharf demo [PORT [HTTPS_PORT]]}: a small site on http://localhost:8080 and
 * https://localhost:8443 — a home page listing what the demo shows, static files (with a large
 * file to try ranges), {@code /hello} (plain text), {@code /json}, {@code /echo} (the
 * request shown back), {@code /chat} (a WebSocket chat room, {@link ChatRoom}) and
 * {@code /push/} (a page with ten sub-resources, made in 200 ms, whose resources are pushed or
 * announced with 103 Early Hints once learned), compressed for clients that accept gzip, and
 * {@code /servlet/} (servlets: sessions, a filter, async, FORM login; {@link DemoServlets}). HTTPS uses a self-signed
 * certificate made at the first start ({@link DemoCertificate}). Ctrl-C stops it gracefully.
 */
public final class Demo {

    private static final ByteBuffer HELLO = ByteBuffer.wrap("Hello, World!".getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();
    private static final ByteBuffer JSON = ByteBuffer.wrap("{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();

    /** How long the push demo's page takes to make: the time 103 Early Hints let a browser use. */
    static final Duration PUSH_PAGE_THINK = Duration.ofMillis(200);

    private Demo() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        int httpsPort = args.length > 1 ? Integer.parseInt(args[1]) : 8443;
        Path certificates = Path.of(System.getProperty("wharf.demo.dir", ".wharf"), "demo-tls");
        Running demo = start(port, httpsPort, certificates);
        demo.server().setStopAtShutdown(true);
        System.out.println("Wharf demo on http://localhost:" + demo.httpPort() + "/ and https://localhost:" + demo.httpsPort()
            + "/ (self-signed: curl --cacert " + certificates.resolve("demo.pem") + ")  (Ctrl-C stops it)");
        demo.server().join();
    }

    /** A started demo server and the ports it listens on. */
    public record Running(Server server, int httpPort, int httpsPort) {
    }

    /**
     * Starts the demo: HTTP on {@code port}, HTTPS on {@code httpsPort} (0: any free port) with
     * the self-signed certificate kept in {@code certificates} (made there when missing).
     */
    public static Running start(int port, int httpsPort, Path certificates) throws Exception {
        Server server = new Server();
        // HTTP/1.1 and h2c (prior knowledge, or Upgrade from HTTP/1.1) on one port.
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
        connector.setPort(port);
        server.addConnector(connector);
        ServerConnector https = new ServerConnector(server, new TlsConnectionFactory(DemoCertificate.in(certificates)),
                new HttpConnectionFactory(), new Http2ConnectionFactory());
        https.setPort(httpsPort);
        server.addConnector(https);
        // The chat's WebSocket upgrades first, outside gzip: a 101 has no content to compress.
        // Pages get their learned sub-resources ahead: pushed to HTTP/2 clients that accept it, else 103 Early Hints.
        Path site = DemoSite.prepare();
        server.setHandler(new Handler.Sequence(new ChatRoom().handler(), DemoServlets.context(site), new PushHandler(new ReferrerPushStrategy(),
                new GzipHandler(new Handler.Sequence(routes(),
                        new ThinkingPage("/push/index.html", PUSH_PAGE_THINK, DemoSite.staticFiles(site)),
                        new DefaultHandler())))));
        server.start();
        return new Running(server, connector.getLocalPort(), https.getLocalPort());
    }

    /** The dynamic pages: /hello, /json, /echo and the chat page /chat; never blocking, so they run on the reading thread. */
    static Handler routes() {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> switch (request.getPathInContext()) {
            case "/hello" -> reply(response, callback, MimeTypes.Type.TEXT_PLAIN.getContentTypeField(), HELLO);
            case "/json" -> reply(response, callback, MimeTypes.Type.APPLICATION_JSON.getContentTypeField(), JSON);
            case "/echo" -> {
                EchoPage.respond(request, response, callback);
                yield true;
            }
            case "/chat" -> reply(response, callback, MimeTypes.Type.TEXT_HTML_UTF_8.getContentTypeField(), ChatPage.HTML);
            default -> false;
        });
    }

    private static boolean reply(Response response, Callback callback, HttpField contentType, ByteBuffer body) {
        response.getHeaders().put(contentType);
        response.write(true, body.slice(), callback);
        return true;
    }
}
