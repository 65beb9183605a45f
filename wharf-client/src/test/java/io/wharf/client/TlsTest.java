package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIMatcher;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLHandshakeException;

import io.wharf.io.ssl.SslConnection;
import io.wharf.io.ssl.SslConnectionFactory;
import io.wharf.io.ssl.SslHandshake;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * https against Wharf's own server over TLS, in process, with certificates made at test time:
 * trusted explicitly, untrusted by the JDK's default trust, naming another host, trusted
 * blindly by the opt-in; SNI and ALPN as the server sees them.
 */
@Timeout(30)
class TlsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private final List<String> serverNames = new CopyOnWriteArrayList<>();
    private final List<String> negotiated = new CopyOnWriteArrayList<>();

    /** Answers "METHOD /path|content". */
    private static Handler echo() {
        return Handler.of((request, response, callback) -> {
            String content = Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20);
            Response.write(response, true, request.getMethod() + " " + request.getHttpURI().getPath() + "|" + content,
                    callback);
            return true;
        });
    }

    /** @return a TLS server presenting {@code certificate}, recording the SNI names and the ALPN outcome it sees */
    private TestServer server(TestCertificate certificate) throws Exception {
        SslConnectionFactory tls = SslConnectionFactory.forServer(certificate.serverContext());
        tls.setApplicationProtocols(List.of("http/1.1"));
        tls.setParametersCustomizer(parameters -> parameters.setSNIMatchers(List.of(new SNIMatcher(0) {
            @Override
            public boolean matches(SNIServerName name) {
                serverNames.add(((SNIHostName) name).getAsciiName());
                return true;
            }
        })));
        tls.addListener(new SslConnection.Listener() {
            @Override
            public void handshakeSucceeded(SslHandshake handshake) {
                negotiated.add(handshake.applicationProtocol());
            }
        });
        return loopback.tlsServer(echo(), tls);
    }

    private static String localhost(TestServer server, String path) {
        return "https://localhost:" + server.port() + path;
    }

    @Test
    void getAndPostWithTheCertificateTrustedExplicitly() throws Exception {
        TestServer server = server(TestCertificate.localhost());
        HttpClient client = loopback.client(c -> setTrust(c, TestCertificate.localhost()));

        ContentResponse get = client.GET(localhost(server, "/hello"));
        assertEquals(200, get.getStatus());
        assertEquals("GET /hello|", get.getContentAsString());

        ContentResponse post = client.POST(localhost(server, "/items"))
                .content(RequestContent.of("x".repeat(100_000)))
                .send();
        assertEquals("POST /items|" + "x".repeat(100_000), post.getContentAsString());

        Destination destination = client.getDestinations().get(0);
        assertEquals(new Origin("https", "localhost", server.port(), null), destination.getOrigin());
        assertEquals(1, destination.getConnectionCount(), "the TLS connection was kept alive and reused");
        assertEquals(List.of("localhost"), serverNames, "SNI names the host, once per connection");
        assertEquals(List.of("http/1.1"), negotiated, "ALPN offered http/1.1 and the server chose it");
    }

    @Test
    void anIpLiteralIsVerifiedWithoutSni() throws Exception {
        TestServer server = server(TestCertificate.localhost());
        HttpClient client = loopback.client(c -> setTrust(c, TestCertificate.localhost()));

        ContentResponse response = client.GET(server.uri("/ip"));

        assertEquals("GET /ip|", response.getContentAsString());
        assertEquals(List.of(), serverNames, "no SNI for an IP literal (RFC 6066)");
    }

    @Test
    void theDefaultTrustRefusesASelfSignedCertificateNamingHostAndReason() throws Exception {
        TestServer server = server(TestCertificate.localhost());
        HttpClient client = loopback.client();

        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(localhost(server, "/")));

        SSLHandshakeException tls = assertInstanceOf(SSLHandshakeException.class, failure.getCause());
        assertTrue(tls.getMessage().startsWith("TLS handshake with https://localhost:" + server.port()
                + " failed: the server's certificate is not trusted"), tls.getMessage());
        assertTrue(tls.getMessage().contains("HttpClient.setSslContext"), tls.getMessage());
        assertEquals(0, client.getDestinations().get(0).getConnectionCount(), "the failed connection left no trace");
    }

    @Test
    void aCertificateForAnotherHostIsRefused() throws Exception {
        TestServer server = server(TestCertificate.wrongName());
        HttpClient client = loopback.client(c -> setTrust(c, TestCertificate.wrongName()));

        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(localhost(server, "/")));

        SSLHandshakeException tls = assertInstanceOf(SSLHandshakeException.class, failure.getCause());
        assertTrue(tls.getMessage().startsWith("TLS handshake with https://localhost:" + server.port()
                + " failed: the server's certificate does not name localhost"), tls.getMessage());
    }

    @Test
    void trustingAllCertificatesIsAnExplicitOptIn() throws Exception {
        TestServer server = server(TestCertificate.wrongName());
        HttpClient client = loopback.client(c -> c.setTrustAllCertificatesInsecurely(true));

        ContentResponse response = client.GET(localhost(server, "/any"));

        assertEquals("GET /any|", response.getContentAsString());
        assertTrue(client.isTrustAllCertificatesInsecurely());
    }

    @Test
    void aPlainHttpServerAtAnHttpsUriFailsTheHandshakeClearly() throws Exception {
        TestServer plain = loopback.server(echo());
        HttpClient client = loopback.client(c -> setTrust(c, TestCertificate.localhost()));

        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> client.GET("https://127.0.0.1:" + plain.port() + "/"));

        SSLHandshakeException tls = assertInstanceOf(SSLHandshakeException.class, failure.getCause());
        assertTrue(tls.getMessage().startsWith("TLS handshake with https://127.0.0.1:" + plain.port() + " failed: "),
                tls.getMessage());
    }

    @Test
    void aServerSpeakingOnlyH2RefusesTheHandshakeClearly() throws Exception {
        SslConnectionFactory tls = SslConnectionFactory.forServer(TestCertificate.localhost().serverContext());
        tls.setApplicationProtocols(List.of("h2"));
        TestServer server = loopback.tlsServer(echo(), tls);
        HttpClient client = loopback.client(c -> setTrust(c, TestCertificate.localhost()));

        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(localhost(server, "/")));

        SSLHandshakeException refused = assertInstanceOf(SSLHandshakeException.class, failure.getCause());
        assertTrue(refused.getMessage().startsWith("TLS handshake with https://localhost:" + server.port() + " failed: "),
                refused.getMessage());
        assertTrue(refused.getMessage().contains("no_application_protocol"), refused.getMessage());
    }

    @Test
    void aSilentServerTimesTheHandshakeOutByTheIdleTimeout() throws Exception {
        ScriptedServer silent = loopback.scripted(peer -> peer.readHead());
        HttpClient client = loopback.client(c -> c.setIdleTimeout(Duration.ofMillis(300)));

        TimeoutException timeout = assertThrows(TimeoutException.class,
                () -> client.GET("https://127.0.0.1:" + silent.port() + "/"));

        assertEquals("idle timeout of 300 ms elapsed during the TLS handshake with https://127.0.0.1:" + silent.port(),
                timeout.getMessage());
    }

    @Test
    void manyConcurrentRequestsShareFewTlsConnections() throws Exception {
        TestServer server = server(TestCertificate.localhost());
        HttpClient client = loopback.client(c -> {
            setTrust(c, TestCertificate.localhost());
            c.setMaxConnectionsPerDestination(4);
        });

        List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            responses.add(client.newRequest(localhost(server, "/r" + i)).sendAsync());
        }
        for (int i = 0; i < responses.size(); i++) {
            assertEquals("GET /r" + i + "|", responses.get(i).get().getContentAsString());
        }
        assertTrue(client.getDestinations().get(0).getConnectionCount() <= 4);
    }

    private static void setTrust(HttpClient client, TestCertificate certificate) {
        try {
            client.setSslContext(TestCertificate.trusting(certificate));
        } catch (Exception x) {
            throw new IllegalStateException(x);
        }
    }
}
