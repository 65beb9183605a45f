package io.wharf.client;

import java.util.List;
import java.util.function.Consumer;

import io.wharf.http2.session.SessionConfiguration;
import io.wharf.io.ssl.SslConnectionFactory;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Test fixture: Wharf's server on 127.0.0.1 speaking HTTP/2 — h2c (prior knowledge, beside
 * HTTP/1.1) on plain TCP, or h2 by ALPN (beside http/1.1) over TLS with a test certificate —
 * with the session configuration a test sets, on the test's leak-tracking pool.
 */
final class Http2TestServer implements AutoCloseable {

    /** What a test sets before the server starts. */
    static final class Setup {
        final SessionConfiguration session = new SessionConfiguration();
        TestCertificate tls;
        /** What ALPN offers over TLS, most preferred first. */
        List<String> protocols = List.of("h2", "http/1.1");
    }

    final Server server;
    final ServerConnector connector;
    private final boolean secure;

    Http2TestServer(ByteBufferPool pool, Handler handler, Consumer<Setup> configure) throws Exception {
        Setup setup = new Setup();
        configure.accept(setup);
        server = new Server(new QueuedThreadPool(), pool);
        HttpConfiguration configuration = new HttpConfiguration();
        HttpConnectionFactory http = new HttpConnectionFactory(configuration);
        secure = setup.tls != null;
        if (secure) {
            SslConnectionFactory tls = SslConnectionFactory.forServer(setup.tls.serverContext());
            tls.setApplicationProtocols(setup.protocols);
            Http2ConnectionFactory h2 = new Http2ConnectionFactory(configuration, setup.session);
            connector = new ServerConnector(server, 1, new TestServer.TlsFirst(tls), http, h2);
        } else {
            connector = new ServerConnector(server, 1, http, new Http2CleartextConnectionFactory(configuration, setup.session));
        }
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
    }

    int port() {
        return connector.getLocalPort();
    }

    String uri(String path) {
        return (secure ? "https://localhost:" : "http://127.0.0.1:") + port() + path;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
