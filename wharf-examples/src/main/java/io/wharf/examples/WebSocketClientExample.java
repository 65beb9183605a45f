package io.wharf.examples;

import java.io.PrintStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.client.HttpClient;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.client.ClientUpgradeRequest;
import io.wharf.websocket.client.WebSocketClient;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.deflate.PerMessageDeflateFactory;

/**
 * The WebSocket client in a few calls: it connects to the echo server of {@code ./wharf ws-echo}
 * (started here on a free port) with permessage-deflate offered, sends a text and a binary
 * message, pings, and closes, printing what comes back.
 */
public final class WebSocketClientExample {

    private WebSocketClientExample() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    /** Runs the example, printing what it gets to {@code out}. */
    public static void run(PrintStream out) throws Exception {
        WebSocketEchoServer.Running echo = WebSocketEchoServer.start(0);
        HttpClient http = new HttpClient();            // its connector, TLS settings and pools serve the sessions
        http.start();
        try {
            WebSocketClient client = new WebSocketClient(http);
            client.addExtension(new PerMessageDeflateFactory());   // offer permessage-deflate
            client.setConfiguration(WebSocketConfiguration.defaults().withMaxMessageSize(1024 * 1024));  // 64 KiB by default

            BlockingQueue<String> heard = new LinkedBlockingQueue<>();
            WebSocketListener listener = new WebSocketListener() {  // NON_BLOCKING: runs on the reading thread
                @Override public void onText(String text) { heard.add("text: " + text); }
                @Override public void onBinary(ByteBuffer payload) { heard.add("binary: " + payload.remaining() + " bytes"); }
                @Override public void onPong(ByteBuffer payload) { heard.add("pong"); }
                @Override public void onClose(int code, String reason) { heard.add("closed: " + code); }
            };
            Session session = client.connect(listener, URI.create("ws://127.0.0.1:" + echo.port() + "/"),
                    ClientUpgradeRequest.defaults().withHeader("Origin", "http://localhost"))
                .get(5, TimeUnit.SECONDS);

            session.sendText("hello, wharf").get(5, TimeUnit.SECONDS);      // completes once written
            out.println(heard.poll(5, TimeUnit.SECONDS));
            session.sendBinary(ByteBuffer.wrap(new byte[100_000])).get(5, TimeUnit.SECONDS);
            out.println(heard.poll(5, TimeUnit.SECONDS));
            session.sendPing(ByteBuffer.allocate(0));
            out.println(heard.poll(5, TimeUnit.SECONDS));
            session.close(CloseStatus.NORMAL, "done");
            out.println(heard.poll(5, TimeUnit.SECONDS));
        } finally {
            http.stop();
            echo.server().stop();
        }
    }
}
