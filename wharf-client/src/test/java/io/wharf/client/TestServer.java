package io.wharf.client;

import java.nio.file.Path;
import java.time.Duration;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslConnection;
import io.wharf.io.ssl.SslConnectionFactory;
import io.wharf.io.ssl.SslHandshake;
import io.wharf.server.ConnectionFactory;
import io.wharf.server.Connector;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Test fixture: Wharf's own server on 127.0.0.1 (an ephemeral port) or on a Unix domain
 * socket, on the test's leak-tracking buffer pool, with one handler, over plain TCP or over
 * TLS. {@link Loopback} closes it after the test, before the leak check.
 */
@SuppressWarnings("try") // close() stops a server, which may be interrupted; tests let that propagate.
final class TestServer implements AutoCloseable {

    final Server server;
    final ServerConnector connector;
    final HttpConfiguration configuration = new HttpConfiguration();
    private final boolean secure;

    TestServer(ByteBufferPool pool, Handler handler) throws Exception {
        this(pool, handler, (Duration) null);
    }

    /** @param idleTimeout the server's idle timeout, or null for its default */
    TestServer(ByteBufferPool pool, Handler handler, Duration idleTimeout) throws Exception {
        this(pool, handler, idleTimeout, null, null);
    }

    /**
     * @param idleTimeout the server's idle timeout, or null for its default
     * @param tls the server side of TLS, wrapping every connection before HTTP/1.1; null for plain TCP
     */
    TestServer(ByteBufferPool pool, Handler handler, Duration idleTimeout, SslConnectionFactory tls) throws Exception {
        this(pool, handler, idleTimeout, tls, null);
    }

    /** A server on the Unix domain socket {@code socket} (any Host the client names reaches it). */
    TestServer(ByteBufferPool pool, Handler handler, Path socket) throws Exception {
        this(pool, handler, null, null, socket);
    }

    private TestServer(ByteBufferPool pool, Handler handler, Duration idleTimeout, SslConnectionFactory tls, Path socket) throws Exception {
        server = new Server(new QueuedThreadPool(), pool);
        HttpConnectionFactory http = new HttpConnectionFactory(configuration);
        connector = tls == null
                ? new ServerConnector(server, 1, http)
                : new ServerConnector(server, 1, new TlsFirst(tls), http);
        this.secure = tls != null;
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

    /** @return the server's open connections */
    int connectionCount() {
        return connector.getConnectionCount();
    }

    String uri(String path) {
        return (secure ? "https" : "http") + "://127.0.0.1:" + port() + path;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    /**
     * TLS on each accepted endpoint, then the connector's HTTP/1.1 on the decrypted one, upgraded
     * to the connector's {@code h2} (when it has one) if ALPN picked that.
     */
    record TlsFirst(SslConnectionFactory tls) implements ConnectionFactory {
        @Override
        public String getProtocol() {
            return "SSL";
        }

        @Override
        public Connection newConnection(Connector connector, EndPoint endPoint) {
            ConnectionFactory http = connector.getConnectionFactory("HTTP/1.1");
            ConnectionFactory h2 = connector.getConnectionFactory("h2");
            SslConnection connection = tls.newConnection(endPoint, connector.getExecutor(), connector.getByteBufferPool(),
                    decrypted -> http.newConnection(connector, decrypted));
            if (h2 != null) {
                connection.addListener(new SslConnection.Listener() {
                    @Override
                    public void handshakeSucceeded(SslHandshake handshake) {
                        if ("h2".equals(handshake.applicationProtocol())) {
                            handshake.endPoint().upgrade(h2.newConnection(connector, handshake.endPoint()));
                        }
                    }
                });
            }
            return connection;
        }
    }
}
