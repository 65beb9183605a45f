package io.wharf.websocket.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import io.wharf.client.HttpClient;
import io.wharf.server.Server;
import io.wharf.testing.LeakTracking;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketAdapter;
import io.wharf.websocket.api.annotations.OnWebSocketClose;
import io.wharf.websocket.api.annotations.OnWebSocketMessage;
import io.wharf.websocket.api.annotations.WebSocket;
import io.wharf.websocket.client.WebSocketClient;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.deflate.PerMessageDeflateFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The adapter and the streamed and fragmented sends, client to server with both ends on
 * Wharf, under the leak-tracking pool; and a stress run of many sessions streaming messages at
 * once, through the client's fragmenting stream and the server's hand-over to a blocking
 * reader ({@code StreamedPieces}), with permessage-deflate.
 */
class StreamedSendTest {

    private static final long WAIT = 10;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;
    private HttpClient http;
    private WebSocketClient client;
    private URI base;

    @AfterEach
    void stop() throws Exception {
        if (http != null) {
            http.stop();
        }
        if (server != null) {
            server.stop();
        }
        assertTrue(leaks.pool().awaitNoLeaks(Duration.ofSeconds(5)), leaks.pool().leaks().toString());
    }

    /** Answers each text with its length and whether it is the expected text, blocking send and all. */
    public static class LengthAdapter extends WebSocketAdapter {
        @Override
        public void onText(String text) {
            try {
                sendText(text.length() + ":" + text.hashCode());
            } catch (IOException x) {
                getSession().close(CloseStatus.SERVER_ERROR, "reply failed");
            }
        }
    }

    /** The client's end in the annotation style: what comes back goes to a queue. */
    @WebSocket(maxTextMessageSize = 1024 * 1024)
    public static class Collector {
        final BlockingQueue<String> heard = new LinkedBlockingQueue<>();

        @OnWebSocketMessage
        public void text(String text) {
            heard.add(text);
        }

        @OnWebSocketClose
        public void closed(Session session, int code, String reason) {
            heard.add("close:" + code);
        }

        String next() throws InterruptedException {
            String text = heard.poll(WAIT, TimeUnit.SECONDS);
            assertNotNull(text, "nothing heard within " + WAIT + " s");
            return text;
        }
    }

    private void start(boolean deflate) throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler()
            .addMapping("/length", LengthAdapter.class)
            .addMapping("/sum", AnnotatedEndpointTest.StreamSummer.class);
        if (deflate) {
            handler.addExtension(new PerMessageDeflateFactory());
        }
        LoopbackWebSocketServer loopback = new LoopbackWebSocketServer(handler, leaks.pool());
        server = loopback.server;
        base = URI.create("ws://127.0.0.1:" + loopback.port);
        http = new HttpClient();
        http.setByteBufferPool(leaks.pool());
        http.start();
        client = new WebSocketClient(http);
        if (deflate) {
            client.addExtension(new PerMessageDeflateFactory());
        }
    }

    private Session connect(Object endpoint, String path) throws Exception {
        return client.connect(endpoint, base.resolve(path)).get(WAIT, TimeUnit.SECONDS);
    }

    @Test
    void aWriterSendsOneMessageInFragmentsKeepingSurrogatePairsWhole() throws Exception {
        start(false);
        Collector collector = new Collector();
        Session session = connect(collector, "/length");
        // A clef (a surrogate pair) straddles every 4096-char fragment boundary.
        String text = ("x".repeat(4095) + "𝄞").repeat(10);
        try (Writer writer = session.sendTextWriter()) {
            for (int i = 0; i < text.length(); i += 1000) {
                writer.write(text, i, Math.min(1000, text.length() - i));
            }
        }
        assertEquals(text.length() + ":" + text.hashCode(), collector.next());
        session.close(CloseStatus.NORMAL, "done");
        assertEquals("close:" + CloseStatus.NORMAL, collector.next());
    }

    @Test
    void aWriterStreamsIntoAReaderUnderDeflateWithCharactersSplitAnywhere() throws Exception {
        start(true);
        Collector collector = new Collector();
        Session session = connect(collector, "/sum");
        String text = "déjà 𝄞 vu € ".repeat(3000);
        try (Writer writer = session.sendTextWriter()) {
            for (int i = 0; i < text.length(); i += 333) {
                writer.write(text, i, Math.min(333, text.length() - i));
                writer.flush();
            }
        }
        assertEquals("text:" + text, collector.next());
        session.close(CloseStatus.NORMAL, "done");
        assertEquals("close:" + CloseStatus.NORMAL, collector.next());
    }

    @Test
    void anOutputStreamStreamsIntoAnInputStreamWithAndWithoutDeflate() throws Exception {
        for (boolean deflate : new boolean[] {false, true}) {
            start(deflate);
            Collector collector = new Collector();
            Session session = connect(collector, "/sum");
            byte[] bytes = new byte[1024 * 1024 + 17];
            new Random(deflate ? 2 : 1).nextBytes(bytes);
            CRC32 crc = new CRC32();
            crc.update(bytes);
            try (OutputStream output = session.sendBinaryStream()) {
                for (int i = 0; i < bytes.length; i += 777) {
                    output.write(bytes, i, Math.min(777, bytes.length - i));
                    if (i % 100_000 < 777) {
                        output.flush();
                    }
                }
            }
            assertEquals(bytes.length + ":" + crc.getValue(), collector.next());
            session.close(CloseStatus.NORMAL, "done");
            assertEquals("close:" + CloseStatus.NORMAL, collector.next());
            http.stop();
            server.stop();
        }
    }

    @Test
    void aMessageUnderWayInFragmentsRefusesWholeMessagesAndTheOtherKind() throws Exception {
        start(false);
        Collector collector = new Collector();
        Session session = connect(collector, "/length");
        session.sendPartialText("ab", false).get(WAIT, TimeUnit.SECONDS);
        ExecutionException whole = assertThrows(ExecutionException.class, () -> session.sendText("no").get(WAIT, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, whole.getCause());
        ExecutionException binary = assertThrows(ExecutionException.class,
            () -> session.sendPartialBinary(java.nio.ByteBuffer.allocate(1), true).get(WAIT, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, binary.getCause());
        session.sendPartialText("c", true).get(WAIT, TimeUnit.SECONDS);
        assertEquals("3:" + "abc".hashCode(), collector.next());
        session.sendText("whole again").get(WAIT, TimeUnit.SECONDS);
        assertEquals("11:" + "whole again".hashCode(), collector.next());
    }

    @Test
    void theAdaptersBlockingSendFailsWithAnIOExceptionNamingWhatFailed() throws Exception {
        start(false);
        LengthAdapter adapter = new LengthAdapter();
        connect(adapter, "/length");
        assertTrue(adapter.isConnected());
        adapter.sendText("hello");
        adapter.getSession().close(CloseStatus.NORMAL, "bye");
        IOException failed = assertThrows(IOException.class, () -> adapter.sendText("too late"));
        assertTrue(failed.getMessage().contains("failed to send a text message of 8 chars"), failed.getMessage());
        assertTrue(!adapter.isConnected());
        assertThrows(ExecutionException.class, () -> adapter.sendTextAsync("late").get(WAIT, TimeUnit.SECONDS));
    }

    @Test
    void manySessionsStreamAtOnceUnderDeflate() throws Exception {
        start(true);
        int sessions = 8;
        int messages = 25;
        ExecutorService senders = Executors.newFixedThreadPool(sessions);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int s = 0; s < sessions; s++) {
                int seed = s;
                runs.add(senders.submit(() -> {
                    Random random = new Random(seed);
                    Collector collector = new Collector();
                    Session session = connect(collector, "/sum");
                    for (int m = 0; m < messages; m++) {
                        byte[] bytes = new byte[random.nextInt(200_000)];
                        // Compressible and not: half the messages repeat a pattern.
                        if (m % 2 == 0) {
                            random.nextBytes(bytes);
                        } else {
                            for (int i = 0; i < bytes.length; i++) {
                                bytes[i] = (byte) (i % 61);
                            }
                        }
                        CRC32 crc = new CRC32();
                        crc.update(bytes);
                        try (OutputStream output = session.sendBinaryStream()) {
                            int at = 0;
                            while (at < bytes.length) {
                                int chunk = Math.min(bytes.length - at, 1 + random.nextInt(9000));
                                output.write(bytes, at, chunk);
                                at += chunk;
                                if (random.nextInt(4) == 0) {
                                    output.flush();
                                }
                            }
                        }
                        assertEquals(bytes.length + ":" + crc.getValue(), collector.next(), "session " + seed + " message " + m);
                    }
                    session.close(CloseStatus.NORMAL, "done");
                    assertEquals("close:" + CloseStatus.NORMAL, collector.next());
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(60, TimeUnit.SECONDS);
            }
        } finally {
            senders.shutdownNow();
        }
    }
}
