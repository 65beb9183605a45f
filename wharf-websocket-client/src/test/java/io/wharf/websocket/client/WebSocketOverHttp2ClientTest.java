package io.wharf.websocket.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;


import io.wharf.client.HttpClient;
import io.wharf.client.HttpTransport;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.ServerTlsContext;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.testing.CloseOnRequestEcho;
import io.wharf.websocket.testing.RecordingListener;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.deflate.PerMessageDeflateFactory;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wharf's WebSocket client against Wharf's server over HTTP/2 (RFC 8441), over loopback, under
 * the leak-tracking pool both share: echo of text and binary of many sizes over h2c and over h2
 * (TLS, ALPN) with 65,535-octet stream windows both ways (so every large message waits for
 * WINDOW_UPDATEs), with and without permessage-deflate; the close started by either side; and the
 * failures: a server without SETTINGS_ENABLE_CONNECT_PROTOCOL, a 404, a TLS server without h2.
 * Each handshake offers its own protocol by ALPN, whatever the HttpClient's transport offers.
 */
@Timeout(60)
class WebSocketOverHttp2ClientTest {

    private static final long WAIT = 10;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private final SessionConfiguration serverHttp2 = new SessionConfiguration().setInitialStreamWindow(65_535);
    private final BlockingQueue<String> serverEvents = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> clientEvents = new LinkedBlockingQueue<>();
    private Server server;
    private int port;
    private HttpClient httpClient;

    @AfterEach
    void stop() throws Exception {
        if (httpClient != null) {
            httpClient.stop();
        }
        if (server != null) {
            server.stop();
        }
    }

    private WebSocketConfiguration serverSessions = WebSocketConfiguration.defaults().withMaxMessageSize(4 * 1024 * 1024);
    private java.time.Duration connectionIdleTimeout = java.time.Duration.ofSeconds(30);

    private boolean tlsWithHttp2 = true;

    private void startServer(boolean tls) throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.setConfiguration(serverSessions);
        handler.addExtension(new PerMessageDeflateFactory());
        handler.addMapping("/echo", (request, response) -> {
            serverEvents.add("handshake:" + request.request().getConnectionMetaData().getHttpVersion() + ":"
                + request.request().getHeaders().get("X-Token") + ":" + request.subprotocols() + ":"
                + request.request().getHeaders().get("Sec-WebSocket-Extensions"));
            if (request.subprotocols().contains("chat")) {
                response.setSubprotocol("chat");
            }
            return new CloseOnRequestEcho(serverEvents::add);
        });
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration http = new HttpConfiguration();
        ServerConnector connector = tls
            ? tlsWithHttp2
                ? new ServerConnector(server, 1, new TlsConnectionFactory(serverTls()), new HttpConnectionFactory(http),
                    new Http2ConnectionFactory(http, serverHttp2))
                : new ServerConnector(server, 1, new TlsConnectionFactory(serverTls()), new HttpConnectionFactory(http))
            : new ServerConnector(server, 1, new HttpConnectionFactory(http), new Http2CleartextConnectionFactory(http, serverHttp2));
        connector.setHost("127.0.0.1");
        connector.setIdleTimeout(connectionIdleTimeout);
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
        port = connector.getLocalPort();
    }

    private TestTls tls;

    private ServerTlsContext serverTls() throws Exception {
        tls = TestTls.in(directory);
        return tls.server();
    }

    private WebSocketClient client(HttpTransport transport, boolean deflate) throws Exception {
        httpClient = new HttpClient(transport);
        httpClient.setByteBufferPool(leaks.pool());
        httpClient.getHttp2Configuration().setInitialStreamWindow(65_535);
        httpClient.setIdleTimeout(connectionIdleTimeout);
        if (tls != null) {
            httpClient.setSslContext(tls.client());
        }
        httpClient.start();
        WebSocketClient client = new WebSocketClient(httpClient);
        client.setConfiguration(WebSocketConfiguration.defaults().withMaxMessageSize(4 * 1024 * 1024));
        if (deflate) {
            client.addExtension(new PerMessageDeflateFactory());
        }
        return client;
    }

    private static String next(BlockingQueue<String> events) throws InterruptedException {
        String event = events.poll(WAIT, TimeUnit.SECONDS);
        assertNotNull(event, "no event within " + WAIT + " s");
        return event;
    }

    private void echoes(Session session, boolean deflate) throws Exception {
        Random random = new Random(8441);
        for (int size : new int[] {0, 1, 125, 126, 65_535, 65_536, 200_000, 1_000_000}) {
            String text = "ü".repeat(size / 2) + "a".repeat(size % 2);
            session.sendText(text).get(WAIT, TimeUnit.SECONDS);
            assertEquals("text:" + text, next(clientEvents), deflate + " text of " + size);
            byte[] bytes = new byte[size];
            random.nextBytes(bytes);
            session.sendBinary(ByteBuffer.wrap(bytes)).get(WAIT, TimeUnit.SECONDS);
            assertEquals("binary:" + Arrays.hashCode(bytes) + ":" + size, next(clientEvents), deflate + " binary of " + size);
        }
    }

    @Test
    void echoesOverH2cWithAndWithoutPermessageDeflate() throws Exception {
        startServer(false);
        for (boolean deflate : new boolean[] {false, true}) {
            WebSocketClient client = client(HttpTransport.HTTP_1_1, deflate);
            Session session = client.connect(new RecordingListener(clientEvents::add), URI.create("ws://127.0.0.1:" + port + "/echo?q=1"),
                ClientUpgradeRequest.defaults().withHttp2(true).withHeader("X-Token", "t0k3n").withSubprotocols("chat", "superchat"))
                .get(WAIT, TimeUnit.SECONDS);
            assertEquals("handshake:HTTP/2.0:t0k3n:[chat, superchat]:"
                + (deflate ? "permessage-deflate; client_max_window_bits" : "null"), next(serverEvents));
            assertEquals("chat", session.getSubprotocol());
            echoes(session, deflate);
            session.close(CloseStatus.NORMAL, "client done");
            assertEquals("close:1000:client done", next(serverEvents));
            assertEquals("close:1000:", next(clientEvents));
            httpClient.stop();
        }
    }

    @Test
    void echoesOverH2WithTls() throws Exception {
        startServer(true);
        WebSocketClient client = client(HttpTransport.DYNAMIC, true);
        Session session = client.connect(new RecordingListener(clientEvents::add), URI.create("wss://localhost:" + port + "/echo"),
            ClientUpgradeRequest.defaults().withHttp2(true)).get(WAIT, TimeUnit.SECONDS);
        assertTrue(next(serverEvents).startsWith("handshake:HTTP/2.0:"));
        echoes(session, true);
        session.sendText("close-me:4321");
        assertEquals("close:4321:server closes", next(clientEvents));
        assertEquals("close:4321:", next(serverEvents));
    }

    @Test
    void theServerClosesWithItsCode() throws Exception {
        startServer(false);
        Session session = client(HttpTransport.HTTP_1_1, false).connect(new RecordingListener(clientEvents::add),
            URI.create("ws://127.0.0.1:" + port + "/echo"), ClientUpgradeRequest.defaults().withHttp2(true)).get(WAIT, TimeUnit.SECONDS);
        next(serverEvents);
        session.sendText("close-me:4001");
        assertEquals("close:4001:server closes", next(clientEvents));
        assertEquals("close:4001:", next(serverEvents));
        assertTrue(!session.isOpen());
    }

    @Test
    void stoppingTheServerClosesTheSessionWith1001() throws Exception {
        startServer(false);
        Session session = client(HttpTransport.HTTP_1_1, false).connect(new RecordingListener(clientEvents::add),
            URI.create("ws://127.0.0.1:" + port + "/echo"), ClientUpgradeRequest.defaults().withHttp2(true)).get(WAIT, TimeUnit.SECONDS);
        next(serverEvents);
        // The connect completes when the client read the 200, maybe before the server opened its side:
        // the server's shutdown also reaches a session that opens while it stops.
        long started = System.nanoTime();
        server.stop();
        // The server waited for the client's answer to its 1001 rather than for its stop timeout.
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "the stop took " + (System.nanoTime() - started) / 1_000_000 + " ms");
        assertEquals("close:1001:server stopping", next(clientEvents));
        assertEquals("close:1001:", next(serverEvents));
        assertTrue(!session.isOpen());
    }

    @Test
    void theSessionsIdleTimeoutGovernsNotTheConnections() throws Exception {
        connectionIdleTimeout = java.time.Duration.ofMillis(300);
        serverSessions = serverSessions.withTimeouts(java.time.Duration.ofMillis(1500), java.time.Duration.ofSeconds(5));
        startServer(false);
        WebSocketClient client = client(HttpTransport.HTTP_1_1, false);
        Session session = client.connect(new RecordingListener(clientEvents::add), URI.create("ws://127.0.0.1:" + port + "/echo"),
            ClientUpgradeRequest.defaults().withHttp2(true)).get(WAIT, TimeUnit.SECONDS);
        next(serverEvents);
        // Both HTTP/2 connections idle past their 300 ms: they stay, as the WebSocket on them is open.
        Thread.sleep(900);
        session.sendText("still here").get(WAIT, TimeUnit.SECONDS);
        assertEquals("text:still here", next(clientEvents));
        // The session idles past its own 1.5 s: the server closes it with 1001.
        assertEquals("close:1001:idle timeout", next(clientEvents));
        assertTrue(next(serverEvents).startsWith("close:1001"));
    }

    @Test
    void aServerWithoutExtendedConnectIsRefusedClearly() throws Exception {
        serverHttp2.setConnectProtocolEnabled(false);
        startServer(false);
        WebSocketClient client = client(HttpTransport.HTTP_1_1, false);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.connect(new RecordingListener(clientEvents::add),
            URI.create("ws://127.0.0.1:" + port + "/echo"), ClientUpgradeRequest.defaults().withHttp2(true)).get(WAIT, TimeUnit.SECONDS));
        WebSocketHandshakeException handshake = assertInstanceOf(WebSocketHandshakeException.class, failed.getCause());
        assertTrue(handshake.getMessage().contains("did not enable extended CONNECT (SETTINGS_ENABLE_CONNECT_PROTOCOL)"),
            handshake.getMessage());
    }

    @Test
    void aRefusedHandshakeNamesTheStatus() throws Exception {
        startServer(false);
        WebSocketClient client = client(HttpTransport.HTTP_1_1, false);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.connect(new RecordingListener(clientEvents::add),
            URI.create("ws://127.0.0.1:" + port + "/nowhere"), ClientUpgradeRequest.defaults().withHttp2(true)).get(WAIT, TimeUnit.SECONDS));
        WebSocketHandshakeException handshake = assertInstanceOf(WebSocketHandshakeException.class, failed.getCause());
        assertEquals(404, handshake.getStatus(), handshake.getMessage());
        assertTrue(handshake.getMessage().contains("answered 404 instead of 200"), handshake.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> ClientUpgradeRequest.defaults().withHttp2(true).withHeader("Keep-Alive", "timeout=5"));
    }

    @Test
    void eachHandshakeOffersItsOwnProtocolByAlpnWhateverTheTransportOffers() throws Exception {
        startServer(true); // prefers h2 by ALPN
        WebSocketClient http1Only = client(HttpTransport.HTTP_1_1, false);
        Session overHttp2 = http1Only.connect(new RecordingListener(clientEvents::add), URI.create("wss://localhost:" + port + "/echo"),
            ClientUpgradeRequest.defaults().withHttp2(true)).get(WAIT, TimeUnit.SECONDS);
        assertTrue(next(serverEvents).startsWith("handshake:HTTP/2.0:"));
        overHttp2.close(CloseStatus.NORMAL, "done");
        assertEquals("close:1000:done", next(serverEvents));
        assertEquals("close:1000:", next(clientEvents));
        httpClient.stop();

        // A client whose requests offer h2 first still upgrades over HTTP/1.1 when asked to.
        WebSocketClient dynamic = client(HttpTransport.DYNAMIC, false);
        Session overHttp1 = dynamic.connect(new RecordingListener(clientEvents::add), URI.create("wss://localhost:" + port + "/echo"))
            .get(WAIT, TimeUnit.SECONDS);
        assertTrue(next(serverEvents).startsWith("handshake:HTTP/1.1:"));
        overHttp1.sendText("over http/1.1").get(WAIT, TimeUnit.SECONDS);
        assertEquals("text:over http/1.1", next(clientEvents));
        overHttp1.close(CloseStatus.NORMAL, "done");
        assertEquals("close:1000:done", next(serverEvents));
    }

    @Test
    void wssOverHttp2ToAServerWithoutH2FailsTheConnectClearly() throws Exception {
        tlsWithHttp2 = false;
        startServer(true);
        WebSocketClient client = client(HttpTransport.DYNAMIC, false);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.connect(new RecordingListener(clientEvents::add),
            URI.create("wss://localhost:" + port + "/echo"), ClientUpgradeRequest.defaults().withHttp2(true)).get(WAIT, TimeUnit.SECONDS));
        assertTrue(failed.getCause().getMessage().contains("none of the protocols offered by ALPN"), failed.getCause().toString());
        assertTrue(failed.getCause().getMessage().contains("localhost:" + port), failed.getCause().toString());
    }
}
