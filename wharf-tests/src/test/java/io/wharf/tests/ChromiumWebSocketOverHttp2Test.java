package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;

import io.wharf.examples.DemoCertificate;
import io.wharf.http.HttpHeader;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.util.Callback;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Headless Chromium opens a {@code wss://} WebSocket over HTTP/2 (RFC 8441): a page loaded over
 * h2 from a server whose SETTINGS enable extended CONNECT opens a WebSocket to the same origin,
 * and Chromium sends it as an extended CONNECT on that h2 connection. The server's echo names
 * the HTTP version the handshake came with, so the page shows which way it went.
 */
@Timeout(120)
class ChromiumWebSocketOverHttp2Test {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String PAGE = """
            <!doctype html><meta charset="utf-8"><title>WebSocket over HTTP/2</title>
            <script>
            window.heard = [];
            const socket = new WebSocket('wss://' + location.host + '/ws');
            socket.onopen = () => socket.send('hello');
            socket.onmessage = event => heard.push(event.data);
            socket.onclose = event => heard.push('closed ' + event.code);
            </script>
            """;

    @TempDir
    Path directory;

    private Server server;
    private Chromium chromium;

    @AfterEach
    void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    /** Echoes text with the HTTP version of the handshake that opened the session. */
    static final class Echo implements WebSocketListener {
        private final String version;
        private Session session;

        Echo(String version) {
            this.version = version;
        }

        @Override
        public void onOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onText(String text) {
            session.sendText(text + " over " + version, Callback.NOOP);
        }
    }

    @Test
    void chromiumOpensItsWebSocketAsAnExtendedConnectOnTheH2Connection() throws Exception {
        Path certificates = directory.resolve("tls");
        server = new Server();
        ServerConnector connector = new ServerConnector(server, new TlsConnectionFactory(DemoCertificate.in(certificates)),
            new HttpConnectionFactory(), new Http2ConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        WebSocketUpgradeHandler websocket = new WebSocketUpgradeHandler();
        websocket.addMapping("/ws", (request, response) ->
            new Echo(request.request().getConnectionMetaData().getHttpVersion().asString()));
        Handler page = Handler.of((request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html;charset=utf-8");
            Response.write(response, true, PAGE, callback);
            return true;
        });
        server.setHandler(new Handler.Sequence(websocket, page));
        server.start();

        chromium = Chromium.trusting(directory.resolve("profile"), certificates.resolve("demo.pem"));
        Chromium.Page tab = chromium.open("https://localhost:" + connector.getLocalPort() + "/");
        tab.await("document.readyState === 'complete' && location.pathname === '/'", "true"::equals, WAIT);
        assertEquals("h2", tab.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol"));
        String heard = tab.await("heard.join(' | ')", text -> !text.isEmpty(), WAIT);
        assertEquals("hello over HTTP/2.0", heard);
    }
}
