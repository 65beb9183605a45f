package io.wharf.websocket.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import io.wharf.server.Server;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.annotations.OnWebSocketClose;
import io.wharf.websocket.api.annotations.OnWebSocketError;
import io.wharf.websocket.api.annotations.OnWebSocketFrame;
import io.wharf.websocket.api.annotations.OnWebSocketMessage;
import io.wharf.websocket.api.annotations.OnWebSocketOpen;
import io.wharf.websocket.api.annotations.WebSocket;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.OpCode;
import io.wharf.websocket.core.WebSocketConfiguration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Annotated endpoints on the server over raw sockets, under the leak-tracking pool: method
 * forms and their binding, checks at registration, the {@code @WebSocket} limits, and streamed
 * {@code InputStream}/{@code Reader} messages (delivered before the message is whole, UTF-8
 * split between frames, bad UTF-8, limits, a method that throws, a slow reader that does not
 * hold the selector).
 */
class AnnotatedEndpointTest {

    private static final long WAIT = 10;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    /** What the endpoints saw, across sessions. */
    static final BlockingQueue<String> EVENTS = new LinkedBlockingQueue<>();

    private Server server;
    private int port;

    @BeforeEach
    void forget() {
        EVENTS.clear();   // StreamedSendTest's sessions use StreamSummer too
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        EVENTS.clear();
    }

    private void start(WebSocketUpgradeHandler handler) throws Exception {
        LoopbackWebSocketServer loopback = new LoopbackWebSocketServer(handler, leaks.pool());
        server = loopback.server;
        port = loopback.port;
    }

    private static String next() throws InterruptedException {
        String event = EVENTS.poll(WAIT, TimeUnit.SECONDS);
        assertNotNull(event, "no event within " + WAIT + " s");
        return event;
    }

    @WebSocket(maxTextMessageSize = 64)
    public static class Echo {
        private Session session;

        @OnWebSocketOpen
        public void open(Session session) {
            this.session = session;
            EVENTS.add("open");
        }

        @OnWebSocketMessage
        public void text(String text) {
            session.sendText("echo:" + text, Callback.NOOP);
        }

        @OnWebSocketMessage
        public void bytes(Session session, byte[] bytes, int offset, int length) {
            session.sendText("bytes:" + length + ":" + bytes[offset], Callback.NOOP);
        }

        @OnWebSocketFrame
        public void frame(Frame frame) {
            EVENTS.add("frame:" + OpCode.name(frame.opcode()));
        }

        @OnWebSocketClose
        public void close(int code, String reason) {
            EVENTS.add("close:" + code);
        }
    }

    @Test
    void annotatedMethodsGetTheirParametersAndTheClassLimitApplies() throws Exception {
        start(new WebSocketUpgradeHandler().addMapping("/echo", Echo.class));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            assertEquals("open", next());
            client.sendText("hi");
            assertEquals("echo:hi", client.receiveText());
            assertEquals("frame:TEXT", next());
            client.send(Frame.of(OpCode.BINARY, ByteBuffer.wrap(new byte[] {7, 8, 9})));
            assertEquals("bytes:3:7", client.receiveText());
            assertEquals("frame:BINARY", next());
            client.sendText("x".repeat(65));
            assertEquals(CloseStatus.MESSAGE_TOO_BIG, client.receiveClose().code());
            assertEquals("frame:TEXT", next());
            assertEquals("close:" + CloseStatus.MESSAGE_TOO_BIG, next());
        }
    }

    @WebSocket
    public static class TextOnly {
        @OnWebSocketMessage
        public void text(Session session, String text) {
            session.sendText(text, Callback.NOOP);
        }
    }

    @Test
    void aMessageOfAKindWithoutAMethodCloses1003() throws Exception {
        start(new WebSocketUpgradeHandler().addMapping("/text", TextOnly.class));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/text")) {
            client.sendText("fine");
            assertEquals("fine", client.receiveText());
            client.send(Frame.of(OpCode.BINARY, ByteBuffer.wrap(new byte[] {1})));
            assertEquals(CloseStatus.UNSUPPORTED_DATA, client.receiveClose().code());
        }
    }

    public static class NotAnEndpoint {
    }

    @WebSocket
    public static class WrongParameter {
        @OnWebSocketMessage
        public void message(int number) {
        }
    }

    @WebSocket
    public static class TwoTextMethods {
        @OnWebSocketMessage
        public void one(String text) {
        }

        @OnWebSocketMessage
        public void two(Session session, Reader text) {
        }
    }

    @WebSocket
    public static class ReturnsSomething {
        @OnWebSocketClose
        public String closed(int code, String reason) {
            return reason;
        }
    }

    @WebSocket
    public static class StaticMethod {
        @OnWebSocketError
        public static void failed(Throwable cause) {
        }
    }

    @Test
    void badEndpointsFailAtRegistrationNamingClassMethodAndProblem() {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        String notAnnotated = assertThrows(IllegalArgumentException.class, () -> handler.addMapping("/a", NotAnEndpoint.class)).getMessage();
        assertTrue(notAnnotated.contains(NotAnEndpoint.class.getName()) && notAnnotated.contains("@WebSocket"), notAnnotated);
        String wrong = assertThrows(IllegalArgumentException.class, () -> handler.addMapping("/b", WrongParameter.class)).getMessage();
        assertTrue(wrong.contains(WrongParameter.class.getName() + ".message(int)") && wrong.contains("(String)")
            && wrong.contains("(InputStream)"), wrong);
        String two = assertThrows(IllegalArgumentException.class, () -> handler.addMapping("/c", TwoTextMethods.class)).getMessage();
        assertTrue(two.contains("two text message methods") && two.contains("one(String)") && two.contains("two(Session, Reader)"), two);
        String returns = assertThrows(IllegalArgumentException.class, () -> handler.addMapping("/d", ReturnsSomething.class)).getMessage();
        assertTrue(returns.contains("closed(int, String)") && returns.contains("must return void"), returns);
        String statics = assertThrows(IllegalArgumentException.class, () -> handler.addMapping("/e", StaticMethod.class)).getMessage();
        assertTrue(statics.contains("failed(Throwable)") && statics.contains("static"), statics);
    }

    @WebSocket(maxBinaryMessageSize = 8 * 1024 * 1024)
    public static class StreamSummer {
        @OnWebSocketMessage
        public void stream(Session session, InputStream input) throws IOException {
            EVENTS.add("started");
            CRC32 crc = new CRC32();
            byte[] bytes = new byte[3000];
            long total = 0;
            int read;
            while ((read = input.read(bytes)) >= 0) {
                crc.update(bytes, 0, read);
                total += read;
            }
            session.sendText(total + ":" + crc.getValue(), Callback.NOOP);
        }

        @OnWebSocketMessage
        public void text(Session session, Reader reader) throws IOException {
            StringBuilder text = new StringBuilder();
            char[] chars = new char[7];
            int read;
            try {
                while ((read = reader.read(chars)) >= 0) {
                    text.append(chars, 0, read);
                }
            } catch (IOException x) {
                EVENTS.add("read failed");
                throw x;
            }
            if (text.toString().equals("throw")) {
                throw new IllegalStateException("asked to throw");
            }
            if (text.toString().equals("slow")) {
                EVENTS.add("slow");
                try {
                    Thread.sleep(500);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                }
            }
            session.sendText("text:" + text, Callback.NOOP);
        }

        @OnWebSocketError
        public void error(Throwable cause) {
            EVENTS.add("error:" + cause.getClass().getSimpleName());
        }
    }

    private static Frame frame(boolean fin, byte opcode, byte[] payload) {
        return new Frame(fin, 0, opcode, ByteBuffer.wrap(payload));
    }

    @Test
    void anInputStreamReadsTheFirstFrameBeforeTheMessageIsWhole() throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.setConfiguration(WebSocketConfiguration.defaults().withLimits(64 * 1024, 64 * 1024, 64 * 1024));
        start(handler.addMapping("/sum", StreamSummer.class));
        byte[] piece = new byte[64 * 1024];
        for (int i = 0; i < piece.length; i++) {
            piece[i] = (byte) (i * 31);
        }
        CRC32 crc = new CRC32();
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/sum")) {
            client.send(frame(false, OpCode.BINARY, piece));
            crc.update(piece);
            assertEquals("started", next());   // the method runs while the message is still arriving
            for (int i = 1; i < 64; i++) {
                client.send(frame(i == 63, OpCode.CONTINUATION, piece));
                crc.update(piece);
            }
            // 4 MiB through a session whose configured limit is 64 KiB: the class's limit applies, nothing is gathered whole.
            assertEquals(64 * piece.length + ":" + crc.getValue(), client.receiveText());
            client.sendClose(CloseStatus.NORMAL, "");
            assertEquals(CloseStatus.NORMAL, client.receiveClose().code());
        }
        assertTrue(leaks.pool().awaitNoLeaks(java.time.Duration.ofSeconds(5)), leaks.pool().leaks().toString());
    }

    @Test
    void aReaderGetsWholeCharactersSplitAnywhereBetweenFrames() throws Exception {
        start(new WebSocketUpgradeHandler().addMapping("/sum", StreamSummer.class));
        byte[] text = "a€𝄞b".repeat(5).getBytes(StandardCharsets.UTF_8);
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/sum")) {
            for (int i = 0; i < text.length; i++) {
                client.send(frame(i == text.length - 1, i == 0 ? OpCode.TEXT : OpCode.CONTINUATION, new byte[] {text[i]}));
            }
            assertEquals("text:" + "a€𝄞b".repeat(5), client.receiveText());
        }
    }

    @Test
    void badUtf8InAStreamedTextFailsTheReadAndCloses1007() throws Exception {
        start(new WebSocketUpgradeHandler().addMapping("/sum", StreamSummer.class));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/sum")) {
            client.send(frame(false, OpCode.TEXT, "fine so far".getBytes(StandardCharsets.UTF_8)));
            client.send(frame(true, OpCode.CONTINUATION, new byte[] {(byte) 0xC0, (byte) 0x80}));
            assertEquals(CloseStatus.BAD_DATA, client.receiveClose().code());
            assertEquals(java.util.Set.of("read failed", "error:ProtocolException"), java.util.Set.of(next(), next()));
            assertEquals(null, EVENTS.poll(200, TimeUnit.MILLISECONDS), "the failed read is reported once");
        }
    }

    @Test
    void aStreamedMessagePastTheLimitCloses1009() throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.setConfiguration(WebSocketConfiguration.defaults().withLimits(64 * 1024, 100, 100));
        start(handler.addMapping("/sum", StreamSummer.class));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/sum")) {
            client.send(frame(false, OpCode.TEXT, new byte[60]));
            client.send(frame(true, OpCode.CONTINUATION, new byte[60]));
            assertEquals(CloseStatus.MESSAGE_TOO_BIG, client.receiveClose().code());
        }
    }

    @Test
    void aStreamMethodThatThrowsReachesTheErrorMethodAndCloses1011() throws Exception {
        start(new WebSocketUpgradeHandler().addMapping("/sum", StreamSummer.class));
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/sum")) {
            client.sendText("throw");
            assertEquals(CloseStatus.SERVER_ERROR, client.receiveClose().code());
            assertEquals("error:IllegalStateException", next());
        }
    }

    @Test
    void aSlowStreamMethodDoesNotHoldOtherSessions() throws Exception {
        start(new WebSocketUpgradeHandler().addMapping("/sum", StreamSummer.class).addMapping("/echo", Echo.class));
        try (RawWebSocketClient slow = RawWebSocketClient.open(port, "/sum");
                RawWebSocketClient quick = RawWebSocketClient.open(port, "/echo")) {
            assertEquals("open", next());
            slow.sendText("slow");
            assertEquals("slow", next());
            long start = System.nanoTime();
            quick.sendText("quick");
            assertEquals("echo:quick", quick.receiveText());
            assertTrue(System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(400), "the echo waited for the slow method");
            assertEquals("text:slow", slow.receiveText());
        }
    }
}
