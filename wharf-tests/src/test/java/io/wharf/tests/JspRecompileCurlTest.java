package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

import jakarta.servlet.ServletRegistration;

import io.wharf.jsp.JspInitializer;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.handler.context.ContextHandlerCollection;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jasper with {@code development} off, as in production (docs/servlet.md, "Jasper's settings"),
 * seen by curl: two contexts of one server serve the same page from directories of their own,
 * {@code /checked} with {@code checkInterval} 1 (the {@code jsp} servlet's background check
 * compiles a changed page again) and {@code /fixed} with {@code checkInterval} 0 (never checks).
 * Both pages are changed together, then the fragment both include; curl sees {@code /checked}
 * change within a bounded wait each time, while {@code /fixed} goes on serving its first
 * compilation all that time.
 */
@Timeout(120)
class JspRecompileCurlTest {

    /** How long the test waits for a background check to show a change, far above the check interval of 1 s. */
    private static final Duration RECOMPILE_WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private Server server;
    private ServerConnector connector;

    @BeforeEach
    void start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        connector = new ServerConnector(server, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new ContextHandlerCollection(context("checked", "1").getContextHandler(), context("fixed", "0").getContextHandler()));
        server.start();
    }

    /** A context at /{@code name} serving the pages of directory {@code name}, development off and the given check interval. */
    private ServletContextHandler context(String name, String checkInterval) throws Exception {
        Path site = Files.createDirectories(directory.resolve(name));
        Files.writeString(site.resolve("page.jsp"), page(1));
        Files.writeString(site.resolve("part.jspf"), part("a"));
        ServletContextHandler context = new ServletContextHandler("/" + name);
        context.setBaseResource(site);
        context.setTempDirectory(directory.resolve("work-" + name));
        ServletRegistration.Dynamic jsp = JspInitializer.enable(context);
        jsp.setInitParameter("development", "false");
        jsp.setInitParameter("checkInterval", checkInterval);
        return context;
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void aCheckIntervalRecompilesAChangedPageAndNoCheckIntervalNever() throws Exception {
        assertEquals("version 1 with part a", fetch("checked"));
        assertEquals("version 1 with part a", fetch("fixed"));

        rewrite("checked", "page.jsp", page(2));
        rewrite("fixed", "page.jsp", page(2));
        awaitPage("checked", "version 2 with part a");
        assertEquals("version 1 with part a", fetch("fixed"), "no check interval: the first compilation, after the other context's check saw the change");

        rewrite("checked", "part.jspf", part("b"));
        rewrite("fixed", "part.jspf", part("b"));
        awaitPage("checked", "version 2 with part b");
        assertEquals("version 1 with part a", fetch("fixed"), "nor does a changed include show");
    }

    /** @return the page of {@code version}, which includes part.jspf at compile time */
    private static String page(int version) {
        return "<%@ page contentType=\"text/plain\" trimDirectiveWhitespaces=\"true\" %>\nversion <%= " + version
            + " %> with <%@ include file=\"part.jspf\" %>";
    }

    private static String part(String name) {
        return "part " + name;
    }

    private String fetch(String context) throws Exception {
        return Curl.run("--http1.1", "http://127.0.0.1:" + connector.getLocalPort() + "/" + context + "/page.jsp").strip();
    }

    /**
     * Writes {@code text} to the file {@code name} of {@code context} and sets its modification
     * time 10 s after the one it had, so Jasper, which compares a page's and its includes' times
     * with those it compiled, sees a change whatever the file system's time resolution.
     */
    private void rewrite(String context, String name, String text) throws Exception {
        Path file = directory.resolve(context).resolve(name);
        Instant before = Files.getLastModifiedTime(file).toInstant();
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(before.plusSeconds(10)));
    }

    /** Fetches the page with curl every 100 ms until it is {@code expected}, at most {@link #RECOMPILE_WAIT}. */
    private void awaitPage(String context, String expected) throws Exception {
        long deadline = System.nanoTime() + RECOMPILE_WAIT.toNanos();
        String page = fetch(context);
        while (!page.equals(expected) && System.nanoTime() - deadline < 0) {
            Thread.sleep(100);
            page = fetch(context);
        }
        assertEquals(expected, page, "after " + RECOMPILE_WAIT.toSeconds() + " s with a check interval of 1 s");
    }
}
