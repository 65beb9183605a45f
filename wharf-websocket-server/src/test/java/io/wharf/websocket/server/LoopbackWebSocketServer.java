package io.wharf.websocket.server;

import io.wharf.server.Handler;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * The server the session tests run against: one handler on 127.0.0.1 and a free port, one
 * selector, the test's (leak-tracking) buffer pool. Started by the constructor; {@link #close()} stops it.
 */
final class LoopbackWebSocketServer implements AutoCloseable {

    final Server server;
    final int port;

    LoopbackWebSocketServer(Handler handler, ByteBufferPool pool) throws Exception {
        server = new Server(new QueuedThreadPool(), pool);
        ServerConnector connector = new ServerConnector(server, 1, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
        port = connector.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
