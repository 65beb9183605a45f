package io.wharf.server;

import static io.wharf.server.LocalServer.crlf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.http.HttpURI;
import io.wharf.http.UriCompliance;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A keep-alive client that repeats its request target and Host line gets the same URI without
 * it being parsed again; any change of target, authority or URI compliance mode makes a new one,
 * checked anew.
 */
class RepeatedRequestUriTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final List<HttpURI> seen = new CopyOnWriteArrayList<>();
    private LocalServer local;

    @BeforeEach
    void start() throws Exception {
        local = new LocalServer(leaks.pool()).start(Handler.of((request, response, callback) -> {
            seen.add(request.getHttpURI());
            Response.write(response, true, request.getHttpURI().toString(), callback);
            return true;
        }));
    }

    @AfterEach
    void stop() throws Exception {
        local.close();
    }

    private static String get(String target, String host) {
        return crlf("GET " + target + " HTTP/1.1\nHost: " + host + "\n\n");
    }

    private String exchange(LocalConnector.Client client, String request) throws Exception {
        client.send(request);
        return client.readResponse(WAIT);
    }

    @Test
    void theSameTargetAndHostGiveTheSameUriAndAnyChangeANewOne() throws Exception {
        try (LocalConnector.Client client = local.connector.connect()) {
            exchange(client, get("/plaintext?a=1", "localhost:8080"));
            exchange(client, get("/plaintext?a=1", "localhost:8080"));
            exchange(client, get("/plaintext?a=2", "localhost:8080"));
            exchange(client, get("/plaintext?a=2", "example.com:8080"));
            String last = exchange(client, get("/plaintext?a=2", "example.com:8080"));
            assertTrue(last.endsWith("http://example.com:8080/plaintext?a=2"), last);
            exchange(client, get("/plaintext?a=2", "Example.com:8080"));
            exchange(client, get("/plaintext?a=2", "example.com:8081"));
        }
        assertEquals(7, seen.size());
        assertNotSame(seen.get(4), seen.get(5), "a host written otherwise");
        assertNotSame(seen.get(5), seen.get(6), "another port");
        assertEquals(8081, seen.get(6).getPort());
        assertSame(seen.get(0), seen.get(1));
        assertNotSame(seen.get(1), seen.get(2));
        assertEquals("a=2", seen.get(2).getQuery());
        assertNotSame(seen.get(2), seen.get(3));
        assertEquals("example.com", seen.get(3).getHost());
        assertSame(seen.get(3), seen.get(4));
    }

    @Test
    void pipelinedRepeatsAreServedEachWithTheirOwnTarget() throws Exception {
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(get("/a", "localhost") + get("/b", "localhost") + get("/b", "localhost") + get("/a", "localhost"));
            for (String path : List.of("/a", "/b", "/b", "/a")) {
                String answer = client.readResponse(WAIT);
                assertTrue(answer.endsWith("http://localhost" + path), answer);
            }
        }
        assertSame(seen.get(1), seen.get(2));
        assertEquals("/a", seen.get(3).getPath());
    }

    @Test
    void aStricterComplianceModeChecksARepeatedTargetAgain() throws Exception {
        local.configuration.setUriCompliance(UriCompliance.LEGACY);
        String ambiguous = get("/files/a%2Fb", "localhost");
        try (LocalConnector.Client client = local.connector.connect()) {
            String allowed = exchange(client, ambiguous);
            assertTrue(allowed.startsWith("HTTP/1.1 200 "), allowed);
            local.configuration.setUriCompliance(UriCompliance.DEFAULT);
            String refused = exchange(client, ambiguous);
            assertTrue(refused.startsWith("HTTP/1.1 400 "), refused);
        }
        assertEquals(1, seen.size());
    }
}
