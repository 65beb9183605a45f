package io.wharf.webapp;

import java.nio.file.Path;

import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Server;
import io.wharf.server.handler.context.ContextHandlerCollection;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Test fixture: a server with an in-memory connector (no Date or Server fields) and a
 * {@link ContextHandlerCollection} for deployed applications, on the test's leak-tracking pool.
 * Tests start it, deploy into {@link #contexts} (or through a deployer added as a bean), send raw
 * requests (read with {@link io.wharf.testing.RawResponse}), and close it in {@code @AfterEach},
 * before the leak check.
 */
final class DeployTester implements AutoCloseable {

    final Server server;
    final LocalConnector connector;
    final ContextHandlerCollection contexts = new ContextHandlerCollection();
    final Path temp;
    final WebAppSettings settings;

    /** @param temp where work directories go (a @TempDir) */
    DeployTester(ByteBufferPool pool, Path temp) {
        this.temp = temp;
        this.settings = WebAppSettings.defaults().withTempDirectory(temp.resolve("work"));
        server = new Server(new QueuedThreadPool(), pool);
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setSendDateHeader(false);
        configuration.setSendServerVersion(false);
        connector = new LocalConnector(server, new HttpConnectionFactory(configuration));
        server.setHandler(contexts);
    }

    DeployTester start() throws Exception {
        server.addConnector(connector);
        server.start();
        return this;
    }

    /** @return the response to {@code GET target}, with extra header lines, on a connection that closes after it */
    String get(String target, String... headers) throws Exception {
        StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        return connector.getResponse(request.append("\r\n").toString());
    }

    /** @return the response to a POST of {@code body} (ASCII) with {@code contentType} */
    String post(String target, String contentType, String body) throws Exception {
        return connector.getResponse("POST " + target + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: " + contentType
            + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
