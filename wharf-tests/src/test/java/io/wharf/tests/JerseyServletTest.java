package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.servlet.ServletRegistration;

import io.wharf.servlet.ServletContextHandler;
import io.wharf.testing.LeakTracking;
import io.wharf.tests.LoopbackServer.Answer;
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

    private static LoopbackServer server;

    @BeforeAll
    static void start() throws Exception {
        ServletContextHandler context = new ServletContextHandler("/jersey");
        context.setTempDirectory(Files.createDirectories(directory.resolve("work")));
        ServletRegistration.Dynamic jersey = context.addServlet(ServletContainer.class, "/api/*");
        jersey.setInitParameter("jakarta.ws.rs.Application", JerseyApplication.class.getName());
        jersey.setAsyncSupported(true);
        jersey.setLoadOnStartup(1);
        context.addServletContainerInitializer(new JerseyServletContainerInitializer(), JerseyApplication.Auto.class);
        server = new LoopbackServer(context, leaks.pool(), directory);
        server.start();
    }

    @AfterAll
    static void stop() throws Exception {
        LoopbackServer.stop(server, leaks);
    }

    private static String url(String protocol, String path) {
        return server.origin(protocol) + "/jersey" + path;
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void jsonWithPathAndQueryParameters(String protocol) throws Exception {
        ItemShopChecks.itemsAreJson(server, protocol, url(protocol, "/api/items"), "application/json");
        ItemShopChecks.itemsAreJson(server, protocol, url(protocol, "/auto/items"), "application/json");
        // A query parameter that is no int: 404 by Jakarta REST (section 3.2).
        assertEquals(404, server.fetch(protocol, url(protocol, "/api/items?limit=many")).status());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void jsonIsAccepted(String protocol) throws Exception {
        ItemShopChecks.anItemIsCreated(server, protocol, url(protocol, "/api/items"));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void errorsAreMappedAndUnknownPathsAreNotFound(String protocol) throws Exception {
        ItemShopChecks.errorsAreAnswered(server, protocol, url(protocol, "/api/items"));
        assertEquals("application/json", server.fetch(protocol, url(protocol, "/auto/items/99")).field("content-type"));
        assertEquals(404, server.fetch(protocol, url(protocol, "/api/nothing/here")).status());
        assertEquals(404, server.fetch(protocol, url(protocol, "/elsewhere")).status());
        Answer broken = server.fetch(protocol, url(protocol, "/api/items/broken"));
        assertEquals(500, broken.status());
        assertFalse(broken.body().contains("on purpose"), broken.body());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void suspendedResponsesAreResumedFromAnotherThreadOrTimeOut(String protocol) throws Exception {
        Answer later = server.fetch(protocol, url(protocol, "/api/items/3/later"));
        assertEquals(200, later.status(), later.toString());
        assertEquals(ItemShopChecks.CAPSTAN, later.body());
        assertEquals("jersey-worker", later.field("x-resumed-by"));
        Answer laterMissing = server.fetch(protocol, url(protocol, "/auto/items/97/later"));
        assertEquals(404, laterMissing.status());
        assertEquals("{\"error\":\"no item 97\"}", laterMissing.body());

        Answer timedOut = server.fetchTakingAtLeast(250, protocol, url(protocol, "/api/items/never"));
        assertEquals(503, timedOut.status(), timedOut.toString());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void bothDeploymentsSeeTheirServletPaths(String protocol) throws Exception {
        assertEquals("{\"pathInfo\":\"/items/where\",\"servlet\":\"" + ServletContainer.class.getName() + "-1\",\"servletPath\":\"/api\"}",
            server.curl(protocol, url(protocol, "/api/items/where")));
        assertEquals("{\"pathInfo\":\"/items/where\",\"servlet\":\"" + JerseyApplication.Auto.class.getName() + "\",\"servletPath\":\"/auto\"}",
            server.curl(protocol, url(protocol, "/auto/items/where")));
    }
}
