package io.wharf.jsp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

import jakarta.servlet.ServletRegistration;

import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Test fixture, a JUnit extension: a {@link ServletContextHandler} at {@code /ctx} whose base
 * resource is a directory of pages the test writes, with its temporary directory beside it (both
 * under {@link #directory}, made for the test), on a server with an in-memory connector (no Date
 * or Server fields) and a {@link LeakTracking} pool. Tests register it with
 * {@code @RegisterExtension}, write pages, configure {@link #context} (JSP is on when made by
 * {@link #withJsp()}), {@link #start()} and send requests as text; after each test it stops the server,
 * checks that every buffer went back to the pool, and deletes the directory.
 */
final class JspTester implements AfterEachCallback, AutoCloseable {

    private final LeakTracking leaks = new LeakTracking();
    final Server server;
    final LocalConnector connector;
    final ServletContextHandler context = new ServletContextHandler("/ctx");
    final Path directory;
    final Path pages;
    /** The {@code jsp} servlet's registration when made by {@link #withJsp()}; else null. */
    ServletRegistration.Dynamic jsp;

    /** @return a tester whose context has JSP on ({@link JspInitializer#enable}), its {@link #jsp} servlet to configure */
    static JspTester withJsp() {
        JspTester tester = new JspTester();
        tester.jsp = JspInitializer.enable(tester.context);
        return tester;
    }

    JspTester() {
        try {
            directory = Files.createTempDirectory("wharf-jsp-test");
            pages = Files.createDirectories(directory.resolve("pages"));
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setSendDateHeader(false);
        configuration.setSendServerVersion(false);
        connector = new LocalConnector(server, new HttpConnectionFactory(configuration));
        server.addConnector(connector);
        context.setBaseResource(pages);
        context.setTempDirectory(directory.resolve("temp"));
    }

    /** Writes {@code text} as UTF-8 to the page at {@code path} under the base resource, making its directories. */
    JspTester page(String path, String text) throws IOException {
        Path file = pages.resolve(path.substring(1));
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return this;
    }

    JspTester start() throws Exception {
        server.setHandler(context);
        server.start();
        return this;
    }

    /** @return the response to {@code GET target}, with {@code headers} lines, that closes the connection */
    String get(String target, String... headers) throws Exception {
        StringBuilder request = new StringBuilder("GET ").append(target).append(" HTTP/1.1\r\nHost: test\r\nConnection: close\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        return connector.getResponse(request.append("\r\n").toString());
    }

    static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    /** @return the first value of header {@code name}, or null */
    static String header(String response, String name) {
        String head = response.substring(0, Math.max(0, response.indexOf("\r\n\r\n")));
        String prefix = name.toLowerCase(Locale.ROOT) + ":";
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                return line.substring(prefix.length()).trim();
            }
        }
        return null;
    }

    /** @return the content of a raw response read as UTF-8, its chunks joined when it is chunked */
    static String content(String response) {
        int end = response.indexOf("\r\n\r\n");
        String body = end < 0 ? "" : response.substring(end + 4);
        if ("chunked".equals(header(response, "Transfer-Encoding"))) {
            StringBuilder joined = new StringBuilder();
            int at = 0;
            int size;
            while ((size = Integer.parseInt(body.substring(at, body.indexOf("\r\n", at)).trim(), 16)) > 0) {
                int start = body.indexOf("\r\n", at) + 2;
                joined.append(body, start, start + size);
                at = start + size + 2;
            }
            body = joined.toString();
        }
        return new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    @Override
    public void afterEach(ExtensionContext extension) throws Exception {
        try {
            close();
            leaks.afterEach(extension);
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            }
        }
    }
}
