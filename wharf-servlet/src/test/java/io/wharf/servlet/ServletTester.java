package io.wharf.servlet;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.RawResponse;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Test fixture: a {@link ServletContextHandler} on a server with an in-memory connector (no
 * Date or Server fields, so responses compare as text), on the test's leak-tracking pool, and
 * helpers to read raw responses. Tests configure {@link #context}, {@link #start()}, send
 * requests as text, and close it in {@code @AfterEach}, before the leak check.
 */
final class ServletTester implements AutoCloseable {

    final Server server;
    final HttpConfiguration configuration = new HttpConfiguration();
    final LocalConnector connector;
    final ServletContextHandler context;

    ServletTester(ByteBufferPool pool, String contextPath) {
        server = new Server(new QueuedThreadPool(), pool);
        configuration.setSendDateHeader(false);
        configuration.setSendServerVersion(false);
        connector = new LocalConnector(server, new HttpConnectionFactory(configuration));
        server.addConnector(connector);
        context = new ServletContextHandler(contextPath);
    }

    ServletTester start() throws Exception {
        server.setHandler(context);
        server.start();
        return this;
    }

    /** @return the response to a raw request (\n line ends are sent as CR LF) */
    String request(String raw) throws Exception {
        return connector.getResponse(raw.replace("\r\n", "\n").replace("\n", "\r\n"));
    }

    /** @return the response to {@code GET target} that closes the connection */
    String get(String target) throws Exception {
        return request("GET " + target + " HTTP/1.1\nHost: test\nConnection: close\n\n");
    }

    /** @return the response to a POST of {@code body}, sent as UTF-8, with {@code contentType} */
    String post(String target, String contentType, String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        // The connector sends text as ISO-8859-1: the body's UTF-8 bytes go as one char each.
        return connector.getResponse("POST " + target + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: "
            + contentType + "\r\nContent-Length: " + bytes.length + "\r\n\r\n" + new String(bytes, StandardCharsets.ISO_8859_1));
    }

    static int status(String response) {
        return RawResponse.status(response);
    }

    /** @return the content of a raw response read as UTF-8, its chunks joined when it is chunked */
    static String content(String response) {
        return new String(bytes(response).getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    /** @return the content of a raw response, one char a byte, its chunks joined when it is chunked */
    static String bytes(String response) {
        return RawResponse.content(response);
    }

    /** @return the first value of header {@code name}, or null */
    static String header(String response, String name) {
        return RawResponse.header(response, name);
    }

    /** @return every value of header {@code name}, in order */
    static List<String> headers(String response, String name) {
        return RawResponse.headers(response, name);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
