package io.wharf.server.handler;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.LocalServer;
import io.wharf.server.Server;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * Test fixture of the gzip and size-limit handler tests: a server with a
 * {@link LocalConnector} on the test's leak-tracking buffer pool, without Date and Server
 * fields, and a parser of raw responses that undoes chunked framing. Tests stop it in
 * {@code @AfterEach}, before the leak check runs.
 *
 * <p>Public for the gzip tests in {@code handler.gzip}.
 */
public final class GzipServer implements AutoCloseable {

    private final LocalServer local;
    public final Server server;
    public final HttpConfiguration configuration;
    public final LocalConnector connector;

    public GzipServer(ByteBufferPool pool) {
        local = new LocalServer(pool);
        server = local.server;
        configuration = local.configuration;
        connector = local.connector;
    }

    public GzipServer start(Handler handler) throws Exception {
        local.start(handler);
        return this;
    }

    /** @return the parsed first response to {@code request} (a head in a text block, \n line ends) */
    public Reply get(String request) throws Exception {
        return Reply.parse(connector.getResponse(crlf(request)));
    }

    public static String crlf(String text) {
        return LocalServer.crlf(text);
    }

    @Override
    public void close() throws Exception {
        local.close();
    }

    /**
     * A raw response split into its status, its header lines and its content, chunked framing
     * removed.
     */
    public record Reply(int status, List<String> fields, byte[] content, String raw) {

        public static Reply parse(String raw) {
            if (raw == null) {
                throw new AssertionError("no response: the server closed first");
            }
            int end = raw.indexOf("\r\n\r\n");
            if (end < 0) {
                throw new AssertionError("no complete head in: " + raw);
            }
            String[] lines = raw.substring(0, end).split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            List<String> fields = List.of(lines).subList(1, lines.length);
            byte[] body = raw.substring(end + 4).getBytes(StandardCharsets.ISO_8859_1);
            Reply reply = new Reply(status, fields, body, raw);
            if ("chunked".equalsIgnoreCase(reply.field("Transfer-Encoding"))) {
                reply = new Reply(status, fields, dechunk(body), raw);
            }
            return reply;
        }

        /** @return the value of the only field named {@code name}, or null; fails when there are several */
        public String field(String name) {
            List<String> values = values(name);
            if (values.size() > 1) {
                throw new AssertionError("several " + name + " fields in: " + fields);
            }
            return values.isEmpty() ? null : values.get(0);
        }

        public List<String> values(String name) {
            List<String> values = new ArrayList<>();
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            for (String line : fields) {
                if (line.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                    values.add(line.substring(prefix.length()).trim());
                }
            }
            return values;
        }

        public String text() {
            return new String(content, StandardCharsets.UTF_8);
        }

        private static byte[] dechunk(byte[] body) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int at = 0;
            while (true) {
                int lineEnd = indexOfCrlf(body, at);
                String sizeLine = new String(body, at, lineEnd - at, StandardCharsets.ISO_8859_1);
                int semicolon = sizeLine.indexOf(';');
                int size = Integer.parseInt(semicolon < 0 ? sizeLine.trim() : sizeLine.substring(0, semicolon).trim(), 16);
                at = lineEnd + 2;
                if (size == 0) {
                    return out.toByteArray();
                }
                out.write(body, at, size);
                at += size + 2;
            }
        }

        private static int indexOfCrlf(byte[] bytes, int from) {
            for (int i = from; i + 1 < bytes.length; i++) {
                if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                    return i;
                }
            }
            throw new AssertionError("truncated chunked content");
        }
    }
}
