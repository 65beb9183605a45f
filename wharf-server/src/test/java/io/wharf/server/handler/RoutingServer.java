package io.wharf.server.handler;

import java.time.Duration;

import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.LocalServer;
import io.wharf.server.Server;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * Test fixture of the routing handlers' tests: a server with a {@link LocalConnector} on the
 * test's leak-tracking pool, without Date and Server fields so responses compare as exact
 * text. Tests close it in {@code @AfterEach}, before the leak check runs.
 *
 * <p>Public for the tests in {@code handler.context} and {@code handler.log}.
 */
public final class RoutingServer implements AutoCloseable {

    public static final Duration WAIT = Duration.ofSeconds(10);

    private final LocalServer local;
    public final Server server;
    public final HttpConfiguration configuration;
    public final LocalConnector connector;

    public RoutingServer(ByteBufferPool pool) {
        local = new LocalServer(pool);
        server = local.server;
        configuration = local.configuration;
        connector = local.connector;
    }

    public RoutingServer start(Handler handler) throws Exception {
        local.start(handler);
        return this;
    }

    /** @return the first response to {@code request} (given with \n line ends) on a new connection */
    public String get(String request) throws Exception {
        return connector.getResponse(crlf(request));
    }

    /** @return the response to a plain GET of {@code target} with Host {@code host} */
    public String get(String host, String target) throws Exception {
        return connector.getResponse("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    }

    public static String crlf(String text) {
        return LocalServer.crlf(text);
    }

    /** @return the content of a raw response: what follows the blank line */
    public static String content(String response) {
        int end = response.indexOf("\r\n\r\n");
        return end < 0 ? response : response.substring(end + 4);
    }

    /** @return the status line's code */
    public static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    @Override
    public void close() throws Exception {
        local.close();
    }
}
