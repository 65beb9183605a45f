package io.wharf.webapp;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
 * requests, and close it in {@code @AfterEach}, before the leak check.
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

    static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    /** @return the content of a raw response, its chunks joined when it is chunked */
    static String content(String response) {
        int end = response.indexOf("\r\n\r\n");
        String body = end < 0 ? "" : response.substring(end + 4);
        if (!"chunked".equalsIgnoreCase(header(response, "Transfer-Encoding"))) {
            return body;
        }
        StringBuilder joined = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                return joined.toString();
            }
            joined.append(body, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
    }

    /** @return the first value of header {@code name}, or null */
    static String header(String response, String name) {
        int end = response.indexOf("\r\n\r\n");
        String head = end < 0 ? response : response.substring(0, end);
        List<String> values = new ArrayList<>();
        String prefix = name.toLowerCase(Locale.ROOT) + ":";
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                values.add(line.substring(prefix.length()).trim());
            }
        }
        return values.isEmpty() ? null : values.get(0);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
