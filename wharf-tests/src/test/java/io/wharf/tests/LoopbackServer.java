package io.wharf.tests;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.wharf.examples.DemoCertificate;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Test helper for the suites that drive a servlet context with real clients
 * ({@link ServletRealClientsTest}, {@link SpringMvcTest}, {@link JerseyServletTest}): one Wharf
 * server on loopback with a cleartext connector (HTTP/1.1 and h2c) and a TLS one (h2 and
 * HTTP/1.1 by ALPN) around one servlet context, and curl to drive it by protocol name
 * ({@code http/1.1}, {@code h2c}, {@code h2}). Made, started and stopped by the test, on its
 * thread.
 */
final class LoopbackServer {

    /** The protocols every framework test runs over. */
    static final List<String> PROTOCOLS = List.of("http/1.1", "h2c", "h2");

    private final Server server;
    private final ServerConnector plain;
    private final ServerConnector tls;
    private final Path pem;

    /** A server for {@code context}, its TLS certificate made in {@code directory}; not started. */
    LoopbackServer(ServletContextHandler context, ByteBufferPool pool, Path directory) throws Exception {
        Path certificates = directory.resolve("tls");
        server = new Server(new QueuedThreadPool(), pool);
        plain = new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
        tls = new ServerConnector(server, new TlsConnectionFactory(DemoCertificate.in(certificates)),
            new HttpConnectionFactory(), new Http2ConnectionFactory());
        for (ServerConnector connector : List.of(plain, tls)) {
            connector.setHost("127.0.0.1");
            server.addConnector(connector);
        }
        pem = certificates.resolve("demo.pem");
        server.setHandler(context);
    }

    void start() throws Exception {
        server.start();
    }

    void stop() throws Exception {
        server.stop();
    }

    /** Stops {@code server} if there is one, then checks that it returned every buffer to {@code leaks}. */
    static void stop(LoopbackServer server, LeakTracking leaks) throws Exception {
        if (server != null) {
            server.stop();
        }
        leaks.verify(LeakTracking.DEFAULT_GRACE);
    }

    /** @return the PEM file of the certificate the TLS connector presents (for localhost) */
    Path pem() {
        return pem;
    }

    /** @return the origin for {@code protocol}: {@code https://localhost:PORT} for h2, else {@code http://127.0.0.1:PORT} */
    String origin(String protocol) {
        return protocol.equals("h2") ? "https://localhost:" + tls.getLocalPort() : "http://127.0.0.1:" + plain.getLocalPort();
    }

    /** @return the curl options that make it speak {@code protocol} */
    List<String> curlOptions(String protocol) {
        return switch (protocol) {
            case "http/1.1" -> List.of("--http1.1");
            case "h2c" -> List.of("--http2-prior-knowledge");
            case "h2" -> List.of("--http2", "--cacert", pem.toString());
            default -> throw new IllegalArgumentException(protocol);
        };
    }

    /** Runs curl over {@code protocol} with {@code arguments} and returns what it printed. */
    String curl(String protocol, String... arguments) throws Exception {
        return Curl.run(withCurlOptions(protocol, arguments));
    }

    /** Runs curl over {@code protocol} with {@code arguments} and returns what it printed on both outputs (see {@link Curl#traced}). */
    Curl.Printed curlTraced(String protocol, String... arguments) throws Exception {
        return Curl.traced(withCurlOptions(protocol, arguments));
    }

    private String[] withCurlOptions(String protocol, String... arguments) {
        List<String> command = new ArrayList<>(curlOptions(protocol));
        command.addAll(List.of(arguments));
        return command.toArray(String[]::new);
    }

    /** Runs curl over {@code protocol} with {@code -i} and {@code arguments}, and parses its answer. */
    Answer fetch(String protocol, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("-i"));
        command.addAll(List.of(arguments));
        return Answer.parse(curl(protocol, command.toArray(String[]::new)));
    }

    /** POSTs {@code body} as {@code contentType} to {@code url} over {@code protocol}. */
    Answer post(String protocol, String url, String contentType, String body) throws Exception {
        return fetch(protocol, "-H", "Content-Type: " + contentType, "--data-binary", body, url);
    }

    /**
     * Fetches {@code url} over {@code protocol}, asserting that the answer took at least
     * {@code atLeastMillis} and less than five seconds (for answers a timeout gives).
     */
    Answer fetchTakingAtLeast(long atLeastMillis, String protocol, String url) throws Exception {
        long started = System.nanoTime();
        Answer answer = fetch(protocol, url);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        if (millis < atLeastMillis || millis >= 5_000) {
            throw new AssertionError(url + " answered after " + millis + " ms, expected at least " + atLeastMillis + " ms: " + answer);
        }
        return answer;
    }

    /** Starts curl over {@code protocol} in the background, its output to {@code output} (see {@link Curl#start}). */
    Process curlInBackground(String protocol, Path output, String... arguments) throws Exception {
        return Curl.start(output, withCurlOptions(protocol, arguments));
    }

    /** Waits up to {@code millis} for {@code file} to contain {@code text}; returns whether it did. */
    static boolean await(Path file, String text, long millis) throws Exception {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.readString(file).contains(text)) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /**
     * An answer as {@code curl -i} printed it: the status, the fields (names in lower case; the
     * last of a repeated one) and the body. Informational answers (100 Continue) are skipped.
     */
    record Answer(String version, int status, Map<String, String> fields, String body) {

        static Answer parse(String printed) {
            String rest = printed;
            while (true) {
                int end = rest.indexOf("\r\n\r\n");
                if (end < 0) {
                    throw new AssertionError("no header block in: " + printed);
                }
                String[] lines = rest.substring(0, end).split("\r\n");
                String[] statusLine = lines[0].split(" ", 3);
                int status = Integer.parseInt(statusLine[1]);
                String body = rest.substring(end + 4);
                if (status >= 100 && status < 200) {
                    rest = body;
                    continue;
                }
                Map<String, String> fields = new LinkedHashMap<>();
                for (int i = 1; i < lines.length; i++) {
                    int colon = lines[i].indexOf(':');
                    fields.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
                }
                return new Answer(statusLine[0], status, fields, body);
            }
        }

        /** @return the value of field {@code name} (lower case), or null */
        String field(String name) {
            return fields.get(name);
        }
    }
}
