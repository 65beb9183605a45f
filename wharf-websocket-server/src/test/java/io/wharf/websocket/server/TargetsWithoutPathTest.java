package io.wharf.websocket.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import io.wharf.http.HttpFields;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.websocket.testing.CloseOnRequestEcho;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code CONNECT host:port} (HTTP/1.1 authority form), an HTTP/2 CONNECT without
 * {@code :protocol} and {@code OPTIONS *} (both versions) to a server whose only handler is a
 * {@link WebSocketUpgradeHandler}: they name no path, so the handler passes them on and the
 * server answers 405 and 200 with {@code Allow}, instead of the handler failing with a 500.
 * Over loopback (h2c by prior knowledge on the same port), under the leak-tracking pool.
 */
@Timeout(30)
class TargetsWithoutPathTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;
    private int port;

    @BeforeEach
    void start() throws Exception {
        WebSocketUpgradeHandler websocket = new WebSocketUpgradeHandler();
        websocket.addMapping("/", (request, response) -> new CloseOnRequestEcho(event -> { }, false));
        websocket.addMapping("/echo", (request, response) -> new CloseOnRequestEcho(event -> { }, false));
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration http = new HttpConfiguration();
        http.setSendDateHeader(false);
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, 1, new HttpConnectionFactory(http),
            new Http2CleartextConnectionFactory(http, new SessionConfiguration()));
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(websocket);
        server.start();
        port = connector.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    /** @return the response head to {@code request} sent on a new connection */
    private String head(String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.append((char) b);
            }
            return head.toString();
        }
    }

    @Test
    void http1ConnectIsRefusedWith405() throws Exception {
        String head = head("CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 405 "), head);
        assertTrue(head.contains("\r\nAllow: GET, HEAD, POST, PUT, DELETE, OPTIONS\r\n"), head);
    }

    @Test
    void http1OptionsAsteriskIsAnsweredWithAllow() throws Exception {
        assertEquals("HTTP/1.1 200 OK\r\nAllow: GET, HEAD, POST, PUT, DELETE, OPTIONS\r\nContent-Length: 0\r\n\r\n",
            head("OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n"));
    }

    @Test
    void http2ConnectWithoutProtocolAndOptionsAsterisk() throws Exception {
        try (RawHttp2WebSocketClient client = new RawHttp2WebSocketClient(port)) {
            client.start();
            client.headers(1, HttpFields.build().add(":method", "CONNECT").add(":authority", "127.0.0.1:22"), true);
            String connect = client.await("HEADERS 1");
            assertTrue(connect.startsWith("HEADERS 1 :status=405 allow=GET, HEAD, POST, PUT, DELETE, OPTIONS "), connect);
            client.headers(3, HttpFields.build().add(":method", "OPTIONS").add(":scheme", "http").add(":authority", "localhost")
                .add(":path", "*"), true);
            assertEquals("HEADERS 3 :status=200 allow=GET, HEAD, POST, PUT, DELETE, OPTIONS content-length=0 END_STREAM",
                client.await("HEADERS 3"));
            // The extended CONNECT to a mapped path still opens a session on the same connection.
            client.connect(5, RawHttp2WebSocketClient.extendedConnect("/echo"));
            assertEquals("HEADERS 5 :status=200", client.await("HEADERS 5"));
        }
    }

    @Test
    void aMappingMustBeAPath() {
        WebSocketUpgradeHandler websocket = new WebSocketUpgradeHandler();
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
            () -> websocket.addMapping("", (request, response) -> null));
        assertEquals("a WebSocket mapping is a path starting with '/', not \"\"", empty.getMessage());
        IllegalArgumentException asterisk = assertThrows(IllegalArgumentException.class,
            () -> websocket.addMapping("*", (request, response) -> null));
        assertEquals("a WebSocket mapping is a path starting with '/', not \"*\"", asterisk.getMessage());
    }
}
