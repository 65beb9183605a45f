package io.wharf.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.net.URI;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.client.HttpClient;
import io.wharf.util.Callback;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.annotations.OnWebSocketClose;
import io.wharf.websocket.api.annotations.OnWebSocketMessage;
import io.wharf.websocket.api.annotations.OnWebSocketOpen;
import io.wharf.websocket.api.annotations.WebSocket;
import io.wharf.websocket.client.WebSocketClient;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

/**
 * The annotation style, with streamed messages both ways: the server's {@link Counter} reads
 * text with a {@code Reader} and binary with an {@code InputStream} as the frames arrive
 * (a 10 MiB message never sits whole in memory), and the client, itself an annotated object,
 * sends that message through {@link Session#sendBinaryStream()} a fragment at a time.
 */
public final class AnnotatedWebSocketExample {

    private AnnotatedWebSocketExample() {
    }

    /** Counts what each message holds, reading it as it streams in. */
    @WebSocket(maxBinaryMessageSize = 64 * 1024 * 1024, idleTimeout = 60_000)
    public static class Counter {
        @OnWebSocketMessage
        public void text(Session session, Reader text) throws IOException {       // runs where it may block
            long chars = text.transferTo(java.io.Writer.nullWriter());
            session.sendText("text of " + chars + " chars", Callback.NOOP);
        }

        @OnWebSocketMessage
        public void binary(Session session, InputStream bytes) throws IOException {
            long count = bytes.transferTo(OutputStream.nullOutputStream());
            session.sendText("binary of " + count + " bytes", Callback.NOOP);
        }
    }

    /** The client's end: what the server says goes to a queue. */
    @WebSocket
    public static class Listener {
        final BlockingQueue<String> heard = new LinkedBlockingQueue<>();

        @OnWebSocketOpen
        public void open(Session session) {
            heard.add("open");
        }

        @OnWebSocketMessage
        public void text(String text) {
            heard.add(text);
        }

        @OnWebSocketClose
        public void close(int code, String reason) {
            heard.add("closed: " + code);
        }
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    /** Runs the example, printing what the client hears to {@code out}. */
    public static void run(PrintStream out) throws Exception {
        HttpClient http = new HttpClient();
        http.start();
        // The class is checked here: a method with parameters that do not fit fails now, naming it.
        try (LoopbackServer server = new LoopbackServer(new WebSocketUpgradeHandler().addMapping("/count", Counter.class))) {
            Listener listener = new Listener();
            Session session = new WebSocketClient(http)
                .connect(listener, URI.create("ws://127.0.0.1:" + server.port() + "/count"))
                .get(5, TimeUnit.SECONDS);
            out.println(listener.heard.poll(5, TimeUnit.SECONDS));
            try (OutputStream stream = session.sendBinaryStream()) {       // one message, sent in 4 KiB fragments
                byte[] chunk = new byte[64 * 1024];
                for (int i = 0; i < 160; i++) {
                    stream.write(chunk);
                }
            }
            out.println(listener.heard.poll(5, TimeUnit.SECONDS));
            try (java.io.Writer writer = session.sendTextWriter()) {
                writer.write("déjà vu ".repeat(1000));
            }
            out.println(listener.heard.poll(5, TimeUnit.SECONDS));
            session.close(CloseStatus.NORMAL, "done");
            out.println(listener.heard.poll(5, TimeUnit.SECONDS));
        } finally {
            http.stop();
        }
    }
}
