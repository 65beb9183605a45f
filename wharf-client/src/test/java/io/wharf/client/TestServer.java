package io.wharf.client;

import java.nio.file.Path;
import java.time.Duration;

import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.HttpConnectionFactory;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Test fixture: Wharf's own server on 127.0.0.1 (an ephemeral port) or on a Unix domain
 * socket, on the test's leak-tracking buffer pool, with one handler. {@link Loopback} closes
 * it after the test, before the leak check.
 */
@SuppressWarnings("try") // close() stops a server, which may be interrupted; tests let that propagate.
final class TestServer implements AutoCloseable {

    final Server server;
    final ServerConnector connector;
    final HttpConfiguration configuration = new HttpConfiguration();

    TestServer(ByteBufferPool pool, Handler handler) throws Exception {
        this(pool, handler, (Duration) null);
    }

    /** @param idleTimeout the server's idle timeout, or null for its default */
    TestServer(ByteBufferPool pool, Handler handler, Duration idleTimeout) throws Exception {
        this(pool, handler, idleTimeout, null);
    }

    /** A server on the Unix domain socket {@code socket} (any Host the client names reaches it). */
    TestServer(ByteBufferPool pool, Handler handler, Path socket) throws Exception {
        this(pool, handler, null, socket);
    }

    private TestServer(ByteBufferPool pool, Handler handler, Duration idleTimeout, Path socket) throws Exception {
        server = new Server(new QueuedThreadPool(), pool);
        connector = new ServerConnector(server, 1, new HttpConnectionFactory(configuration));
        if (socket != null) {
            connector.setUnixSocket(socket);
        } else {
            connector.setHost("127.0.0.1");
        }
        if (idleTimeout != null) {
            connector.setIdleTimeout(idleTimeout);
        }
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
    }

    int port() {
        return connector.getLocalPort();
    }

    String uri(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
