package io.wharf.tests.architecture.layer;

import java.util.function.IntSupplier;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.util.Callback;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

/**
 * A WebSocket echo server on loopback, HTTP/1.1 only, started by its constructor: it answers
 * each text message on {@code /echo} with {@code "echo: "} and the text. {@link ModulePathTest}
 * runs it in a module layer of {@code io.wharf.websocket.server} and what it requires, without
 * {@code wharf-http2} or the client: it is loaded by a class loader whose parent is the layer's,
 * so it sees Wharf only as those modules, and talks to the test through JDK types alone
 * ({@link #getAsInt()} is the port, {@link #close()} stops the server).
 *
 * @see io.wharf.tests.architecture.ModulePathTest
 */
public final class EchoServer implements IntSupplier, AutoCloseable {

    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory());

    public EchoServer() throws Exception {
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new WebSocketUpgradeHandler().addMapping("/echo", (request, response) -> new Echo()));
        server.start();
    }

    @Override
    public int getAsInt() {
        return connector.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    /** One session's listener, on the selector thread. */
    private static final class Echo implements WebSocketListener {
        private Session session;

        @Override
        public void onOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onText(String text) {
            session.sendText("echo: " + text, Callback.NOOP);
        }
    }
}
