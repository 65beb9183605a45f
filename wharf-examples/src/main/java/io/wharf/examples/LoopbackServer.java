package io.wharf.examples;

import io.wharf.server.Handler;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;

/**
 * The small Wharf server the client and WebSocket examples talk to: one handler on 127.0.0.1, a free port.
 * Started by the example's thread; {@link #close()} stops it.
 */
final class LoopbackServer implements AutoCloseable {

    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory());

    LoopbackServer(Handler handler) throws Exception {
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
    }

    /** @return the port it listens on */
    int port() {
        return connector.getLocalPort();
    }

    /** @return {@code http://127.0.0.1:PORT}, without a trailing slash */
    String base() {
        return "http://127.0.0.1:" + connector.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
