package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.zip.GZIPInputStream;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * https against a real nginx (installed by {@code scripts/install-peers}) with self-signed
 * certificates made at test time: trusted explicitly, refused by the JDK's default trust,
 * refused when they name another host, accepted by the trust-all opt-in; SNI and ALPN as nginx
 * saw them; POST content and a gzipped file over TLS.
 */
@Timeout(60)
class NginxTlsTest {

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

    private HttpClient trustingClient() throws Exception {
        SSLContext trusted = TestCertificate.trusting(TestCertificate.localhost(), TestCertificate.wrongName());
        return loopback.client(client -> client.setSslContext(trusted));
    }

    @Test
    void getWithTheSelfSignedCertificateTrustedExplicitlySendsSniAndAlpn() throws Exception {
        HttpClient client = trustingClient();

        ContentResponse response = client.GET(nginx.https("/hello"));

        assertEquals(200, response.getStatus());
        assertEquals("hello https sni=localhost alpn=http/1.1\n", response.getContentAsString());
    }

    @Test
    void postSendsItsContentOverTls() throws Exception {
        HttpClient client = trustingClient();

        ContentResponse first = client.POST(nginx.https("/echo")).content(RequestContent.of("name=wharf")).send();
        ContentResponse second = client.POST(nginx.https("/echo")).content(RequestContent.of("again")).send();

        assertEquals("POST name=wharf", first.getContentAsString());
        assertEquals("POST again", second.getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount(), "nginx kept the TLS connection alive");
    }

    @Test
    void aGzippedFileArrivesWholeOverTls() throws Exception {
        HttpClient client = trustingClient();
        client.setMaxResponseContentBytes(1 << 20);
        // The compressed bytes themselves, as they crossed TLS: no inflation by the client.
        client.setContentDecoding(false);

        ContentResponse response = client.newRequest(nginx.https("/big.txt")).header("Accept-Encoding", "gzip").send();

        assertEquals("gzip", response.getHeaders().get("Content-Encoding"));
        byte[] plain = new GZIPInputStream(new ByteArrayInputStream(response.getContent())).readAllBytes();
        assertEquals(Files.readString(directory.resolve("www/big.txt")), new String(plain, StandardCharsets.UTF_8));
        assertTrue(response.getContent().length < NginxPeer.BIG_SIZE / 4, "compressed: " + response.getContent().length);
    }

    @Test
    void theDefaultTrustRefusesTheSelfSignedCertificateNamingHostAndReason() throws Exception {
        HttpClient client = loopback.client();

        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(nginx.https("/hello")));

        SSLHandshakeException refused = assertInstanceOf(SSLHandshakeException.class, failure.getCause());
        assertTrue(refused.getMessage().startsWith("TLS handshake with https://localhost:" + nginx.tlsPort
                + " failed: the server's certificate is not trusted (PKIX path building failed: "), refused.getMessage());
        assertTrue(refused.getMessage().endsWith("); trust its issuer with HttpClient.setSslContext"), refused.getMessage());
    }

    @Test
    void aCertificateNamingAnotherHostIsRefused() throws Exception {
        HttpClient client = trustingClient();

        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> client.GET("https://localhost:" + nginx.wrongNamePort + "/"));

        SSLHandshakeException refused = assertInstanceOf(SSLHandshakeException.class, failure.getCause());
        assertTrue(refused.getMessage().startsWith("TLS handshake with https://localhost:" + nginx.wrongNamePort
                + " failed: the server's certificate does not name localhost"), refused.getMessage());
    }

    @Test
    void trustingEveryCertificateIsAnOptIn() throws Exception {
        HttpClient client = loopback.client(configured -> configured.setTrustAllCertificatesInsecurely(true));

        assertEquals("wrong\n", client.GET("https://localhost:" + nginx.wrongNamePort + "/").getContentAsString());
        assertEquals("hello https sni=localhost alpn=http/1.1\n", client.GET(nginx.https("/hello")).getContentAsString());
    }
}
