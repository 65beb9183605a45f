package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ExecutionException;

import io.wharf.http.HttpVersion;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * HTTP/2 over TLS against Wharf's server: h2 by ALPN, and the dynamic transport taking h2 from
 * a server that offers it and http/1.1 from one that offers only that (and h2c with prior
 * knowledge for plain http when asked).
 */
@Timeout(30)
class Http2TlsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private static void trust(HttpClient client) {
        try {
            client.setSslContext(TestCertificate.trusting(TestCertificate.localhost()));
        } catch (Exception x) {
            throw new IllegalStateException(x);
        }
    }

    private Http2TestServer server(List<String> protocols) throws Exception {
        return loopback.http2Server(Http2ClientTest.echo(), setup -> {
            setup.tls = TestCertificate.localhost();
            setup.protocols = protocols;
        });
    }

    @Test
    void h2ByAlpn() throws Exception {
        Http2TestServer server = server(List.of("h2", "http/1.1"));
        HttpClient client = loopback.client(HttpTransport.HTTP_2, Http2TlsTest::trust);
        ContentResponse get = client.GET(server.uri("/hello"));
        assertEquals(HttpVersion.HTTP_2, get.getVersion());
        assertEquals("GET /hello|HTTP/2.0|", get.getContentAsString());
        ContentResponse post = client.POST(server.uri("/items")).content(RequestContent.of("y".repeat(300_000))).send();
        assertEquals("POST /items|HTTP/2.0|" + "y".repeat(300_000), post.getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
    }

    @Test
    void anHttp2OnlyClientFailsWithAServerWithoutH2() throws Exception {
        Http2TestServer server = server(List.of("http/1.1"));
        HttpClient client = loopback.client(HttpTransport.HTTP_2, Http2TlsTest::trust);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/hello")));
        assertInstanceOf(javax.net.ssl.SSLException.class, failed.getCause(), String.valueOf(failed.getCause()));
    }

    @Test
    void theDynamicTransportTakesH2WhenTheServerPicksIt() throws Exception {
        Http2TestServer server = server(List.of("h2", "http/1.1"));
        HttpClient client = loopback.client(HttpTransport.DYNAMIC, Http2TlsTest::trust);
        assertEquals("GET /a|HTTP/2.0|", client.GET(server.uri("/a")).getContentAsString());
        assertEquals("GET /b|HTTP/2.0|", client.GET(server.uri("/b")).getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
    }

    @Test
    void theDynamicTransportTakesHttp11FromAServerThatOffersOnlyThat() throws Exception {
        Http2TestServer server = server(List.of("http/1.1"));
        HttpClient client = loopback.client(HttpTransport.DYNAMIC, Http2TlsTest::trust);
        ContentResponse get = client.GET(server.uri("/a"));
        assertEquals(HttpVersion.HTTP_1_1, get.getVersion());
        assertEquals("GET /a|HTTP/1.1|", get.getContentAsString());
        assertEquals("POST /b|HTTP/1.1|z", client.POST(server.uri("/b")).content(RequestContent.of("z")).send().getContentAsString());
        // HTTP/1.1 connections of the dynamic pool carry one exchange at a time.
        java.util.List<java.util.concurrent.CompletableFuture<ContentResponse>> responses = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            BufferingResponseListener listener = new BufferingResponseListener(1024);
            client.newRequest(server.uri("/" + i)).send(listener);
            responses.add(listener.future());
        }
        for (int i = 0; i < 10; i++) {
            assertEquals("GET /" + i + "|HTTP/1.1|", responses.get(i).get(10, java.util.concurrent.TimeUnit.SECONDS).getContentAsString());
        }
    }

    @Test
    void theDynamicTransportSpeaksHttp11OrH2cToPlainHttpAsConfigured() throws Exception {
        Http2TestServer server = loopback.http2Server(Http2ClientTest.echo(), setup -> { });
        HttpClient dynamic = new HttpClient(HttpTransport.DYNAMIC);
        HttpClient prior = new HttpClient(HttpTransport.DYNAMIC_PRIOR_KNOWLEDGE);
        for (HttpClient client : List.of(dynamic, prior)) {
            client.setByteBufferPool(leaks.pool());
            client.start();
        }
        try {
            assertEquals("GET /a|HTTP/1.1|", dynamic.GET(server.uri("/a")).getContentAsString());
            assertEquals("GET /a|HTTP/2.0|", prior.GET(server.uri("/a")).getContentAsString());
            assertTrue(prior.getTransport() == HttpTransport.DYNAMIC_PRIOR_KNOWLEDGE);
        } finally {
            dynamic.stop();
            prior.stop();
        }
    }
}
