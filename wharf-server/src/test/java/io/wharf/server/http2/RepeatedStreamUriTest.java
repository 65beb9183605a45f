package io.wharf.server.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpURI;
import io.wharf.http.UriCompliance;
import io.wharf.server.Handler;
import io.wharf.server.LocalConnector;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The streams of one HTTP/2 connection that repeat a {@code :path}, {@code :authority} and
 * {@code :scheme} get the same URI without it being parsed again, as HTTP/1.1 keep-alive
 * requests do; any change of path, authority, scheme or URI compliance mode makes a new one,
 * checked anew.
 */
@Timeout(60)
class RepeatedStreamUriTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final List<HttpURI> seen = new CopyOnWriteArrayList<>();
    private LocalH2cServer server;

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private LocalConnector start() throws Exception {
        server = new LocalH2cServer(leaks.pool());
        return server.start(Handler.of((request, response, callback) -> {
            seen.add(request.getHttpURI());
            Response.write(response, true, request.getHttpURI().toString(), callback);
            return true;
        }));
    }

    private static HttpFields.Mutable get(String scheme, String authority, String path) {
        return HttpFields.build().add(":method", "GET").add(":scheme", scheme).add(":authority", authority).add(":path", path);
    }

    private static String exchange(RawHttp2Client client, int streamId, HttpFields fields) throws Exception {
        client.headers(streamId, fields, true);
        return client.await(frame -> frame.startsWith("HEADERS " + streamId));
    }

    @Test
    void theSameInputsGiveTheSameUriAndAnyChangeANewOne() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            exchange(client, 1, get("http", "localhost:8080", "/plaintext?a=1"));
            exchange(client, 3, get("http", "localhost:8080", "/plaintext?a=1"));
            exchange(client, 5, get("http", "localhost:8080", "/plaintext?a=2"));
            exchange(client, 7, get("http", "example.com:8080", "/plaintext?a=2"));
            exchange(client, 9, get("http", "example.com:8080", "/plaintext?a=2"));
            exchange(client, 11, get("https", "example.com:8080", "/plaintext?a=2"));
            exchange(client, 13, get("https", "example.com:8081", "/plaintext?a=2"));
        }
        assertEquals(7, seen.size());
        assertSame(seen.get(0), seen.get(1));
        assertNotSame(seen.get(1), seen.get(2));
        assertEquals("a=2", seen.get(2).getQuery());
        assertNotSame(seen.get(2), seen.get(3));
        assertEquals("example.com", seen.get(3).getHost());
        assertSame(seen.get(3), seen.get(4));
        assertNotSame(seen.get(4), seen.get(5), "another scheme");
        assertEquals("https", seen.get(5).getScheme());
        assertNotSame(seen.get(5), seen.get(6), "another port");
        assertEquals(8081, seen.get(6).getPort());
    }

    @Test
    void aStricterComplianceModeChecksARepeatedPathAgain() throws Exception {
        LocalConnector connector = start();
        server.http.setUriCompliance(UriCompliance.LEGACY);
        try (RawHttp2Client client = new RawHttp2Client(connector).start()) {
            String allowed = exchange(client, 1, get("http", "localhost", "/files/a%2Fb"));
            assertTrue(allowed.startsWith("HEADERS 1 :status=200"), allowed);
            server.http.setUriCompliance(UriCompliance.DEFAULT);
            String refused = exchange(client, 3, get("http", "localhost", "/files/a%2Fb"));
            assertTrue(refused.startsWith("HEADERS 3 :status=400"), refused);
        }
        assertEquals(1, seen.size());
    }
}
