package io.wharf.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.client.HttpClient;
import io.wharf.websocket.api.WebSocketAdapter;
import io.wharf.websocket.client.WebSocketClient;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

/**
 * The adapter style: a server endpoint that extends {@link WebSocketAdapter} and answers with
 * blocking sends (its events run on the executor, so it may block), and a client adapter that
 * sends asynchronously and collects the answers.
 */
public final class WebSocketAdapterExample {

    private WebSocketAdapterExample() {
    }

    /** Shouts every text back in capitals, with a blocking send. */
    public static class Shout extends WebSocketAdapter {
        @Override
        public void onText(String text) {
            try {
                sendText(text.toUpperCase(java.util.Locale.ROOT));     // returns once written
            } catch (IOException x) {                                  // names what failed and why
                getSession().close(CloseStatus.SERVER_ERROR, "could not answer");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    /** Runs the example, printing what the client hears to {@code out}. */
    public static void run(PrintStream out) throws Exception {
        HttpClient http = new HttpClient();
        http.start();
        // One Shout per session.
        try (LoopbackServer server = new LoopbackServer(new WebSocketUpgradeHandler().addMapping("/shout", Shout.class))) {
            BlockingQueue<String> heard = new LinkedBlockingQueue<>();
            WebSocketAdapter listener = new WebSocketAdapter() {
                @Override public void onText(String text) { heard.add(text); }
                @Override public void onClose(int code, String reason) { heard.add("closed: " + code); }
            };
            new WebSocketClient(http).connect(listener, URI.create("ws://127.0.0.1:" + server.port() + "/shout"))
                .get(5, TimeUnit.SECONDS);
            out.println("connected: " + listener.isConnected());
            listener.sendTextAsync("ahoy").get(5, TimeUnit.SECONDS);             // or sendText("ahoy"), blocking
            out.println(heard.poll(5, TimeUnit.SECONDS));
            listener.getSession().close(CloseStatus.NORMAL, "done");
            out.println(heard.poll(5, TimeUnit.SECONDS));
        } finally {
            http.stop();
        }
    }
}
