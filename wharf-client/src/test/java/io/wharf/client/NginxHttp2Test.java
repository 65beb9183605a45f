package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.wharf.http.HttpVersion;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 against a real nginx (installed by {@code scripts/install-peers}): h2 over TLS by
 * ALPN and h2c with prior knowledge, many requests at once on one connection, content up
 * (through nginx's proxy) and down (gzipped, decoded), and the dynamic transport taking h2
 * from the server that offers it and http/1.1 from the one that does not.
 */
@Timeout(60)
class NginxHttp2Test {

    @TempDir
    static Path directory;

    private static NginxPeer nginx;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @BeforeAll
    static void startNginx() throws Exception {
        nginx = NginxPeer.start(directory);
    }

    @AfterAll
    static void stopNginx() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
    }

    private static void trust(HttpClient client) {
        try {
            client.setSslContext(TestCertificate.trusting(TestCertificate.localhost()));
        } catch (Exception x) {
            throw new IllegalStateException(x);
        }
    }

    @Test
    void h2OverTlsByAlpn() throws Exception {
        HttpClient client = loopback.client(HttpTransport.HTTP_2, NginxHttp2Test::trust);
        ContentResponse hello = client.GET(nginx.h2("/hello"));
        assertEquals(HttpVersion.HTTP_2, hello.getVersion());
        assertEquals("hello https HTTP/2.0 alpn=h2\n", hello.getContentAsString());
        ContentResponse echo = client.POST(nginx.h2("/echo")).content(RequestContent.of("posted")).send();
        assertEquals("POST posted", echo.getContentAsString());
        ContentResponse big = client.GET(nginx.h2("/big.txt"));
        assertEquals(NginxPeer.BIG_SIZE, big.getContent().length);
        assertTrue(big.getContentAsString().startsWith("line 0 of a text"));
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
    }

    @Test
    void manyRequestsAtOnceOnOneH2Connection() throws Exception {
        HttpClient client = loopback.client(HttpTransport.HTTP_2, NginxHttp2Test::trust);
        assertEquals(200, client.GET(nginx.h2("/hello")).getStatus());
        List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            BufferingResponseListener listener = new BufferingResponseListener(1 << 20);
            client.newRequest(nginx.h2(i % 2 == 0 ? "/hello" : "/big.txt")).send(listener);
            responses.add(listener.future());
        }
        for (int i = 0; i < responses.size(); i++) {
            ContentResponse response = responses.get(i).get(30, TimeUnit.SECONDS);
            assertEquals(200, response.getStatus());
            assertEquals(i % 2 == 0 ? 29 : NginxPeer.BIG_SIZE, response.getContent().length);
        }
        assertEquals(1, client.getDestinations().get(0).getConnectionCount(), "nginx allows 128 streams: one connection");
    }

    @Test
    void h2cWithPriorKnowledge() throws Exception {
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        ContentResponse hello = client.GET(nginx.h2c("/hello"));
        assertEquals(HttpVersion.HTTP_2, hello.getVersion());
        assertEquals("hello http HTTP/2.0\n", hello.getContentAsString());
    }

    @Test
    void theDynamicTransportTakesWhatNginxPicks() throws Exception {
        HttpClient client = loopback.client(HttpTransport.DYNAMIC, NginxHttp2Test::trust);
        ContentResponse h2 = client.GET(nginx.h2("/hello"));
        assertEquals(HttpVersion.HTTP_2, h2.getVersion());
        assertEquals("hello https HTTP/2.0 alpn=h2\n", h2.getContentAsString());
        ContentResponse http11 = client.GET(nginx.https("/hello"));
        assertEquals(HttpVersion.HTTP_1_1, http11.getVersion());
        assertEquals("hello https sni=localhost alpn=http/1.1\n", http11.getContentAsString());
    }
}
