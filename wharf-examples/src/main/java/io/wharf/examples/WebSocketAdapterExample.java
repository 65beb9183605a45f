package io.wharf.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.client.HttpClient;
import io.wharf.server.HttpConnectionFactory;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
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
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server, 1, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new WebSocketUpgradeHandler().addMapping("/shout", Shout.class));  // one Shout per session
        server.start();
        HttpClient http = new HttpClient();
        http.start();
        try {
            BlockingQueue<String> heard = new LinkedBlockingQueue<>();
            WebSocketAdapter listener = new WebSocketAdapter() {
                @Override public void onText(String text) { heard.add(text); }
                @Override public void onClose(int code, String reason) { heard.add("closed: " + code); }
            };
            new WebSocketClient(http).connect(listener, URI.create("ws://127.0.0.1:" + connector.getLocalPort() + "/shout"))
                .get(5, TimeUnit.SECONDS);
            out.println("connected: " + listener.isConnected());
            listener.sendTextAsync("ahoy").get(5, TimeUnit.SECONDS);             // or sendText("ahoy"), blocking
            out.println(heard.poll(5, TimeUnit.SECONDS));
            listener.getSession().close(CloseStatus.NORMAL, "done");
            out.println(heard.poll(5, TimeUnit.SECONDS));
        } finally {
            http.stop();
            server.stop();
        }
    }
}
