package io.wharf.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Resource trees over each protocol: fetched as a browser does, counted per resource. */
@Timeout(60)
class ProtocolsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private static final Resource PAGE = Resource.of("/page",
            Resource.of("/style.css"),
            Resource.of("/app.js", Resource.of("/image.png")));

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void fetchesTreesChildrenAfterTheirParent(Protocol protocol) throws Exception {
        try (DelayingHandler answers = new DelayingHandler(path -> path.equals("/app.js") ? TimeUnit.MILLISECONDS.toNanos(5) : 0);
             LoadTestServer server = new LoadTestServer(leaks.pool(), answers.handler())) {
            String target = protocol == Protocol.H2 ? server.secureUri("/") : server.uri("/");
            LoadResult result = LoadGenerator.builder(URI.create(target))
                    .protocol(protocol)
                    .insecure(protocol == Protocol.H2)
                    .model(Model.CLOSED)
                    .connectionsPerUser(protocol == Protocol.HTTP_1_1 ? 6 : 1)
                    .resource(PAGE)
                    .iterations(20)
                    .build()
                    .run();
            assertEquals(0, result.errors(), () -> "errors: " + result.errorsByKind());
            assertEquals(20, result.iterations());
            assertEquals(80, result.requests());
            assertEquals(20, result.trees().getTotalCount());
            assertEquals(List.of("/page", "/style.css", "/app.js", "/image.png"), new ArrayList<>(result.resources().keySet()));
            for (ResourceStatistics resource : result.resources().values()) {
                assertEquals(20, resource.requests(), resource.path());
                assertEquals(20, resource.latency().getTotalCount(), resource.path());
            }
            assertChildrenAfterParents(List.copyOf(answers.events));
        }
    }

    /** With one user one tree at a time: each child arrives after its parent was answered, as often. */
    private static void assertChildrenAfterParents(List<String> events) {
        int pages = 0;
        int scripts = 0;
        for (String event : events) {
            switch (event) {
                case "< /page" -> pages++;
                case "< /app.js" -> scripts++;
                case "> /style.css", "> /app.js" -> assertTrue(pages > 0, "a sub-resource before its page: " + events);
                case "> /image.png" -> assertTrue(scripts > 0, "an image before its script: " + events);
                default -> {
                }
            }
        }
        assertEquals(20, pages);
        assertEquals(20, scripts);
    }

    @Test
    void refusesAProtocolThatDoesNotFitTheScheme() {
        IllegalArgumentException h2 = assertThrows(IllegalArgumentException.class,
                () -> LoadGenerator.builder(URI.create("http://127.0.0.1:1/")).protocol(Protocol.H2).build());
        assertTrue(h2.getMessage().contains("h2 needs an https URL"), h2.getMessage());
        IllegalArgumentException h2c = assertThrows(IllegalArgumentException.class,
                () -> LoadGenerator.builder(URI.create("https://127.0.0.1:1/")).protocol(Protocol.H2C).build());
        assertTrue(h2c.getMessage().contains("h2c needs an http URL"), h2c.getMessage());
    }

    @Test
    void refusesAResourceThatIsNoUrl() {
        IllegalArgumentException space = assertThrows(IllegalArgumentException.class, () -> LoadGenerator.builder(URI.create("http://127.0.0.1:1/"))
                .resource(Resource.of("/", Resource.of("/a b.css"))).build());
        assertTrue(space.getMessage().contains("the resource '/a b.css' is not a URI reference"), space.getMessage());
        IllegalArgumentException ftp = assertThrows(IllegalArgumentException.class, () -> LoadGenerator.builder(URI.create("http://127.0.0.1:1/"))
                .resource(Resource.of("/", Resource.of("ftp://example.test/x"))).build());
        assertTrue(ftp.getMessage().contains("is not an http or https URL"), ftp.getMessage());
    }

    @Test
    void refusesAnUntrustedCertificateUnlessToldOtherwise() throws Exception {
        try (DelayingHandler answers = new DelayingHandler(path -> 0);
             LoadTestServer server = new LoadTestServer(leaks.pool(), answers.handler())) {
            LoadResult result = LoadGenerator.builder(URI.create(server.secureUri("/")))
                    .protocol(Protocol.H2)
                    .model(Model.CLOSED)
                    .iterations(3)
                    .build()
                    .run();
            assertEquals(3, result.errors());
            assertEquals(0, answers.requests.get());
            assertTrue(result.errorsByKind().keySet().stream().anyMatch(kind -> kind.startsWith("SSL")), result.errorsByKind().toString());
        }
    }
}
