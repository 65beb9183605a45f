package io.wharf.websocket.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.server.Handler;
import io.wharf.server.Server;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.OpCode;
import io.wharf.websocket.core.WebSocketConfiguration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * WebSocket sessions end to end over loopback sockets: the server upgrade, echo of messages of
 * many sizes and fragmentations, ping/pong, both close handshakes, every limit with its close
 * status, the idle timeout, demand (a slow listener holds the peer back) and many sessions,
 * each test under the leak-tracking pool.
 */
class WebSocketServerTest {

    private static final long WAIT = 10;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;
    private int port;
    /** What the server's listeners saw, in order, across sessions. */
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** Echoes text and binary; "close-me" makes it close with 1000; records every event. */
    final class EchoListener implements WebSocketListener {
        Session session;

        @Override
        public void onOpen(Session session) {
            this.session = session;
            events.add("open");
        }

        @Override
        public void onText(String text) {
            if (text.equals("close-me")) {
                session.close(CloseStatus.NORMAL, "server says bye");
                return;
            }
            session.sendText(text, Callback.NOOP);
        }

        @Override
        public void onBinary(ByteBuffer payload) {
            ByteBuffer copy = ByteBuffer.allocate(payload.remaining()).put(payload).flip();
            session.sendBinary(copy, Callback.NOOP);
        }

        @Override
        public void onPing(ByteBuffer payload) {
            events.add("ping:" + StandardCharsets.UTF_8.decode(payload));
        }

        @Override
        public void onPong(ByteBuffer payload) {
            events.add("pong:" + StandardCharsets.UTF_8.decode(payload));
        }

        @Override
        public void onError(Throwable cause) {
            events.add("error:" + cause.getClass().getSimpleName());
        }

        @Override
        public void onClose(int code, String reason) {
            events.add("close:" + code + ":" + reason);
        }
    }

    private WebSocketUpgradeHandler start(WebSocketConfiguration configuration) throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.setConfiguration(configuration);
        handler.addMapping("/echo", (request, response) -> new EchoListener());
        start(handler);
        return handler;
    }

    private void start(Handler handler) throws Exception {
        LoopbackWebSocketServer loopback = new LoopbackWebSocketServer(handler, leaks.pool());
        server = loopback.server;
        port = loopback.port;
    }

    private String nextEvent() throws InterruptedException {
        String event = events.poll(WAIT, TimeUnit.SECONDS);
        assertNotNull(event, "no event within " + WAIT + " s");
        return event;
    }

    /** Skips "open" and returns the next event. */
    private String nextEventAfterOpen() throws InterruptedException {
        String event = nextEvent();
        return event.equals("open") ? nextEvent() : event;
    }

    @Test
    void echoesTextAndBinaryOfManySizesWholeAndFragmented() throws Exception {
        start(WebSocketConfiguration.defaults().withMaxMessageSize(4 * 1024 * 1024));
        Random random = new Random(6455);
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            for (int size : new int[] {0, 1, 125, 126, 127, 4095, 4096, 4097, 65535, 65536, 65537, 1_000_000}) {
                StringBuilder text = new StringBuilder(size);
                for (int i = 0; i < size; i++) {
                    text.append((char) ('a' + random.nextInt(26)));
                }
                client.sendText(text.toString());
                assertEquals(text.toString(), client.receiveText(), "text of " + size);
                byte[] bytes = new byte[size];
                random.nextBytes(bytes);
                client.send(Frame.of(OpCode.BINARY, ByteBuffer.wrap(bytes)));
                Frame echo = client.receive();
                assertEquals(OpCode.BINARY, echo.opcode());
                assertArrayEquals(bytes, toArray(echo.payload()), "binary of " + size);
            }
            // Fragmented, with a multi-byte character split across fragments and a ping in between.
            byte[] utf8 = "héllo wörld €uro 𝄞 done".getBytes(StandardCharsets.UTF_8);
            for (int pieces : new int[] {2, 3, 7, utf8.length}) {
                int step = (utf8.length + pieces - 1) / pieces;
                for (int at = 0, n = 0; at < utf8.length; at += step, n++) {
                    int end = Math.min(utf8.length, at + step);
                    client.send(new Frame(end == utf8.length, 0, n == 0 ? OpCode.TEXT : OpCode.CONTINUATION, ByteBuffer.wrap(utf8, at, end - at)));
                    if (n == 0) {
                        client.send(Frame.of(OpCode.PING, ByteBuffer.wrap("mid".getBytes(StandardCharsets.UTF_8))));
                    }
                }
                assertEquals("mid", RawWebSocketClient.text(expect(client.receive(), OpCode.PONG)));
                assertEquals("héllo wörld €uro 𝄞 done", client.receiveText());
            }
            byte[] big = new byte[3 * 1024 * 1024];
            random.nextBytes(big);
            for (int at = 0; at < big.length; at += 100_000) {
                int end = Math.min(big.length, at + 100_000);
                client.send(new Frame(end == big.length, 0, at == 0 ? OpCode.BINARY : OpCode.CONTINUATION, ByteBuffer.wrap(big, at, end - at)));
            }
            assertArrayEquals(big, toArray(expect(client.receive(), OpCode.BINARY).payload()));
            client.sendClose(CloseStatus.NORMAL, "done");
            assertEquals(CloseStatus.NORMAL, client.receiveClose().code());
            assertTrue(client.awaitEndOfInput());
        }
        assertEquals("open", nextEvent());
        for (int i = 0; i < 4; i++) {
            assertEquals("ping:mid", nextEvent());
        }
        assertEquals("close:1000:done", nextEvent());
    }

    @Test
    void answersPingsWithTheirPayloadAndAcceptsUnsolicitedPongs() throws Exception {
        start(WebSocketConfiguration.defaults());
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            client.send(Frame.of(OpCode.PONG, ByteBuffer.wrap("unasked".getBytes(StandardCharsets.UTF_8))));
            byte[] payload = new byte[125];
            new Random(1).nextBytes(payload);
            client.send(Frame.of(OpCode.PING, ByteBuffer.wrap(payload)));
            Frame pong = expect(client.receive(), OpCode.PONG);
            assertArrayEquals(payload, toArray(pong.payload()));
            client.send(Frame.of(OpCode.PING, ByteBuffer.allocate(0)));
            assertEquals(0, expect(client.receive(), OpCode.PONG).payload().remaining());
            client.sendText("still open");
            assertEquals("still open", client.receiveText());
            // An idle session holds no buffer: the read buffer went back when it was empty.
            assertTrue(leaks.pool().awaitNoLeaks(Duration.ofSeconds(5)), leaks.pool().leaks().toString());
        }
        assertEquals("pong:unasked", nextEventAfterOpen());
        assertTrue(nextEvent().startsWith("ping:"));
        assertEquals("ping:", nextEvent());
        // The client dropped the connection without a close frame.
        assertTrue(nextEvent().startsWith("close:1006:"));
    }

    @Test
    void theServerClosesAndWaitsForTheClientsClose() throws Exception {
        start(WebSocketConfiguration.defaults());
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            client.sendText("close-me");
            CloseStatus status = client.receiveClose();
            assertEquals(new CloseStatus(CloseStatus.NORMAL, "server says bye"), status);
            // Data sent after the server's close is dropped, not echoed.
            client.sendText("ignored");
            client.sendClose(CloseStatus.NORMAL, "");
            assertTrue(client.awaitEndOfInput(), "nothing after the close frame");
        }
        assertEquals("close:1000:", nextEventAfterOpen());
    }

    @Test
    void aLocalCloseTheClientNeverAnswersEndsAfterTheCloseTimeout() throws Exception {
        start(WebSocketConfiguration.defaults().withTimeouts(Duration.ofSeconds(30), Duration.ofMillis(300)));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            client.sendText("close-me");
            assertEquals(CloseStatus.NORMAL, client.receiveClose().code());
            long start = System.nanoTime();
            assertTrue(client.awaitEndOfInput());
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(waited >= 200 && waited < 5000, "waited " + waited + " ms");
        }
        assertEquals("error:TimeoutException", nextEventAfterOpen());
        assertTrue(nextEvent().startsWith("close:1006:no close frame from the peer"));
    }

    @Test
    void theClientClosesWithoutStatusAndGetsAnEmptyCloseBack() throws Exception {
        start(WebSocketConfiguration.defaults());
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            client.send(Frame.of(OpCode.CLOSE, ByteBuffer.allocate(0)));
            Frame close = expect(client.receive(), OpCode.CLOSE);
            assertEquals(0, close.payload().remaining());
            assertTrue(client.awaitEndOfInput());
        }
        assertEquals("close:1005:", nextEventAfterOpen());
    }

    @Test
    void aFrameAboveTheLimitClosesWith1009BeforeItsPayloadArrives() throws Exception {
        start(WebSocketConfiguration.defaults().withMaxMessageSize(1000));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            // Only the header of a 1 MB frame: the server must not wait for the payload.
            client.sendRaw((byte) 0x82, (byte) (0x80 | 127), 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4);
            assertEquals(CloseStatus.MESSAGE_TOO_BIG, client.receiveClose().code());
            assertTrue(client.awaitEndOfInput());
        }
        assertEquals("error:ProtocolException", nextEventAfterOpen());
        assertTrue(nextEvent().startsWith("close:1009:"));
    }

    @Test
    void aFragmentedMessageAboveTheLimitClosesWith1009AsTheFragmentArrives() throws Exception {
        start(WebSocketConfiguration.defaults().withMaxMessageSize(1000));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            client.send(new Frame(false, 0, OpCode.BINARY, ByteBuffer.allocate(600)));
            client.send(new Frame(false, 0, OpCode.CONTINUATION, ByteBuffer.allocate(600)));
            CloseStatus status = client.receiveClose();
            assertEquals(CloseStatus.MESSAGE_TOO_BIG, status.code());
            assertTrue(status.reason().contains("binary message of more than 1000 bytes"), status.reason());
            assertTrue(client.awaitEndOfInput());
        }
        assertEquals("error:ProtocolException", nextEventAfterOpen());
    }

    @Test
    void invalidUtf8SplitAcrossFragmentsClosesWith1007AtTheBadFragment() throws Exception {
        start(WebSocketConfiguration.defaults());
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            // "κ" is CE BA; the second fragment continues the lead byte with an ASCII byte.
            client.send(new Frame(false, 0, OpCode.TEXT, ByteBuffer.wrap(new byte[] {'o', 'k', (byte) 0xCE})));
            client.send(new Frame(false, 0, OpCode.CONTINUATION, ByteBuffer.wrap(new byte[] {'x'})));
            // The message is not finished: the status comes at the bad fragment, not at the end.
            assertEquals(CloseStatus.BAD_DATA, client.receiveClose().code());
            assertTrue(client.awaitEndOfInput());
        }
        assertEquals("error:ProtocolException", nextEventAfterOpen());
        assertTrue(nextEvent().startsWith("close:1007:"));
    }

    @Test
    void aTextMessageEndingInTheMiddleOfACharacterClosesWith1007() throws Exception {
        start(WebSocketConfiguration.defaults());
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            client.send(new Frame(false, 0, OpCode.TEXT, ByteBuffer.wrap(new byte[] {'a', (byte) 0xF0, (byte) 0x9D})));
            client.send(new Frame(true, 0, OpCode.CONTINUATION, ByteBuffer.wrap(new byte[] {(byte) 0x84})));
            assertEquals(CloseStatus.BAD_DATA, client.receiveClose().code());
        }
    }

    @Test
    void aFragmentedControlFrameClosesWith1002() throws Exception {
        start(WebSocketConfiguration.defaults());
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            // A ping without FIN, masked with a zero mask, payload "hi".
            client.sendRaw((byte) 0x09, (byte) 0x82, 0, 0, 0, 0, 'h', 'i');
            assertEquals(CloseStatus.PROTOCOL_ERROR, client.receiveClose().code());
            assertTrue(client.awaitEndOfInput());
        }
        assertEquals("error:ProtocolException", nextEventAfterOpen());
        assertTrue(nextEvent().startsWith("close:1002:"));
    }

    @Test
    void anUnmaskedFrameOrABadCloseCodeClosesWith1002() throws Exception {
        start(WebSocketConfiguration.defaults());
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            client.sendRaw((byte) 0x81, (byte) 0x02, 'h', 'i');
            assertEquals(CloseStatus.PROTOCOL_ERROR, client.receiveClose().code());
        }
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            client.send(Frame.of(OpCode.CLOSE, ByteBuffer.wrap(new byte[] {0x03, (byte) 0xED})));   // 1005 may not be sent
            assertEquals(CloseStatus.PROTOCOL_ERROR, client.receiveClose().code());
        }
    }

    @Test
    void theIdleTimeoutClosesWith1001AndCompletesTheHandshake() throws Exception {
        start(WebSocketConfiguration.defaults().withTimeouts(Duration.ofMillis(300), Duration.ofSeconds(5)));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            long start = System.nanoTime();
            CloseStatus status = client.receiveClose();
            assertEquals(CloseStatus.GOING_AWAY, status.code());
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) >= 200);
            client.sendClose(CloseStatus.GOING_AWAY, "");
            assertTrue(client.awaitEndOfInput());
        }
        assertEquals("close:1001:", nextEventAfterOpen());
    }

    @Test
    void stoppingTheServerClosesEachSessionWith1001AndWaitsForTheAnswer() throws Exception {
        start(WebSocketConfiguration.defaults().withTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(20)));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            assertEquals("open", nextEvent());
            Thread stopper = Thread.ofPlatform().start(() -> {
                try {
                    server.stop();
                    events.add("stopped");
                } catch (Exception x) {
                    events.add("stop failed: " + x);
                }
            });
            assertEquals(new CloseStatus(CloseStatus.GOING_AWAY, "server stopping"), client.receiveClose());
            assertTrue(events.isEmpty(), "the server waits for the answer: " + events);
            client.sendClose(CloseStatus.GOING_AWAY, "");
            assertTrue(client.awaitEndOfInput());
            assertEquals("close:1001:", nextEvent());
            // Well before the 20 s close timeout: the answer ended the session.
            assertEquals("stopped", nextEvent());
            stopper.join();
        }
        server = null;
    }

    @Test
    void handshakeRefusals() throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.addMapping("/echo", (request, response) -> new EchoListener());
        handler.addMapping("/chat", (request, response) -> {
            if (request.subprotocols().contains("chat.v2")) {
                response.setSubprotocol("chat.v2");
                return new EchoListener();
            }
            response.refuse(403, "speak chat.v2");
            return null;
        });
        handler.setOriginCheck(origin -> origin == null || origin.equals("https://wharf.example"));
        start(handler);
        String key = "dGhlIHNhbXBsZSBub25jZQ==";
        String common = "Host: localhost\r\nSec-WebSocket-Key: " + key + "\r\n";
        String upgrade = "Upgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n";

        String noUpgrade = answer("GET /echo HTTP/1.1\r\n" + common + "Sec-WebSocket-Version: 13\r\n\r\n");
        assertTrue(noUpgrade.startsWith("HTTP/1.1 426 "), noUpgrade);
        assertTrue(noUpgrade.contains("Sec-WebSocket-Version: 13\r\n"), noUpgrade);

        String version8 = answer("GET /echo HTTP/1.1\r\n" + common + upgrade + "Sec-WebSocket-Version: 8\r\n\r\n");
        assertTrue(version8.startsWith("HTTP/1.1 426 ") && version8.contains("Sec-WebSocket-Version: 13\r\n"), version8);

        String noVersion = answer("GET /echo HTTP/1.1\r\n" + common + upgrade + "\r\n");
        assertTrue(noVersion.startsWith("HTTP/1.1 426 "), noVersion);

        String badKey = answer("GET /echo HTTP/1.1\r\nHost: localhost\r\nSec-WebSocket-Key: c2hvcnQ=\r\n" + upgrade + "Sec-WebSocket-Version: 13\r\n\r\n");
        assertTrue(badKey.startsWith("HTTP/1.1 400 ") && badKey.contains("Sec-WebSocket-Key is not 16 bytes in base64"), badKey);

        String noKey = answer("GET /echo HTTP/1.1\r\nHost: localhost\r\n" + upgrade + "Sec-WebSocket-Version: 13\r\n\r\n");
        assertTrue(noKey.startsWith("HTTP/1.1 400 ") && noKey.contains("no Sec-WebSocket-Key"), noKey);

        String post = answer("POST /echo HTTP/1.1\r\n" + common + upgrade + "Sec-WebSocket-Version: 13\r\nContent-Length: 0\r\n\r\n");
        assertTrue(post.startsWith("HTTP/1.1 400 ") && post.contains("a WebSocket handshake is a GET, not POST"), post);

        String otherProtocol = answer("GET /echo HTTP/1.1\r\n" + common + "Upgrade: h2c\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n");
        assertTrue(otherProtocol.startsWith("HTTP/1.1 400 ") && otherProtocol.contains("Upgrade does not offer websocket"), otherProtocol);

        String noConnection = answer("GET /echo HTTP/1.1\r\n" + common + "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n");
        assertTrue(noConnection.startsWith("HTTP/1.1 400 ") && noConnection.contains("Connection does not name upgrade"), noConnection);

        String foreign = answer("GET /echo HTTP/1.1\r\n" + common + upgrade + "Origin: https://evil.example\r\nSec-WebSocket-Version: 13\r\n\r\n");
        assertTrue(foreign.startsWith("HTTP/1.1 403 "), foreign);

        String refused = answer("GET /chat HTTP/1.1\r\n" + common + upgrade + "Sec-WebSocket-Protocol: chat.v1\r\nSec-WebSocket-Version: 13\r\n\r\n");
        assertTrue(refused.startsWith("HTTP/1.1 403 ") && refused.contains("speak chat.v2"), refused);

        String unmapped = answer("GET /other HTTP/1.1\r\n" + common + upgrade + "Sec-WebSocket-Version: 13\r\n\r\n");
        assertTrue(unmapped.startsWith("HTTP/1.1 404 "), unmapped);

        try (RawWebSocketClient client = new RawWebSocketClient(port)) {
            String head = client.request("GET /chat HTTP/1.1\r\n" + common + upgrade + "Origin: https://wharf.example\r\n"
                + "Sec-WebSocket-Protocol: chat.v1, chat.v2\r\nSec-WebSocket-Version: 13\r\n\r\n");
            assertTrue(head.startsWith("HTTP/1.1 101 "), head);
            // RFC 6455 section 1.3's example key and answer.
            assertTrue(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"), head);
            assertTrue(head.contains("Sec-WebSocket-Protocol: chat.v2\r\n"), head);
            client.sendText("over chat.v2");
            assertEquals("over chat.v2", client.receiveText());
        }
    }

    /** @return the head and body of the one response to {@code request} */
    private String answer(String request) throws IOException {
        try (RawWebSocketClient client = new RawWebSocketClient(port)) {
            String head = client.request(request);
            return head + client.body();
        }
    }

    /**
     * A BLOCKING listener that waits on a latch in its first message: the server stops reading,
     * its socket buffers fill, and the client's writes stall, until the listener lets go.
     */
    @Test
    void aSlowListenerHoldsThePeerBack() throws Exception {
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicInteger received = new AtomicInteger();
        AtomicLong threadsOnSelector = new AtomicLong();
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.setConfiguration(WebSocketConfiguration.defaults().withMaxMessageSize(1024 * 1024));
        handler.addMapping("/slow", (request, response) -> new WebSocketListener() {
            @Override
            public void onBinary(ByteBuffer payload) {
                if (Thread.currentThread().getName().contains("selector")) {
                    threadsOnSelector.incrementAndGet();
                }
                received.incrementAndGet();
                try {
                    letGo.await();
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public InvocationType invocationType() {
                return InvocationType.BLOCKING;
            }
        });
        start(handler);
        int messages = 64;
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/slow")) {
            AtomicInteger sent = new AtomicInteger();
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < messages; i++) {
                        client.send(Frame.of(OpCode.BINARY, ByteBuffer.allocate(1024 * 1024)));
                        sent.incrementAndGet();
                    }
                } catch (IOException x) {
                    throw new RuntimeException(x);
                }
            });
            Thread.sleep(1500);
            assertEquals(1, received.get(), "one message is being handled, no more was read");
            assertTrue(sent.get() < messages, "the client's writes stalled: " + sent.get() + " MiB sent");
            letGo.countDown();
            writer.join(TimeUnit.SECONDS.toMillis(WAIT));
            assertFalse(writer.isAlive());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
            while (received.get() < messages && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(messages, received.get());
            assertEquals(0, threadsOnSelector.get(), "a BLOCKING listener never runs on a selector thread");
            client.sendClose(CloseStatus.NORMAL, "");
            assertEquals(CloseStatus.NORMAL, client.receiveClose().code());
        }
    }

    @Test
    void aListenerThatThrowsFailsTheSessionWith1011() throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.addMapping("/throws", (request, response) -> new WebSocketListener() {
            @Override
            public void onText(String text) {
                throw new IllegalStateException("boom on " + text);
            }

            @Override
            public void onError(Throwable cause) {
                events.add("error:" + cause.getMessage());
            }

            @Override
            public void onClose(int code, String reason) {
                events.add("close:" + code);
            }
        });
        start(handler);
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/throws")) {
            client.sendText("hello");
            CloseStatus status = client.receiveClose();
            assertEquals(CloseStatus.SERVER_ERROR, status.code());
            assertTrue(client.awaitEndOfInput());
        }
        assertEquals("error:boom on hello", nextEvent());
        assertEquals("close:1011", nextEvent());
    }

    @Test
    void aThousandConcurrentSessions() throws Exception {
        start(WebSocketConfiguration.defaults());
        List<RawWebSocketClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 1000; i++) {
                clients.add(RawWebSocketClient.open(port, "/echo"));
            }
            for (int i = 0; i < clients.size(); i++) {
                clients.get(i).sendText("session " + i);
            }
            for (int i = 0; i < clients.size(); i++) {
                assertEquals("session " + i, clients.get(i).receiveText());
            }
            for (RawWebSocketClient client : clients) {
                client.sendClose(CloseStatus.NORMAL, "");
            }
            for (RawWebSocketClient client : clients) {
                assertEquals(CloseStatus.NORMAL, client.receiveClose().code());
            }
        } finally {
            for (RawWebSocketClient client : clients) {
                client.close();
            }
        }
        int closes = 0;
        for (int i = 0; i < 2000; i++) {
            String event = nextEvent();
            if (event.equals("close:1000:")) {
                closes++;
            }
        }
        assertEquals(1000, closes);
        assertNull(events.poll(100, TimeUnit.MILLISECONDS));
    }

    private static Frame expect(Frame frame, byte opcode) {
        assertEquals(OpCode.name(opcode), OpCode.name(frame.opcode()), frame.toString());
        return frame;
    }

    private static byte[] toArray(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
