package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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
 *
 * <p>Chromium keeps its network log; when the socket did not go over HTTP/2 (it failed so once,
 * in a full run, and never alone), the failure quotes the log's sessions, settings and socket
 * jobs, which say why Chromium chose another connection.
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

        Path netLog = directory.resolve("netlog.json");
        chromium = Chromium.trusting(directory.resolve("profile"), certificates.resolve("demo.pem"), "--log-net-log=" + netLog);
        Chromium.Page tab = chromium.open("https://localhost:" + connector.getLocalPort() + "/");
        tab.await("document.readyState === 'complete' && location.pathname === '/'", "true"::equals, WAIT);
        assertEquals("h2", tab.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol"));
        String heard = tab.await("heard.join(' | ')", text -> !text.isEmpty(), WAIT);
        if (!"hello over HTTP/2.0".equals(heard)) {
            chromium.close();
            chromium = null;
            assertEquals("hello over HTTP/2.0", heard, "Chromium's network log:\n" + netLogSummary(netLog));
        }
    }

    private static final Pattern EVENT_TYPES = Pattern.compile("\"logEventTypes\":\\{([^}]*)}");
    private static final Pattern EVENT_TYPE = Pattern.compile("\"(\\w+)\":(\\d+)");
    private static final Pattern EVENT = Pattern.compile("^\\{(?:\"params\":(.*),)?\"phase\":\\d+,\"source\":\\{.*?\"id\":(\\d+).*?},\"time\":\"(\\d+)\",\"type\":(\\d+)}");
    private static final List<String> TELLING = List.of("HTTP2_SESSION", "WEBSOCKET", "HTTP_STREAM_JOB_CONTROLLER", "SOCKET_POOL", "SSL_CONNECT");

    /** @return the log's events about sessions, settings, WebSocket channels and socket jobs, one a line; read leniently */
    private static String netLogSummary(Path netLog) {
        try {
            String text = Files.readString(netLog);
            Matcher types = EVENT_TYPES.matcher(text);
            Map<String, String> names = new HashMap<>();
            if (types.find()) {
                Matcher type = EVENT_TYPE.matcher(types.group(1));
                while (type.find()) {
                    names.put(type.group(2), type.group(1));
                }
            }
            return text.lines().map(EVENT::matcher).filter(Matcher::find)
                    .map(event -> event.group(3) + " " + names.getOrDefault(event.group(4), event.group(4)) + " #" + event.group(2)
                            + (event.group(1) == null ? "" : " " + event.group(1).substring(0, Math.min(300, event.group(1).length()))))
                    .filter(line -> TELLING.stream().anyMatch(line::contains))
                    .collect(Collectors.joining("\n"));
        } catch (IOException | RuntimeException x) {
            return "(unreadable: " + x + ")";
        }
    }
}
