package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.ServletRegistration;

import io.wharf.servlet.ServletContextHandler;
import io.wharf.testing.LeakTracking;
import io.wharf.tests.FrameworkServer.Answer;
import io.wharf.tests.frameworks.JerseyApplication;

import org.glassfish.jersey.servlet.ServletContainer;
import org.glassfish.jersey.servlet.init.JerseyServletContainerInitializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Jersey 4, unmodified, on Wharf's servlet container, deployed twice in one context: with
 * Jersey's {@code ServletContainer} registered on {@code /api/*} and given the
 * {@link JerseyApplication} class in its init parameter, and by Jersey's own
 * {@code JerseyServletContainerInitializer} given {@link JerseyApplication.Auto}, whose
 * {@code @ApplicationPath} puts it on {@code /auto/*}. One server for the class; curl drives it
 * over HTTP/1.1, h2c and h2 with TLS; the server's buffers are leak-tracked after every test.
 */
@Timeout(120)
class JerseyServletTest {

    @RegisterExtension
    static final LeakTracking leaks = new LeakTracking();

    @TempDir
    static Path directory;

    private static FrameworkServer server;

    @BeforeAll
    static void start() throws Exception {
        ServletContextHandler context = new ServletContextHandler("/jersey");
        context.setTempDirectory(Files.createDirectories(directory.resolve("work")));
        ServletRegistration.Dynamic jersey = context.addServlet(ServletContainer.class, "/api/*");
        jersey.setInitParameter("jakarta.ws.rs.Application", JerseyApplication.class.getName());
        jersey.setAsyncSupported(true);
        jersey.setLoadOnStartup(1);
        context.addServletContainerInitializer(new JerseyServletContainerInitializer(), JerseyApplication.Auto.class);
        server = new FrameworkServer(context, leaks.pool(), directory);
        server.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        leaks.verify(LeakTracking.DEFAULT_GRACE);
    }

    private static String url(String protocol, String path) {
        return server.origin(protocol) + "/jersey" + path;
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.FrameworkServer#PROTOCOLS")
    void jsonWithPathAndQueryParameters(String protocol) throws Exception {
        Answer item = server.fetch(protocol, url(protocol, "/api/items/2"));
        assertEquals(200, item.status());
        assertEquals("application/json", item.field("content-type"));
        assertEquals("{\"id\":2,\"name\":\"bollard\",\"price\":80}", item.body());
        Answer found = server.fetch(protocol, url(protocol, "/api/items?q=an&limit=2"));
        assertEquals("[{\"id\":1,\"name\":\"anchor\",\"price\":120},{\"id\":3,\"name\":\"capstan\",\"price\":300}]", found.body());
        Answer limited = server.fetch(protocol, url(protocol, "/auto/items?q=an&limit=1"));
        assertEquals("[{\"id\":1,\"name\":\"anchor\",\"price\":120}]", limited.body());
        // A query parameter that is no int: 404 by Jakarta REST (section 3.2).
        assertEquals(404, server.fetch(protocol, url(protocol, "/api/items?limit=many")).status());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.FrameworkServer#PROTOCOLS")
    void jsonIsAccepted(String protocol) throws Exception {
        Answer created = server.fetch(protocol, "-H", "Content-Type: application/json",
            "--data-binary", "{\"name\":\"winch\",\"price\":45}", url(protocol, "/api/items"));
        assertEquals(201, created.status(), created.toString());
        String id = created.body().replaceAll("^\\{\"id\":(\\d+),.*", "$1");
        assertEquals("{\"id\":" + id + ",\"name\":\"winch\",\"price\":45}", created.body());
        assertEquals(url(protocol, "/api/items/" + id), created.field("location"));
        assertEquals(created.body(), server.curl(protocol, created.field("location")));
        Answer unsupported = server.fetch(protocol, "-H", "Content-Type: text/plain", "--data-binary", "winch",
            url(protocol, "/api/items"));
        assertEquals(415, unsupported.status());
        Answer malformed = server.fetch(protocol, "-H", "Content-Type: application/json", "--data-binary", "{\"name\":",
            url(protocol, "/api/items"));
        assertEquals(400, malformed.status());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.FrameworkServer#PROTOCOLS")
    void errorsAreMappedAndUnknownPathsAreNotFound(String protocol) throws Exception {
        Answer missing = server.fetch(protocol, url(protocol, "/api/items/99"));
        assertEquals(404, missing.status());
        assertEquals("application/json", missing.field("content-type"));
        assertEquals("{\"error\":\"no item 99\"}", missing.body());
        assertEquals(404, server.fetch(protocol, url(protocol, "/api/nothing/here")).status());
        assertEquals(404, server.fetch(protocol, url(protocol, "/elsewhere")).status());
        Answer wrongMethod = server.fetch(protocol, "-X", "DELETE", url(protocol, "/api/items/1"));
        assertEquals(405, wrongMethod.status());
        assertTrue(wrongMethod.field("allow").contains("GET"), wrongMethod.toString());
        Answer broken = server.fetch(protocol, url(protocol, "/api/items/broken"));
        assertEquals(500, broken.status());
        assertTrue(!broken.body().contains("on purpose"), broken.body());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.FrameworkServer#PROTOCOLS")
    void suspendedResponsesAreResumedFromAnotherThreadOrTimeOut(String protocol) throws Exception {
        Answer later = server.fetch(protocol, url(protocol, "/api/items/3/later"));
        assertEquals(200, later.status(), later.toString());
        assertEquals("{\"id\":3,\"name\":\"capstan\",\"price\":300}", later.body());
        assertEquals("jersey-worker", later.field("x-resumed-by"));
        Answer laterMissing = server.fetch(protocol, url(protocol, "/auto/items/97/later"));
        assertEquals(404, laterMissing.status());
        assertEquals("{\"error\":\"no item 97\"}", laterMissing.body());

        long started = System.nanoTime();
        Answer timedOut = server.fetch(protocol, url(protocol, "/api/items/never"));
        assertEquals(503, timedOut.status(), timedOut.toString());
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        assertTrue(millis >= 250 && millis < 5_000, "timed out after " + millis + " ms");
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.FrameworkServer#PROTOCOLS")
    void bothDeploymentsSeeTheirServletPaths(String protocol) throws Exception {
        assertEquals("{\"pathInfo\":\"/items/where\",\"servlet\":\"" + ServletContainer.class.getName() + "-1\",\"servletPath\":\"/api\"}",
            server.curl(protocol, url(protocol, "/api/items/where")));
        assertEquals("{\"pathInfo\":\"/items/where\",\"servlet\":\"" + JerseyApplication.Auto.class.getName() + "\",\"servletPath\":\"/auto\"}",
            server.curl(protocol, url(protocol, "/auto/items/where")));
    }
}
