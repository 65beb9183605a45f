package io.wharf.webapp;

import static io.wharf.testing.RawResponse.content;
import static io.wharf.testing.RawResponse.header;
import static io.wharf.testing.RawResponse.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import webapps.HelloServlet;

/**
 * The legacy javax mode (issue 18): a real javax.servlet WAR ({@link JavaxApp}) refused without
 * it, and with it converted by the Eclipse Transformer, cached, and served over HTTP on loopback:
 * web.xml's listener, filter and servlet, an {@code @WebServlet} class found by the scan of the
 * converted classes, a jar's web-fragment and its {@code ServletContainerInitializer}.
 */
class LegacyJavaxTest {

    @TempDir
    static Path compiled;

    private static Archive javaxApp;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path temp;

    private DeployTester tester;
    private WebAppSettings legacy;
    private WebApplication application;

    @BeforeAll
    static void compileTheJavaxApplication() throws Exception {
        javaxApp = JavaxApp.build(compiled);
    }

    @BeforeEach
    void startServer() throws Exception {
        tester = new DeployTester(leaks.pool(), temp);
        legacy = tester.settings.withLegacyJavax(true);
    }

    @AfterEach
    void stopServer() throws Exception {
        try {
            tester.close();
        } finally {
            if (application != null) {
                application.close();
            }
        }
    }

    private WebApplication deploy(String contextPath, Path source, WebAppSettings settings) throws Exception {
        application = WebApplication.prepare(contextPath, source, settings);
        tester.contexts.addHandler(application.contextHandler());
        return application;
    }

    @Test
    void convertsAJavaxWarAndServesItOverHttp() throws Exception {
        ServerConnector loopback = new ServerConnector(tester.server, new HttpConnectionFactory());
        loopback.setHost("127.0.0.1");
        loopback.setPort(0);
        tester.server.addConnector(loopback);
        tester.start();
        WebApplication app = deploy("/legacy", javaxApp.writeZip(temp.resolve("legacy.war")), legacy);
        assertTrue(app.root().startsWith(legacy.legacyJavaxCacheDirectory()), "served from the converted copy: " + app.root());

        String hello = get(loopback, "/legacy/hello");
        assertEquals(200, status(hello), hello);
        assertEquals("hello from javax, started by the listener, greeting ahoy", content(hello));
        assertEquals("stamped", header(hello, "X-Legacy-Filter"), "the filter of web.xml ran: " + hello);

        String annotated = get(loopback, "/legacy/annotated");
        assertEquals(200, status(annotated), annotated);
        assertEquals("annotated javax servlet, configured by its annotation", content(annotated),
            "@WebServlet, once javax, was found by the scan of the converted class");
        assertEquals("stamped", header(annotated, "X-Legacy-Filter"));

        assertEquals("javax jar servlet from its fragment", content(get(loopback, "/legacy/fragment")),
            "the jar's Java EE web-fragment.xml was converted");
        assertEquals("javax jar servlet from its initializer", content(get(loopback, "/legacy/from-initializer")),
            "the jar's META-INF/services/javax.servlet.ServletContainerInitializer was renamed");
        assertEquals("<p>a javax application</p>", content(get(loopback, "/legacy/index.html")));
        String webXml = Files.readString(app.root().resolve("WEB-INF/web.xml"));
        assertTrue(webXml.contains("xmlns=\"https://jakarta.ee/xml/ns/jakartaee\"") && webXml.contains("version=\"5.0\""), webXml);
    }

    /** @return the raw response to {@code GET path} over a TCP connection to the loopback connector, which closes after it */
    private static String get(ServerConnector connector, String path) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), connector.getLocalPort())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aRestartServesTheCachedCopyWithoutConvertingAgainAndAChangedWarIsConvertedAnew() throws Exception {
        tester.start();
        Path war = javaxApp.writeZip(temp.resolve("legacy.war"), FileTime.fromMillis(1_000_000));
        Path first = deploy("/legacy", war, legacy).root();
        tester.contexts.removeHandler(application.contextHandler());
        application.close();
        FileTime converted = Files.getLastModifiedTime(first.resolve("WEB-INF/web.xml"));

        // As after a restart: a new preparation of the same bytes, even copied anew (another time stamp).
        Path copied = Files.copy(war, temp.resolve("copied.war"));
        Files.move(copied, war, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(war, FileTime.fromMillis(2_000_000));
        WebApplication again = deploy("/legacy", war, legacy);
        assertEquals(first, again.root(), "the same cached copy");
        assertFalse(Files.exists(again.workDirectory().resolve("webapp")), "neither extracted nor converted again");
        assertEquals(converted, Files.getLastModifiedTime(first.resolve("WEB-INF/web.xml")));
        assertEquals("hello from javax, started by the listener, greeting ahoy", content(tester.get("/legacy/hello")));
        tester.contexts.removeHandler(application.contextHandler());
        application.close();

        Archive changedApp = new Archive();
        javaxApp.entries().forEach(changedApp::add);
        changedApp.text("changed.txt", "a new version").writeZip(war, FileTime.fromMillis(2_000_000));
        WebApplication changed = deploy("/legacy", war, legacy);
        assertNotEquals(first, changed.root(), "new content, a new copy");
        assertEquals("a new version", content(tester.get("/legacy/changed.txt")));
        try (Stream<Path> copies = Files.list(legacy.legacyJavaxCacheDirectory())) {
            assertEquals(2, copies.count(), "one copy per content, no staging directory left");
        }
    }

    @Test
    void convertsAnExplodedJavaxDirectory() throws Exception {
        tester.start();
        Path directory = javaxApp.writeDirectory(temp.resolve("legacy"));
        WebApplication app = deploy("/legacy", directory, legacy);

        assertTrue(app.root().startsWith(legacy.legacyJavaxCacheDirectory()), app.root().toString());
        String hello = tester.get("/legacy/hello");
        assertEquals(200, status(hello), hello);
        assertEquals("stamped", header(hello, "X-Legacy-Filter"));
        assertEquals("annotated javax servlet, configured by its annotation", content(tester.get("/legacy/annotated")));
        assertTrue(Files.readString(directory.resolve("WEB-INF/web.xml")).contains("http://xmlns.jcp.org/xml/ns/javaee"),
            "the source itself is left as it was");
    }

    @Test
    void theDeployerConvertsTheJavaxApplicationsOfAWebappsDirectory() throws Exception {
        Path webapps = temp.resolve("webapps");
        javaxApp.writeZip(webapps.resolve("legacy.war"));
        WebAppDeployer deployer = new WebAppDeployer(tester.contexts, legacy);
        deployer.setWebappsDirectory(webapps);
        deployer.setScanInterval(Duration.ZERO);
        tester.server.addBean(deployer);
        tester.start();

        assertEquals("hello from javax, started by the listener, greeting ahoy", content(tester.get("/legacy/hello")));
    }

    @Test
    void refusesAJavaxWarWithoutTheLegacyModeNamingWhatItFoundAndTheOption() throws Exception {
        tester.start();
        Path war = javaxApp.writeZip(temp.resolve("legacy.war"));

        DeploymentException refused = assertThrows(DeploymentException.class, () -> deploy("/legacy", war, tester.settings));
        String message = refused.getMessage();
        assertTrue(message.startsWith(war + " is a javax.servlet application (Servlet 4 or earlier); Wharf runs Jakarta Servlet 5+"
            + " applications. Evidence: "), message);
        assertTrue(message.contains("WEB-INF/web.xml is a Java EE descriptor (namespace 'http://xmlns.jcp.org/xml/ns/javaee', version '4.0')"),
            message);
        assertTrue(message.contains("; WEB-INF/classes/legacy/AnnotatedServlet.class refers to javax.servlet."), message);
        assertTrue(message.endsWith("The legacy javax mode converts it at deployment with the Eclipse Transformer:"
            + " WebAppSettings.withLegacyJavax(true), or ./wharf serve --legacy-javax"), message);
        assertFalse(Files.exists(tester.settings.legacyJavaxCacheDirectory()), "nothing converted");
        assertEquals(404, status(tester.get("/legacy/hello")));
    }

    @Test
    void refusesAWarMixingJavaxAndJakartaServletClassesNamingOneOfEach() throws Exception {
        tester.start();
        Archive mixed = JavaxApp.build(temp.resolve("mixed-build")).classes("WEB-INF/classes/", HelloServlet.class);
        Path war = mixed.writeZip(temp.resolve("mixed.war"));

        DeploymentException refused = assertThrows(DeploymentException.class, () -> deploy("/mixed", war, legacy));
        assertEquals(war + " mixes the two Servlet APIs: WEB-INF/classes/legacy/AnnotatedServlet.class refers to javax.servlet and"
            + " WEB-INF/classes/webapps/HelloServlet.class to jakarta.servlet; the legacy javax mode converts only applications"
            + " written entirely for javax.servlet (leave the jakarta classes out, or convert the javax ones beforehand)", refused.getMessage());
        assertEmptyCache();
    }

    @Test
    void saysWhichFileTheTransformerFailedOn() throws Exception {
        tester.start();
        // A class file that starts like one and then stops: the Transformer cannot parse it.
        Archive broken = JavaxApp.build(temp.resolve("broken-build"))
            .add("WEB-INF/classes/legacy/Broken.class", new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 52, 0, 9});
        Path war = broken.writeZip(temp.resolve("broken.war"));

        DeploymentException refused = assertThrows(DeploymentException.class, () -> deploy("/broken", war, legacy));
        String message = refused.getMessage();
        assertTrue(message.startsWith(war + ": the Eclipse Transformer could not convert it to Jakarta ("), message);
        assertTrue(message.contains("Broken.class"), message);
        assertEmptyCache();
    }

    /** A Servlet 2.3 web.xml has a DOCTYPE and no namespace: nothing to convert it to, so it is refused after the conversion. */
    @Test
    void refusesWhatIsStillJavaxAfterTheConversion() throws Exception {
        tester.start();
        Path war = new Archive().text("WEB-INF/web.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE web-app PUBLIC "-//Sun Microsystems, Inc.//DTD Web Application 2.3//EN" "http://java.sun.com/dtd/web-app_2_3.dtd">
            <web-app><display-name>ancient</display-name></web-app>
            """).writeZip(temp.resolve("ancient.war"));

        DeploymentException refused = assertThrows(DeploymentException.class, () -> deploy("/ancient", war, legacy));
        assertTrue(refused.getMessage().startsWith(war + " is still a javax.servlet application after its conversion by the Eclipse"
            + " Transformer (into " + legacy.legacyJavaxCacheDirectory()), refused.getMessage());
        assertTrue(refused.getMessage().contains("is a Java EE descriptor (namespace '', version '')"), refused.getMessage());
    }

    private void assertEmptyCache() throws Exception {
        Path cache = legacy.legacyJavaxCacheDirectory();
        if (Files.isDirectory(cache)) {
            try (Stream<Path> entries = Files.list(cache)) {
                assertEquals(List.of(), entries.toList(), "no copy and no staging directory left");
            }
        }
    }
}
