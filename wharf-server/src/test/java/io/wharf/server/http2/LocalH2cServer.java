package io.wharf.server.http2;

import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Test fixture: a server on the test's (leak-tracking) buffer pool with one in-memory
 * connector that speaks HTTP/1.1 and h2c by prior knowledge under one {@link HttpConfiguration}
 * (no Date or Server fields, so heads compare as exact text). Configure {@link #http} before
 * {@link #start}; tests close it in {@code @AfterEach}, before the leak check runs.
 */
final class LocalH2cServer implements AutoCloseable {

    final Server server;
    final HttpConfiguration http = new HttpConfiguration();
    final LocalConnector connector;

    LocalH2cServer(ByteBufferPool pool) {
        server = new Server(new QueuedThreadPool(), pool);
        http.setSendDateHeader(false);
        http.setSendServerVersion(false);
        connector = new LocalConnector(server, new HttpConnectionFactory(http),
                new Http2CleartextConnectionFactory(http, new SessionConfiguration()));
        server.addConnector(connector);
    }

    /** Starts the server with {@code handler} (null for none). @return the connector */
    LocalConnector start(Handler handler) throws Exception {
        server.setHandler(handler);
        server.start();
        return connector;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
