package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.wharf.jsp.JspInitializer;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
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
 * curl fetches JSP pages over h2c (HTTP/2 with prior knowledge, on loopback): the welcome page
 * index.jsp with JSTL, compiled by Jasper in a context that {@link JspInitializer} set up, its
 * content type from the page directive, and a session kept in curl's cookie jar.
 */
@Timeout(120)
class JspCurlTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private Server server;
    private ServerConnector connector;

    @BeforeEach
    void start() throws Exception {
        Path site = Files.createDirectories(directory.resolve("site"));
        Files.writeString(site.resolve("index.jsp"), """
            <%@ page contentType="text/plain; charset=UTF-8" trimDirectiveWhitespaces="true" %>
            <%@ taglib prefix="c" uri="jakarta.tags.core" %>
            <c:forEach var="i" begin="1" end="3">${i}</c:forEach> over <%= request.getProtocol() %> ✓""");
        Files.writeString(site.resolve("visits.jsp"), """
            <%@ page trimDirectiveWhitespaces="true" %>
            <% session.setAttribute("n", session.getAttribute("n") == null ? 1 : (Integer) session.getAttribute("n") + 1); %>
            visit ${sessionScope.n}""");
        server = new Server(new QueuedThreadPool(), leaks.pool());
        connector = new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/app");
        context.setBaseResource(site);
        context.setTempDirectory(directory.resolve("work"));
        JspInitializer.enable(context);
        server.setHandler(context);
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void curlFetchesJspPagesOverH2c() throws Exception {
        String base = "http://127.0.0.1:" + connector.getLocalPort() + "/app/";
        String index = Curl.run("--http2-prior-knowledge", "-w", "\n%{http_code} %{http_version} %{content_type}", base);
        String utf8 = new String(index.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        assertEquals("123 over HTTP/2.0 ✓\n200 2 text/plain;charset=UTF-8", utf8);
        String jar = directory.resolve("cookies.txt").toString();
        assertEquals("visit 1", Curl.run("--http2-prior-knowledge", "-c", jar, "-b", jar, base + "visits.jsp").strip());
        assertEquals("visit 2", Curl.run("--http2-prior-knowledge", "-c", jar, "-b", jar, base + "visits.jsp").strip());
    }
}
