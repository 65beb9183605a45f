package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.wharf.servlet.ServletContextHandler;
import io.wharf.testing.LeakTracking;
import io.wharf.tests.LoopbackServer.Answer;
import io.wharf.tests.frameworks.SpringMvcApplication;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.springframework.web.SpringServletContainerInitializer;

/**
 * Spring MVC 7, unmodified, on Wharf's servlet container: {@link SpringMvcApplication} is
 * started the way a servlet container starts it, by Spring's own
 * {@code SpringServletContainerInitializer} given the application's
 * {@code WebApplicationInitializer} as its {@code @HandlesTypes} class. One server and one
 * Spring context serve the whole class; curl drives it over HTTP/1.1, h2c and h2 with TLS, and
 * Python's httpx over h2 with TLS. The server's buffers are leak-tracked after every test.
 */
@Timeout(120)
class SpringMvcTest {

    @RegisterExtension
    static final LeakTracking leaks = new LeakTracking();

    @TempDir
    static Path directory;

    private static LoopbackServer server;

    @BeforeAll
    static void start() throws Exception {
        Path site = Files.createDirectories(directory.resolve("site"));
        Files.writeString(site.resolve("readme.txt"), "served by the container's default servlet\n");
        ServletContextHandler context = new ServletContextHandler("/app");
        context.setBaseResource(site);
        context.setTempDirectory(Files.createDirectories(directory.resolve("work")));
        context.addServletContainerInitializer(new SpringServletContainerInitializer(), SpringMvcApplication.Initializer.class);
        server = new LoopbackServer(context, leaks.pool(), directory);
        server.start();
    }

    @AfterAll
    static void stop() throws Exception {
        LoopbackServer.stop(server, leaks);
    }

    private static String url(String protocol, String path) {
        return server.origin(protocol) + "/app" + path;
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void jsonWithPathVariablesAndQueryParameters(String protocol) throws Exception {
        // The CharacterEncodingFilter forces UTF-8, which the container adds to the type.
        ItemShopChecks.itemsAreJson(server, protocol, url(protocol, "/api/items"), "application/json;charset=UTF-8");
        assertEquals(400, server.fetch(protocol, url(protocol, "/api/items?limit=many")).status());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void jsonBodiesAreValidated(String protocol) throws Exception {
        ItemShopChecks.anItemIsCreated(server, protocol, url(protocol, "/api/items"));
        Answer invalid = server.post(protocol, url(protocol, "/api/items"), "application/json", "{\"name\":\"\",\"price\":-1}");
        assertEquals(400, invalid.status());
        assertEquals("{\"error\":\"invalid item\",\"fields\":{\"name\":\"must not be blank\",\"price\":\"must not be negative\"}}",
            invalid.body());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void errorsAreMappedByTheAdviceAndUnknownPathsAreNotFound(String protocol) throws Exception {
        ItemShopChecks.errorsAreAnswered(server, protocol, url(protocol, "/api/items"));
        assertEquals(404, server.fetch(protocol, url(protocol, "/no/such/page")).status());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void aMultipartFileIsUploaded(String protocol) throws Exception {
        byte[] bytes = new byte[300 * 1024];
        new Random(7).nextBytes(bytes);
        Path file = directory.resolve("upload-" + protocol.replace('/', '_') + ".bin");
        Files.write(file, bytes);
        Answer uploaded = server.fetch(protocol, "-F", "file=@" + file + ";type=application/octet-stream",
            "-F", "note=stern", url(protocol, "/api/upload"));
        assertEquals(200, uploaded.status(), uploaded.toString());
        assertEquals("{\"name\":\"file\",\"filename\":\"" + file.getFileName() + "\",\"contentType\":\"application/octet-stream\","
            + "\"size\":" + bytes.length + ",\"sha256\":\"" + sha256(bytes) + "\",\"note\":\"stern\"}", uploaded.body());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void aFileOverTheMultipartLimitIsRefusedWith413(String protocol) throws Exception {
        Path file = directory.resolve("too-large.bin");
        if (!Files.exists(file)) {
            Files.write(file, new byte[(int) SpringMvcApplication.MAX_FILE_SIZE + 1]);
        }
        Answer refused = server.fetch(protocol, "-F", "file=@" + file, "-F", "note=big", url(protocol, "/api/upload"));
        assertEquals(413, refused.status(), refused.toString());
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void asyncResultsCompleteOnOtherThreads(String protocol) throws Exception {
        Answer later = server.fetch(protocol, url(protocol, "/api/items/3/later"));
        assertEquals(200, later.status(), later.toString());
        assertEquals(ItemShopChecks.CAPSTAN, later.body());
        assertTrue(later.field("x-completed-by").startsWith("spring-worker-"), later.toString());
        Answer laterMissing = server.fetch(protocol, url(protocol, "/api/items/98/later"));
        assertEquals(404, laterMissing.status());
        assertEquals("{\"error\":\"no item 98\"}", laterMissing.body());

        Answer callable = server.fetch(protocol, url(protocol, "/api/items/1/callable"));
        assertEquals(200, callable.status());
        assertTrue(callable.body().matches("\\{\"item\":\\{\"id\":1,\"name\":\"anchor\",\"price\":120},\"thread\":\"spring-callable-\\d+\"}"),
            callable.body());

        Answer timedOut = server.fetchTakingAtLeast(250, protocol, url(protocol, "/api/items/never"));
        assertEquals(503, timedOut.status(), timedOut.toString());
    }

    /**
     * The stream's first event is read before the stream is released, so it arrived while the
     * response was still open; the other two follow the release, then the stream ends.
     */
    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void serverSentEventsArriveAsTheyAreSent(String protocol) throws Exception {
        String stream = "curl-" + protocol.replace('/', '_');
        Path output = directory.resolve(stream + ".txt");
        Process curl = server.curlInBackground(protocol, output, "-N", "-H", "Accept: text/event-stream",
            url(protocol, "/api/events?stream=" + stream));
        try {
            assertTrue(LoopbackServer.await(output, "data:one\n\n", 10_000), () -> "first event not seen: " + read(output));
            assertEquals("id:1\nevent:tick\ndata:one\n\n", read(output));
            assertEquals("204", server.curl(protocol, "-X", "POST", "-o", "/dev/null", "-w", "%{http_code}",
                url(protocol, "/api/events/release?stream=" + stream)));
            assertTrue(curl.waitFor(15, TimeUnit.SECONDS), "the event stream did not end");
            assertEquals(0, curl.exitValue(), () -> read(output.resolveSibling(output.getFileName() + ".err")));
        } finally {
            curl.destroyForcibly();
        }
        assertEquals("""
            id:1
            event:tick
            data:one

            id:2
            event:tick
            data:two

            id:3
            event:item
            data:{"id":1,"name":"anchor","price":120}

            """, read(output));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("io.wharf.tests.LoopbackServer#PROTOCOLS")
    void staticResourcesForwardsAndRedirects(String protocol) throws Exception {
        Answer classPath = server.fetch(protocol, url(protocol, "/static/hello.txt"));
        assertEquals(200, classPath.status());
        assertEquals("Hello from the class path, through Spring.\n", classPath.body());
        assertTrue(classPath.field("content-type").startsWith("text/plain"), classPath.toString());
        Answer container = server.fetch(protocol, url(protocol, "/readme.txt"));
        assertEquals(200, container.status(), container.toString());
        assertEquals("served by the container's default servlet\n", container.body());
        Answer forwarded = server.fetch(protocol, url(protocol, "/hello"));
        assertEquals(200, forwarded.status());
        assertEquals("Hello from the class path, through Spring.\n", forwarded.body());

        // Followed by a second curl: curl 7.88's -L fails to reuse an h2c prior-knowledge connection (curl PR #10643).
        Answer redirect = server.fetch(protocol, url(protocol, "/old"));
        assertEquals(302, redirect.status());
        assertEquals("/app/api/items/1", redirect.field("location"));
        assertEquals(ItemShopChecks.ANCHOR, server.curl(protocol, server.origin(protocol) + redirect.field("location")));
    }

    /** What Spring sees of the container, and that what may not change once started fails loudly. */
    @Test
    void theServletContextAnswersAndRefusesLateChanges() throws Exception {
        Answer facts = server.fetch("http/1.1", url("http/1.1", "/api/container"));
        assertEquals(200, facts.status());
        assertEquals("{\"addServletWhenStarted\":\"IllegalStateException\","
            + "\"contextPath\":\"/app /app\","
            + "\"cookieNameWhenStarted\":\"IllegalStateException\","
            + "\"effectiveVersion\":\"6.1\","
            + "\"jspConfig\":\"null\","
            + "\"servletPath\":\"/api/container null\","
            + "\"servlets\":\"[default, dispatcher]\","
            + "\"sessionCookie\":\"JSESSIONID\","
            + "\"trackingModes\":\"[COOKIE]\","
            + "\"trackingModesWhenStarted\":\"IllegalStateException\","
            + "\"version\":\"6.1\"}", facts.body());
    }

    /** httpx over h2 with TLS: a JSON round trip, an upload, and an event stream released by a request on the same connection. */
    @Test
    void httpxOverH2WithTls() throws Exception {
        String output = PythonClients.run("spring_httpx.py", url("h2", ""), server.pem().toString());
        assertEquals("""
            HTTP/2 201 winch 7
            HTTP/2 400 {"error":"invalid item","fields":{"name":"at most 20 characters"}}
            HTTP/2 200 a.txt 12 n
            HTTP/2 200 text/event-stream event: tick one
            HTTP/2 204 released
            event: tick two
            event: item {"id":1,"name":"anchor","price":120}
            end of stream
            """, output);
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
