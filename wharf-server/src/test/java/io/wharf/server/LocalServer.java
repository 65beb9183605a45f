package io.wharf.server;

import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Test fixture: a server with a {@link LocalConnector} on the test's (leak-tracking) buffer
 * pool, without Date and Server fields so responses compare as exact text. Tests stop it in
 * {@code @AfterEach}, before the leak check runs.
 */
public final class LocalServer implements AutoCloseable {

    public final Server server;
    public final HttpConfiguration configuration = new HttpConfiguration();
    public final LocalConnector connector;

    public LocalServer(ByteBufferPool pool) {
        server = new Server(new QueuedThreadPool(), pool);
        connector = new LocalConnector(server, new HttpConnectionFactory(configuration));
        server.addConnector(connector);
        configuration.setSendDateHeader(false);
        configuration.setSendServerVersion(false);
    }

    public LocalServer start(Handler handler) throws Exception {
        server.setHandler(handler);
        server.start();
        return this;
    }

    /** @return the first response to {@code request} (CRLF line ends given as \n) on a new connection */
    public String get(String request) throws Exception {
        return connector.getResponse(crlf(request));
    }

    /** @return {@code text} with every \n made CR LF, for requests written in text blocks */
    public static String crlf(String text) {
        return text.replace("\r\n", "\n").replace("\n", "\r\n");
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
