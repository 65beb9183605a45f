package io.wharf.server;

import static io.wharf.server.LocalServer.crlf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.http.HttpFields;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP/1.1 upgrade hook ({@link ProtocolUpgrade}): a handler accepts a switch, the
 * server writes 101 and hands the endpoint — with the bytes that came after the request —
 * to the new protocol's connection.
 */
class ProtocolUpgradeTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;
    private LocalServer local;
    private final List<String> seen = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        if (local != null) {
            local.close();
        }
    }

    /** Accepts a switch to "shout" when offered; answers "no switch" otherwise. */
    private Handler shoutHandler() {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            ProtocolUpgrade upgrade = request.getProtocolUpgrade();
            if (upgrade == null || !upgrade.getOfferedProtocols().contains("shout")) {
                seen.add(upgrade == null ? "none" : upgrade.getOfferedProtocols().toString());
                Response.write(response, true, "no switch", callback);
                return true;
            }
            seen.add(upgrade.getOfferedProtocols().toString());
            upgrade.accept("shout", HttpFields.build().add("X-Shout-Version", "1"),
                    endPoint -> new UpperCaseEchoConnection(endPoint, request.getConnectionMetaData().getConnector().getByteBufferPool()));
            callback.succeeded();
            return true;
        });
    }

    @Test
    void aRealClientSwitchesAndTheBytesAfterTheRequestReachTheNewProtocol() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        ServerConnector connector = new ServerConnector(server, 1, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(shoutHandler());
        server.start();
        try (Socket client = new Socket()) {
            client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), connector.getLocalPort()), (int) WAIT.toMillis());
            client.setSoTimeout((int) WAIT.toMillis());
            OutputStream out = client.getOutputStream();
            InputStream in = client.getInputStream();
            // The first bytes of the new protocol travel with the request.
            out.write(("GET /chat HTTP/1.1\r\nHost: localhost\r\nUpgrade: other/2, shout\r\nConnection: keep-alive, Upgrade\r\n\r\n"
                    + "hello").getBytes(StandardCharsets.US_ASCII));
            String head = "HTTP/1.1 101 Switching Protocols\r\nX-Shout-Version: 1\r\nUpgrade: shout\r\nConnection: Upgrade\r\n\r\n";
            assertEquals(head + "HELLO", read(in, head.length() + 5));
            out.write("again, after the switch".getBytes(StandardCharsets.US_ASCII));
            assertEquals("AGAIN, AFTER THE SWITCH", read(in, 23));
        }
        assertEquals(List.of("[other/2, shout]"), seen);
    }

    /**
     * Many clients switch at once while the handlers complete on other threads, each after a
     * few plain requests on the same connection: every switch happens once, every client's
     * bytes come back shouted on its own connection, and no buffer leaks.
     */
    @Test
    void manyConcurrentSwitchesFromOtherThreads() throws Exception {
        java.util.concurrent.ExecutorService elsewhere = java.util.concurrent.Executors.newFixedThreadPool(4);
        java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(16);
        try {
            server = new Server(new QueuedThreadPool(), leaks.pool());
            ServerConnector connector = new ServerConnector(server, 1, new HttpConnectionFactory());
            connector.setHost("127.0.0.1");
            server.addConnector(connector);
            Handler shout = shoutHandler();
            server.setHandler(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
                // Complete on another thread, as an asynchronous handler would.
                elsewhere.execute(() -> {
                    try {
                        shout.handle(request, response, callback);
                    } catch (Throwable x) {
                        callback.failed(x);
                    }
                });
                return true;
            }));
            server.start();
            int port = connector.getLocalPort();
            java.util.List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int c = 0; c < 200; c++) {
                int client = c;
                done.add(clients.submit(() -> {
                    try (Socket socket = new Socket()) {
                        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), (int) WAIT.toMillis());
                        socket.setSoTimeout((int) WAIT.toMillis());
                        OutputStream out = socket.getOutputStream();
                        InputStream in = socket.getInputStream();
                        String plain = "GET /plain HTTP/1.1\r\nHost: localhost\r\n\r\n";
                        out.write((plain + plain).getBytes(StandardCharsets.US_ASCII));
                        for (int i = 0; i < 2; i++) {
                            String answer = readContentLengthResponse(in);
                            assertTrue(answer.startsWith("HTTP/1.1 200 OK\r\n") && answer.endsWith("no switch"), answer);
                        }
                        String words = "client " + client + " says hi";
                        out.write(("GET /chat HTTP/1.1\r\nHost: localhost\r\nUpgrade: shout\r\nConnection: Upgrade\r\n\r\n" + words)
                                .getBytes(StandardCharsets.US_ASCII));
                        String head = "HTTP/1.1 101 Switching Protocols\r\nX-Shout-Version: 1\r\nUpgrade: shout\r\nConnection: Upgrade\r\n\r\n";
                        assertEquals(head + words.toUpperCase(java.util.Locale.ROOT), read(in, head.length() + words.length()));
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> each : done) {
                each.get();
            }
        } finally {
            clients.shutdownNow();
            elsewhere.shutdownNow();
        }
        assertEquals(200, seen.stream().filter("[shout]"::equals).count());
    }

    @Test
    void noSwitchIsOfferedWithoutUpgradeInConnectionOrToHttp10() throws Exception {
        local = new LocalServer(leaks.pool()).start(shoutHandler());
        String withoutOption = local.get("GET / HTTP/1.1\nHost: h\nUpgrade: shout\n\n");
        assertTrue(withoutOption.endsWith("no switch"), withoutOption);
        String http10 = local.get("GET / HTTP/1.0\nUpgrade: shout\nConnection: upgrade\n\n");
        assertTrue(http10.endsWith("no switch"), http10);
        String otherProtocol = local.get("GET / HTTP/1.1\nHost: h\nUpgrade: websocket\nConnection: upgrade\n\n");
        assertTrue(otherProtocol.endsWith("no switch"), otherProtocol);
        assertEquals(List.of("none", "none", "[websocket]"), seen);
    }

    @Test
    void acceptRefusesWhatWasNotOfferedAndAResponseAfterAccepting() throws Exception {
        List<Throwable> refusals = new CopyOnWriteArrayList<>();
        local = new LocalServer(leaks.pool()).start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            ProtocolUpgrade upgrade = request.getProtocolUpgrade();
            refusals.add(assertThrows(IllegalArgumentException.class, () -> upgrade.accept("websocket", null, endPoint -> null)));
            upgrade.accept("shout", null, endPoint -> new UpperCaseEchoConnection(endPoint, local.server.getByteBufferPool()));
            refusals.add(assertThrows(IllegalStateException.class, () -> upgrade.accept("shout", null, endPoint -> null)));
            Response.write(response, true, "a body instead", io.wharf.util.Callback.from(() -> refusals.add(null), refusals::add));
            callback.succeeded();
            return true;
        }));
        String answer = local.get("GET / HTTP/1.1\nHost: h\nUpgrade: shout\nConnection: upgrade\n\n");
        assertTrue(answer.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), answer);
        assertEquals(3, refusals.size(), refusals.toString());
        assertTrue(refusals.get(0).getMessage().contains("'websocket' was not offered"), refusals.get(0).getMessage());
        assertTrue(refusals.get(1).getMessage().contains("already accepted"), refusals.get(1).getMessage());
        assertTrue(refusals.get(2).getMessage().contains("101 is the response"), refusals.get(2).getMessage());
    }

    @Test
    void aHandlerThatFailsAfterAcceptingGetsItsErrorAnsweredAndNoSwitch() throws Exception {
        local = new LocalServer(leaks.pool()).start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            request.getProtocolUpgrade().accept("shout", null, endPoint -> new UpperCaseEchoConnection(endPoint, local.server.getByteBufferPool()));
            callback.failed(new IllegalStateException("changed its mind"));
            return true;
        }));
        String answer = local.get(crlf("GET / HTTP/1.1\nHost: h\nUpgrade: shout\nConnection: upgrade\nAccept: text/plain\n\n"));
        assertTrue(answer.startsWith("HTTP/1.1 500 Internal Server Error\r\n"), answer);
    }

    @Test
    void aRequestWithoutAnOfferSeesNull() throws Exception {
        local = new LocalServer(leaks.pool()).start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            assertNull(new Request.Wrapper(request).getProtocolUpgrade());
            Response.write(response, true, "ok", callback);
            return true;
        }));
        assertTrue(local.get("GET / HTTP/1.1\nHost: h\n\n").endsWith("ok"));
    }

    /** @return one response whose body has a Content-Length, read whole from {@code in} */
    private static String readContentLengthResponse(InputStream in) throws java.io.IOException {
        StringBuilder head = new StringBuilder();
        while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new java.io.EOFException("closed in a response head: " + head);
            }
            head.append((char) b);
        }
        String text = head.toString();
        int at = text.indexOf("Content-Length: ");
        int length = Integer.parseInt(text.substring(at + 16, text.indexOf("\r\n", at)));
        return text + read(in, length);
    }

    private static String read(InputStream in, int length) throws java.io.IOException {
        return new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
    }
}
