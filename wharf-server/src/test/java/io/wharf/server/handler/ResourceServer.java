package io.wharf.server.handler;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.LocalServer;
import io.wharf.server.Server;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * Test fixture for the resource and default handlers: a server with a {@link LocalConnector}
 * on the test's leak-tracking pool, without Date and Server fields, and a parser of raw
 * responses into {@link Reply}s. Tests stop it in {@code @AfterEach}, before the leak check.
 *
 * <p>Public for the resource tests in {@code handler.resource}.
 */
public final class ResourceServer implements AutoCloseable {

    private final LocalServer local;
    public final Server server;
    public final HttpConfiguration configuration;
    public final LocalConnector connector;

    public ResourceServer(ByteBufferPool pool) {
        local = new LocalServer(pool);
        server = local.server;
        configuration = local.configuration;
        connector = local.connector;
    }

    public ResourceServer start(Handler handler) throws Exception {
        local.start(handler);
        return this;
    }

    /** @return the reply to a GET of {@code target} with the extra header lines, on a new connection */
    public Reply get(String target, String... headerLines) throws Exception {
        return Reply.parse(connector.getResponse(request("GET", target, headerLines)));
    }

    /** @return the request text: method, target, Host, the extra header lines, blank line */
    public static String request(String method, String target, String... headerLines) {
        StringBuilder request = new StringBuilder().append(method).append(' ').append(target)
                .append(" HTTP/1.1\r\nHost: localhost\r\n");
        for (String line : headerLines) {
            request.append(line).append("\r\n");
        }
        return request.append("\r\n").toString();
    }

    @Override
    public void close() throws Exception {
        local.close();
    }

    /** A response split into status, header fields and body (bytes as ISO-8859-1 chars). */
    public record Reply(int status, List<String[]> fields, String body) {

        public static Reply parse(String raw) {
            if (raw == null) {
                throw new AssertionError("no response");
            }
            int end = raw.indexOf("\r\n\r\n");
            if (end < 0) {
                throw new AssertionError("no complete head in: " + raw);
            }
            String[] lines = raw.substring(0, end).split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            List<String[]> fields = new ArrayList<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                fields.add(new String[] {lines[i].substring(0, colon), lines[i].substring(colon + 1).trim()});
            }
            return new Reply(status, fields, raw.substring(end + 4));
        }

        /** @return the first value of the named field, or null */
        public String header(String name) {
            for (String[] field : fields) {
                if (field[0].equalsIgnoreCase(name)) {
                    return field[1];
                }
            }
            return null;
        }

        /** @return every value of the named field */
        public List<String> headers(String name) {
            return fields.stream().filter(field -> field[0].equalsIgnoreCase(name)).map(field -> field[1]).toList();
        }

        public byte[] bodyBytes() {
            return body.getBytes(StandardCharsets.ISO_8859_1);
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder().append(status);
            for (String[] field : fields) {
                text.append('\n').append(field[0]).append(": ").append(field[1]);
            }
            return text.append("\n\n").append(body.length() > 500 ? body.substring(0, 500) + "..." : body).toString();
        }
    }
}
