package io.wharf.examples;

import java.io.PrintStream;
import java.net.URI;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.client.HttpClient;
import io.wharf.client.HttpTransport;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.util.Callback;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.client.ClientUpgradeRequest;
import io.wharf.websocket.client.WebSocketClient;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

/**
 * WebSocket over HTTP/2 (RFC 8441): a server whose h2c connections enable extended CONNECT
 * (the default) serves a WebSocket at {@code /echo} and plain requests elsewhere; the client
 * makes a GET over HTTP/2, then opens the WebSocket as an extended CONNECT on an h2c
 * connection, and prints what it hears.
 */
public final class WebSocketOverHttp2Example {

    private WebSocketOverHttp2Example() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    /** Echoes text, naming the HTTP version its handshake came over. */
    public static final class Echo implements WebSocketListener {
        private final String version;
        private Session session;

        Echo(String version) {
            this.version = version;
        }

        @Override public void onOpen(Session session) { this.session = session; }
        @Override public void onText(String text) { session.sendText(text + " over " + version, Callback.NOOP); }
    }

    /** Runs the example, printing what it gets to {@code out}. */
    public static void run(PrintStream out) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server,
                new HttpConnectionFactory(), new Http2CleartextConnectionFactory());  // HTTP/1.1 and h2c on one port
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        WebSocketUpgradeHandler websocket = new WebSocketUpgradeHandler();
        websocket.addMapping("/echo", (request, response) ->
                new Echo(request.request().getConnectionMetaData().getHttpVersion().asString()));
        Handler hello = Handler.of((request, response, callback) -> {
            Response.write(response, true, "hello", callback);
            return true;
        });
        server.setHandler(new Handler.Sequence(websocket, hello));
        server.start();

        HttpClient http = new HttpClient(HttpTransport.HTTP_2);   // h2c with prior knowledge for http://
        http.start();
        try {
            String base = "127.0.0.1:" + connector.getLocalPort();
            var answer = http.GET("http://" + base + "/");
            out.println("GET / over " + answer.getVersion() + ": " + answer.getContentAsString());

            WebSocketClient client = new WebSocketClient(http);
            BlockingQueue<String> heard = new LinkedBlockingQueue<>();
            WebSocketListener listener = new WebSocketListener() {
                @Override public void onText(String text) { heard.add("text: " + text); }
                @Override public void onClose(int code, String reason) { heard.add("closed: " + code); }
            };
            Session session = client.connect(listener, URI.create("ws://" + base + "/echo"),
                    ClientUpgradeRequest.defaults().withHttp2(true))   // an extended CONNECT, not GET + Upgrade
                .get(5, TimeUnit.SECONDS);
            session.sendText("hello").get(5, TimeUnit.SECONDS);
            out.println(heard.poll(5, TimeUnit.SECONDS));
            session.close(CloseStatus.NORMAL, "done");
            out.println(heard.poll(5, TimeUnit.SECONDS));
        } finally {
            http.stop();
            server.stop();
        }
    }
}
