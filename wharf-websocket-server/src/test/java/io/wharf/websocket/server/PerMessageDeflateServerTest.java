package io.wharf.websocket.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import io.wharf.server.Server;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.OpCode;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.deflate.PerMessageDeflateFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * permessage-deflate through the server end to end, a raw client compressing with the JDK's
 * zlib: the handshake answer, compressed echo, RSV1 rules (1002), a deflate bomb stopped at the
 * message limit (1009) with the pool's memory bounded, all under the leak-tracking pool.
 */
class PerMessageDeflateServerTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private static final String OFFER = "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n";

    private Server server;
    private int port;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    private void start(boolean deflate, int limit) throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.setConfiguration(WebSocketConfiguration.defaults().withMaxMessageSize(limit));
        if (deflate) {
            handler.addExtension(new PerMessageDeflateFactory());
        }
        handler.addMapping("/echo", (request, response) -> new WebSocketListener() {
            Session session;

            @Override
            public void onOpen(Session session) {
                this.session = session;
            }

            @Override
            public void onText(String text) {
                session.sendText(text, Callback.NOOP);
            }
        });
        LoopbackWebSocketServer loopback = new LoopbackWebSocketServer(handler, leaks.pool());
        server = loopback.server;
        port = loopback.port;
    }

    private static byte[] deflate(Deflater deflater, byte[] input) {
        deflater.setInput(input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        int n;
        while ((n = deflater.deflate(chunk, 0, chunk.length, Deflater.SYNC_FLUSH)) > 0) {
            out.write(chunk, 0, n);
        }
        byte[] bytes = out.toByteArray();
        // zlib writes no second flush marker when nothing came in since the last: an empty message is then one 00 byte.
        return bytes.length < 4 ? new byte[] {0} : Arrays.copyOf(bytes, bytes.length - 4);
    }

    private static String inflate(Inflater inflater, ByteBuffer payload) throws DataFormatException {
        byte[] input = new byte[payload.remaining() + 4];
        payload.get(input, 0, payload.remaining());
        input[input.length - 3] = 0;
        input[input.length - 2] = (byte) 0xFF;
        input[input.length - 1] = (byte) 0xFF;
        inflater.setInput(input);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        int n;
        while ((n = inflater.inflate(chunk)) > 0) {
            out.write(chunk, 0, n);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void echoesCompressedMessagesWithContextTakeover() throws Exception {
        start(true, 1024 * 1024);
        Deflater deflater = new Deflater(6, true);
        Inflater inflater = new Inflater(true);
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo", OFFER)) {
            assertTrue(client.responseHead.contains("Sec-WebSocket-Extensions: permessage-deflate\r\n"), client.responseHead);
            for (String text : new String[] {"hello", "hello", "", "héllo wörld ".repeat(5000)}) {
                client.send(new Frame(true, 0b100, OpCode.TEXT, ByteBuffer.wrap(deflate(deflater, text.getBytes(StandardCharsets.UTF_8)))));
                Frame echo = client.receive();
                assertEquals(0b100, echo.rsv(), "the echo is compressed");
                assertEquals(text, inflate(inflater, echo.payload()));
            }
            // Fragmented: RSV1 on the first frame only; an uncompressed message between compressed ones.
            byte[] whole = deflate(deflater, "fragmented and compressed".getBytes(StandardCharsets.UTF_8));
            client.send(new Frame(false, 0b100, OpCode.TEXT, ByteBuffer.wrap(whole, 0, 5)));
            client.send(new Frame(true, 0, OpCode.CONTINUATION, ByteBuffer.wrap(whole, 5, whole.length - 5)));
            assertEquals("fragmented and compressed", inflate(inflater, client.receive().payload()));
            client.sendText("plain");
            assertEquals("plain", inflate(inflater, client.receive().payload()));
            client.sendClose(CloseStatus.NORMAL, "done");
            assertEquals(CloseStatus.NORMAL, client.receiveClose().code());
        } finally {
            deflater.end();
            inflater.end();
        }
    }

    @Test
    void reservedBitsOutsideTheirPlaceAre1002() throws Exception {
        start(true, 64 * 1024);
        byte[] payload = deflate(new Deflater(6, true), "x".getBytes(StandardCharsets.UTF_8));
        // RSV1 without the extension agreed.
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo")) {
            client.send(new Frame(true, 0b100, OpCode.TEXT, ByteBuffer.wrap(payload)));
            assertEquals(CloseStatus.PROTOCOL_ERROR, client.receiveClose().code());
        }
        // RSV1 on a continuation frame, and on a control frame, with it agreed.
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo", OFFER)) {
            client.send(new Frame(false, 0b100, OpCode.TEXT, ByteBuffer.wrap(payload)));
            client.send(new Frame(true, 0b100, OpCode.CONTINUATION, ByteBuffer.allocate(0)));
            assertEquals(CloseStatus.PROTOCOL_ERROR, client.receiveClose().code());
        }
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo", OFFER)) {
            client.send(new Frame(true, 0b100, OpCode.PING, ByteBuffer.allocate(0)));
            assertEquals(CloseStatus.PROTOCOL_ERROR, client.receiveClose().code());
        }
        // RSV2 is nobody's.
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo", OFFER)) {
            client.send(new Frame(true, 0b010, OpCode.TEXT, ByteBuffer.allocate(0)));
            assertEquals(CloseStatus.PROTOCOL_ERROR, client.receiveClose().code());
        }
    }

    @Test
    void aDeflateBombStopsAtTheMessageLimitWithoutGrowingMemory() throws Exception {
        int limit = 1024 * 1024;
        start(true, limit);
        // About 100 KiB that inflate to 100 MiB of text (deflate cannot beat about 1:1000).
        Deflater deflater = new Deflater(9, true);
        byte[] spaces = " ".repeat(1024 * 1024).getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        byte[] out = new byte[64 * 1024];
        for (int i = 0; i < 100; i++) {
            deflater.setInput(spaces);
            while (!deflater.needsInput()) {
                bomb.write(out, 0, deflater.deflate(out, 0, out.length, Deflater.NO_FLUSH));
            }
        }
        int n;
        while ((n = deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH)) > 0) {
            bomb.write(out, 0, n);
        }
        deflater.end();
        assertTrue(bomb.size() < 110 * 1024, "bomb of " + bomb.size() + " bytes");
        long before = usedHeap();
        try (RawWebSocketClient client = RawWebSocketClient.open(port, "/echo", OFFER)) {
            client.send(new Frame(true, 0b100, OpCode.TEXT, ByteBuffer.wrap(bomb.toByteArray())));
            CloseStatus status = client.receiveClose();
            assertEquals(CloseStatus.MESSAGE_TOO_BIG, status.code(), status.reason());
            assertTrue(client.awaitEndOfInput());
        }
        long grown = usedHeap() - before;
        assertFalse(grown > 32L * 1024 * 1024, "the heap grew by " + grown + " bytes for a 1 MiB limit");
    }

    private static long usedHeap() {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
