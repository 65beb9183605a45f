package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ./wharf serve: its options, and an application served over HTTP/1.1 and h2c with its URL printed. */
class ServeTest {

    @TempDir
    Path directory;

    @Test
    void readsItsOptionsAndSaysWhatIsWrong() {
        Serve.Options options = Serve.Options.parse("--port", "9090", "--https-port", "9443", "--webapps", "apps",
            "--webapp", "/shop=shop.war", "--webapp", "/=site");
        assertEquals(9090, options.port());
        assertEquals(OptionalInt.of(9443), options.httpsPort());
        assertEquals(Path.of("apps"), options.webapps());
        assertEquals(Map.of("/shop", Path.of("shop.war"), "/", Path.of("site")), options.webappsByContext());
        assertEquals(8080, Serve.Options.parse("--webapps", "apps").port());
        assertEquals(false, Serve.Options.parse("--webapps", "apps").legacyJavax());
        assertEquals(true, Serve.Options.parse("--legacy-javax", "--webapps", "apps").legacyJavax());

        assertEquals("nothing to serve: give --webapps DIR or --webapp /CONTEXT=PATH",
            assertThrows(IllegalArgumentException.class, () -> Serve.Options.parse("--port", "1")).getMessage());
        assertEquals("--webapp takes /CONTEXT=PATH, like /shop=shop.war, not shop.war",
            assertThrows(IllegalArgumentException.class, () -> Serve.Options.parse("--webapp", "shop.war")).getMessage());
        assertEquals("--port takes a port from 0 to 65535, not http",
            assertThrows(IllegalArgumentException.class, () -> Serve.Options.parse("--port", "http")).getMessage());
        assertEquals("unknown option --ports",
            assertThrows(IllegalArgumentException.class, () -> Serve.Options.parse("--ports", "1")).getMessage());
    }

    /** wharf-jsp is on the command's class path: pages and a {@code <jsp-file>} servlet of a deployed application run. */
    @Test
    void runsAnApplicationsJspPages() throws Exception {
        Path shop = directory.resolve("webapps/shop");
        Files.createDirectories(shop.resolve("WEB-INF"));
        Files.writeString(shop.resolve("WEB-INF/web.xml"), """
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1">
              <servlet><servlet-name>stock</servlet-name><jsp-file>/WEB-INF/stock.jsp</jsp-file></servlet>
              <servlet-mapping><servlet-name>stock</servlet-name><url-pattern>/stock</url-pattern></servlet-mapping>
            </web-app>
            """);
        Files.writeString(shop.resolve("index.jsp"), "<%@ page contentType=\"text/plain\" %>${2 + 3} crates");
        Files.writeString(shop.resolve("WEB-INF/stock.jsp"), "<%@ page contentType=\"text/plain\" %>stock for ${pageContext.request.contextPath}");
        Serve.Running running = Serve.start(new Serve.Options(0, OptionalInt.empty(), directory.resolve("webapps"), Map.of(), false),
            directory.resolve("tls"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + running.httpPort() + "/shop/")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode(), page.body());
            assertEquals("5 crates", page.body().strip());
            HttpResponse<String> stock = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + running.httpPort() + "/shop/stock")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals("stock for /shop", stock.body().strip());
        } finally {
            running.server().stop();
        }
    }

    /**
     * A javax application (a Java EE 4.0 web.xml, a JSP page and a tag file that import
     * javax.servlet types) is refused by default with the flag to use, and with
     * {@code --legacy-javax} converted by the Eclipse Transformer, JSP sources included, and served.
     */
    @Test
    void runsAJavaxApplicationOnlyWithTheLegacyFlag() throws Exception {
        Path legacy = directory.resolve("webapps/legacy");
        Files.createDirectories(legacy.resolve("WEB-INF"));
        Files.writeString(legacy.resolve("WEB-INF/web.xml"), """
            <web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="4.0">
              <context-param><param-name>harbour</param-name><param-value>old harbour</param-value></context-param>
            </web-app>
            """);
        Files.createDirectories(legacy.resolve("WEB-INF/tags"));
        Files.writeString(legacy.resolve("WEB-INF/tags/api.tag"), "<%@ tag import=\"javax.servlet.http.HttpServletResponse\" %>"
            + "<%= HttpServletResponse.class.getPackageName() %>");
        Files.writeString(legacy.resolve("index.jsp"), "<%@ page contentType=\"text/plain\" import=\"javax.servlet.http.HttpServletRequest\" %>"
            + "<%@ taglib prefix=\"t\" tagdir=\"/WEB-INF/tags\" %>"
            + "<% HttpServletRequest asked = (HttpServletRequest) request; %>"
            + "<%= asked.getMethod() %> in the ${initParam.harbour}, as a <%= HttpServletRequest.class.getName() %>, tag <t:api/>");

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Serve.Running refusing = Serve.start(Serve.Options.parse("--port", "0", "--webapps", directory.resolve("webapps").toString()),
            directory.resolve("tls"), new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            String output = printed.toString(StandardCharsets.UTF_8);
            assertTrue(output.contains("FAILED to deploy " + legacy + " at /legacy: " + legacy + " is a javax.servlet application"), output);
            assertTrue(output.contains("./wharf serve --legacy-javax"), output);
            assertEquals(404, client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + refusing.httpPort() + "/legacy/")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        } finally {
            refusing.server().stop();
        }

        Serve.Running running = Serve.start(Serve.Options.parse("--port", "0", "--webapps", directory.resolve("webapps").toString(),
            "--legacy-javax"), directory.resolve("tls"), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + running.httpPort() + "/legacy/")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode(), page.body());
            assertEquals("GET in the old harbour, as a jakarta.servlet.http.HttpServletRequest, tag jakarta.servlet.http", page.body().strip());
        } finally {
            running.server().stop();
        }
    }

    @Test
    void servesAnApplicationAndPrintsItsUrl() throws Exception {
        Path site = directory.resolve("site");
        Files.createDirectories(site.resolve("WEB-INF"));
        Files.writeString(site.resolve("index.html"), "<p>served by wharf serve</p>");
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Serve.Running running = Serve.start(new Serve.Options(0, OptionalInt.empty(), directory.resolve("webapps"), Map.of("/site", site), false),
            directory.resolve("tls"), new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            String output = printed.toString(StandardCharsets.UTF_8);
            assertTrue(output.contains("deployed " + site + " at http://localhost:" + running.httpPort() + "/site/"), output);
            URI uri = URI.create("http://127.0.0.1:" + running.httpPort() + "/site/");
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri).version(HttpClient.Version.HTTP_2).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            assertEquals(HttpClient.Version.HTTP_2, response.version(), "h2c by upgrade");
            assertEquals("<p>served by wharf serve</p>", response.body());
        } finally {
            running.server().stop();
        }
    }
}
