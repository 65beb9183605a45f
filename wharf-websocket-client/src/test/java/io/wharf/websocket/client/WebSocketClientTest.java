package io.wharf.websocket.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;


import io.wharf.client.HttpClient;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.testing.CloseOnRequestEcho;
import io.wharf.websocket.testing.RecordingListener;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.HandshakeKey;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.deflate.PerMessageDeflateFactory;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WebSocket client against Wharf's server over loopback, under the leak-tracking pool
 * shared by both: echo of text and binary (with and without permessage-deflate), pings and
 * pongs, close codes both ways, subprotocols and custom fields, wss against the TLS server,
 * and handshakes that fail (non-101, a bad accept, a subprotocol or extension not offered,
 * no answer in time) with a message naming the problem.
 */
class WebSocketClientTest {

    private static final long WAIT = 10;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private Server server;
    private int port;
    private HttpClient httpClient;
    private final BlockingQueue<String> serverEvents = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> clientEvents = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() throws Exception {
        if (httpClient != null) {
            httpClient.stop();
        }
        if (server != null) {
            server.stop();
        }
    }

    private void startServer(Function<Server, ServerConnector> connector, boolean deflate) throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.setConfiguration(WebSocketConfiguration.defaults().withMaxMessageSize(4 * 1024 * 1024));
        if (deflate) {
            handler.addExtension(new PerMessageDeflateFactory());
        }
        handler.addMapping("/echo", (request, response) -> {
            serverEvents.add("handshake:" + request.request().getHeaders().get("X-Token") + ":" + request.subprotocols()
                + ":" + request.request().getHeaders().get("Sec-WebSocket-Extensions"));
            if (request.subprotocols().contains("chat")) {
                response.setSubprotocol("chat");
            }
            return new CloseOnRequestEcho(serverEvents::add);
        });
        server = new Server(new QueuedThreadPool(), leaks.pool());
        ServerConnector serverConnector = connector.apply(server);
        serverConnector.setHost("127.0.0.1");
        server.addConnector(serverConnector);
        server.setHandler(handler);
        server.start();
        port = serverConnector.getLocalPort();
    }

    private void startServer(boolean deflate) throws Exception {
        startServer(s -> new ServerConnector(s, 1, new HttpConnectionFactory()), deflate);
    }

    private WebSocketClient client(boolean deflate) throws Exception {
        httpClient = new HttpClient();
        httpClient.setByteBufferPool(leaks.pool());
        return started(deflate);
    }

    private WebSocketClient started(boolean deflate) throws Exception {
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

    @Test
    void echoesWithAndWithoutPermessageDeflate() throws Exception {
        for (boolean deflate : new boolean[] {false, true}) {
            startServer(deflate);
            WebSocketClient client = client(deflate);
            Session session = client.connect(new RecordingListener(clientEvents::add), URI.create("ws://127.0.0.1:" + port + "/echo?q=1"),
                ClientUpgradeRequest.defaults().withHeader("X-Token", "t0k3n").withSubprotocols("chat", "superchat"))
                .get(WAIT, TimeUnit.SECONDS);
            assertEquals("handshake:t0k3n:[chat, superchat]:" + (deflate ? "permessage-deflate; client_max_window_bits" : "null"),
                next(serverEvents));
            assertEquals("chat", session.getSubprotocol());
            Random random = new Random(6455);
            for (int size : new int[] {0, 1, 125, 126, 65535, 65536, 1_000_000}) {
                String text = "ü".repeat(size / 2) + "a".repeat(size % 2);
                session.sendText(text).get(WAIT, TimeUnit.SECONDS);
                assertEquals("text:" + text, next(clientEvents), deflate + " text of " + size);
                byte[] bytes = new byte[size];
                random.nextBytes(bytes);
                session.sendBinary(ByteBuffer.wrap(bytes)).get(WAIT, TimeUnit.SECONDS);
                assertEquals("binary:" + java.util.Arrays.hashCode(bytes) + ":" + size, next(clientEvents), deflate + " binary of " + size);
            }
            session.sendPing(ByteBuffer.wrap("are you there".getBytes(StandardCharsets.UTF_8)));
            assertEquals("pong:are you there", next(clientEvents));
            assertEquals("ping:are you there", next(serverEvents));
            session.close(CloseStatus.NORMAL, "client done");
            assertEquals("close:1000:client done", next(serverEvents));
            // Each side reports the peer's close frame: the server's echo carries the code alone.
            assertEquals("close:1000:", next(clientEvents));
            httpClient.stop();
            server.stop();
        }
    }

    @Test
    void theServerClosesWithItsCode() throws Exception {
        startServer(true);
        Session session = client(true).connect(new RecordingListener(clientEvents::add), URI.create("ws://127.0.0.1:" + port + "/echo")).get(WAIT, TimeUnit.SECONDS);
        assertTrue(next(serverEvents).startsWith("handshake:"));
        session.sendText("close-me:4321");
        assertEquals("close:4321:server closes", next(clientEvents));
        assertEquals("close:4321:", next(serverEvents));
        assertTrue(!session.isOpen());
    }

    @Test
    void wssAgainstWharfsTlsServer() throws Exception {
        TestTls tls = TestTls.in(directory);
        startServer(s -> new ServerConnector(s, 1, new TlsConnectionFactory(tls.server()), new HttpConnectionFactory()), true);

        httpClient = new HttpClient();
        httpClient.setByteBufferPool(leaks.pool());
        httpClient.setSslContext(tls.client());
        WebSocketClient client = started(true);
        Session session = client.connect(new RecordingListener(clientEvents::add), URI.create("wss://localhost:" + port + "/echo")).get(WAIT, TimeUnit.SECONDS);
        session.sendText("over tls " + "x".repeat(100_000)).get(WAIT, TimeUnit.SECONDS);
        assertEquals("text:over tls " + "x".repeat(100_000), next(clientEvents));
        session.close(CloseStatus.NORMAL, "bye");
        assertEquals("close:1000:", next(clientEvents));
        // A client that does not trust the certificate fails the connect.
        HttpClient untrusting = new HttpClient();
        untrusting.setByteBufferPool(leaks.pool());
        untrusting.start();
        try {
            ExecutionException failed = assertThrows(ExecutionException.class, () -> new WebSocketClient(untrusting)
                .connect(new RecordingListener(clientEvents::add), URI.create("wss://localhost:" + port + "/echo")).get(WAIT, TimeUnit.SECONDS));
            assertInstanceOf(javax.net.ssl.SSLException.class, rootOf(failed), failed.toString());
        } finally {
            untrusting.stop();
        }
    }

    private static Throwable rootOf(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && !(cause instanceof javax.net.ssl.SSLException)) {
            cause = cause.getCause();
        }
        return cause;
    }

    @Test
    void aRefusedHandshakeNamesTheStatus() throws Exception {
        startServer(false);
        WebSocketClient client = client(false);
        ExecutionException failed = assertThrows(ExecutionException.class, () ->
            client.connect(new RecordingListener(clientEvents::add), URI.create("ws://127.0.0.1:" + port + "/nowhere")).get(WAIT, TimeUnit.SECONDS));
        WebSocketHandshakeException handshake = assertInstanceOf(WebSocketHandshakeException.class, failed.getCause());
        assertEquals(404, handshake.getStatus());
        assertTrue(handshake.getMessage().contains("answered 404"), handshake.getMessage());
        assertThrows(IllegalArgumentException.class, () -> client.connect(new RecordingListener(clientEvents::add), URI.create("http://127.0.0.1:" + port + "/")));
        assertThrows(IllegalArgumentException.class, () -> ClientUpgradeRequest.defaults().withHeader("X-Evil", "a\r\nInjected: 1"));
        assertThrows(IllegalArgumentException.class, () -> ClientUpgradeRequest.defaults().withHeader("Sec-WebSocket-Key", "x"));
    }

    /** A server of one scripted answer: it reads the request head and answers what {@code answer} makes of the client's key. */
    private int scriptedServer(Function<String, String> answer) throws Exception {
        ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread thread = new Thread(() -> {
            try (listening; Socket socket = listening.accept()) {
                InputStream in = socket.getInputStream();
                StringBuilder head = new StringBuilder();
                while (!head.toString().endsWith("\r\n\r\n")) {
                    int b = in.read();
                    if (b < 0) {
                        return;
                    }
                    head.append((char) b);
                }
                String key = head.toString().replaceAll("(?s).*Sec-WebSocket-Key: ([^\r]+)\r\n.*", "$1");
                String response = answer.apply(key);
                if (response != null) {
                    OutputStream out = socket.getOutputStream();
                    out.write(response.getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                }
                // Hold the connection until the client closes it.
                while (in.read() >= 0) {
                    // Discard.
                }
            } catch (java.io.IOException ignored) {
                // The test checks the client's side.
            }
        }, "scripted-websocket-server");
        thread.setDaemon(true);
        thread.start();
        return listening.getLocalPort();
    }

    private String failureOf(WebSocketClient client, int scriptedPort, ClientUpgradeRequest request) throws Exception {
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.connect(new RecordingListener(clientEvents::add),
            URI.create("ws://127.0.0.1:" + scriptedPort + "/"), request).get(WAIT, TimeUnit.SECONDS));
        return failed.getCause().getClass().getSimpleName() + ": " + failed.getCause().getMessage();
    }

    private static String switching(String key, String more) {
        return "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
            + HandshakeKey.accept(key) + "\r\n" + more + "\r\n";
    }

    @Test
    void badAnswersFailTheHandshakeWithTheirReason() throws Exception {
        WebSocketClient client = client(true);
        String failure = failureOf(client, scriptedServer(key -> "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Accept: " + HandshakeKey.accept(HandshakeKey.newKey()) + "\r\n\r\n"), ClientUpgradeRequest.defaults());
        assertTrue(failure.startsWith("WebSocketHandshakeException") && failure.contains("bad Sec-WebSocket-Accept"), failure);
        failure = failureOf(client, scriptedServer(key -> switching(key, "Sec-WebSocket-Protocol: other\r\n")),
            ClientUpgradeRequest.defaults().withSubprotocols("chat"));
        assertTrue(failure.contains("subprotocol [other], which was not offered"), failure);
        failure = failureOf(client, scriptedServer(key -> switching(key, "Sec-WebSocket-Extensions: x-webkit-deflate-frame\r\n")),
            ClientUpgradeRequest.defaults());
        assertTrue(failure.contains("x-webkit-deflate-frame, which was not offered"), failure);
        failure = failureOf(client, scriptedServer(key -> switching(key, "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=20\r\n")),
            ClientUpgradeRequest.defaults());
        assertTrue(failure.contains("client_max_window_bits must be 8 to 15"), failure);
        failure = failureOf(client, scriptedServer(key -> "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n"),
            ClientUpgradeRequest.defaults());
        assertTrue(failure.contains("Upgrade is not websocket"), failure);
        failure = failureOf(client, scriptedServer(key -> "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"), ClientUpgradeRequest.defaults());
        assertTrue(failure.contains("answered 200 OK instead of 101"), failure);
        client.setHandshakeTimeout(java.time.Duration.ofMillis(300));
        failure = failureOf(client, scriptedServer(key -> null), ClientUpgradeRequest.defaults());
        assertTrue(failure.startsWith("TimeoutException") && failure.contains("within 300 ms"), failure);
    }

    @Test
    void framesTheServerSendsRightAfterThe101AreRead() throws Exception {
        WebSocketClient client = client(false);
        // The answer and a first text frame ("hi", unmasked) in one write.
        int scripted = scriptedServer(key -> switching(key, "") + "\u0081\u0002hi");
        Session session = client.connect(new RecordingListener(clientEvents::add), URI.create("ws://127.0.0.1:" + scripted + "/")).get(WAIT, TimeUnit.SECONDS);
        assertEquals("text:hi", next(clientEvents));
        assertNotNull(session);
        session.close(CloseStatus.NORMAL, "");
    }

    @Test
    void connectingToNothingFails() throws Exception {
        WebSocketClient client = client(false);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.connect(new RecordingListener(clientEvents::add),
            URI.create("ws://127.0.0.1:" + closedPort + "/")).get(WAIT, TimeUnit.SECONDS));
        assertTrue(failed.getCause().getMessage().contains("Connection refused"), failed.toString());
    }
}
