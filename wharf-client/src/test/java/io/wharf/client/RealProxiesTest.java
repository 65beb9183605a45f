package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

import javax.net.ssl.SSLContext;

import io.wharf.testing.LeakTracking;
import io.wharf.testing.PeerProcess;
import io.wharf.testing.ProxyPeers;
import io.wharf.testing.ProxyPeers.Running;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client through real proxies in front of a real nginx, all installed by
 * {@code scripts/install-peers} and run on loopback ports from configurations in a temporary
 * directory: tinyproxy as the HTTP proxy (forwarding http, CONNECT tunnels for https, Basic
 * credentials, a CONNECT port rule that answers 403) and microsocks as the SOCKS5 proxy
 * (without and with username/password). Exclusions send chosen hosts direct.
 */
@Timeout(60)
class RealProxiesTest {

    @TempDir
    static Path directory;

    private static NginxPeer nginx;
    private static Running tinyproxy;
    private static Running tinyproxyWithCredentials;
    private static Running tinyproxyTlsPortOnly;
    private static Running microsocks;
    private static Running microsocksWithCredentials;
    private static final List<AutoCloseable> RUNNING = new ArrayList<>();

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @BeforeAll
    static void startPeers() throws Exception {
        PeerProcess.require("tinyproxy");
        PeerProcess.require("microsocks");
        nginx = started(NginxPeer.start(directory));
        tinyproxy = tinyproxy("tinyproxy");
        tinyproxyWithCredentials = tinyproxy("tinyproxy-auth", "BasicAuth ann secret");
        tinyproxyTlsPortOnly = tinyproxy("tinyproxy-tls-port", "ConnectPort " + nginx.tlsPort);
        microsocks = microsocks("microsocks");
        microsocksWithCredentials = microsocks("microsocks-auth", "-u", "ann", "-P", "secret");
    }

    @AfterAll
    static void stopPeers() throws Exception {
        for (AutoCloseable peer : RUNNING) {
            peer.close();
        }
        RUNNING.clear();
    }

    private static <T extends AutoCloseable> T started(T peer) {
        RUNNING.add(peer);
        return peer;
    }

    private static Running tinyproxy(String name, String... lines) throws Exception {
        return started(ProxyPeers.tinyproxy(directory, name, lines));
    }

    private static Running microsocks(String name, String... options) throws Exception {
        return started(ProxyPeers.microsocks(directory, name, options));
    }

    private HttpClient client(Proxy... proxies) throws Exception {
        SSLContext trusted = TestCertificate.trusting(TestCertificate.localhost());
        return loopback.client(client -> {
            client.setProxies(List.of(proxies));
            client.setSslContext(trusted);
        });
    }

    private static ProxyException refusal(HttpClient client, String uri) {
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.GET(uri));
        return assertInstanceOf(ProxyException.class, failed.getCause());
    }

    // ---- tinyproxy ----

    @Test
    void httpIsForwardedByTinyproxy() throws Exception {
        HttpClient client = client(Proxy.http("127.0.0.1", tinyproxy.port()));

        String answer = client.GET(nginx.http("/hello")).getContentAsString();

        assertTrue(answer.startsWith("hello http via=1.1 ") && answer.contains("(tinyproxy/"),
                "nginx saw the proxy's Via: " + answer);
    }

    @Test
    void httpsGoesThroughATinyproxyConnectTunnel() throws Exception {
        HttpClient client = client(Proxy.http("127.0.0.1", tinyproxy.port()));

        ContentResponse hello = client.GET(nginx.https("/hello"));
        ContentResponse echo = client.POST(nginx.https("/echo")).content(RequestContent.of("through the tunnel")).send();

        assertEquals("hello https sni=localhost alpn=http/1.1\n", hello.getContentAsString(),
                "TLS ran end to end with nginx: SNI and ALPN reached it through the tunnel");
        assertEquals("POST through the tunnel", echo.getContentAsString());
        assertTrue(tinyproxy.process().log().contains("CONNECT localhost:" + nginx.tlsPort), tinyproxy.process().log());
    }

    @Test
    void tinyproxyWantsItsCredentials() throws Exception {
        Proxy proxy = Proxy.http("127.0.0.1", tinyproxyWithCredentials.port());
        HttpClient client = client(proxy.withCredentials("ann", "secret"));

        assertTrue(client.GET(nginx.http("/hello")).getContentAsString().startsWith("hello http via="));
        assertEquals("hello https sni=localhost alpn=http/1.1\n", client.GET(nginx.https("/hello")).getContentAsString());
    }

    @Test
    void tinyproxyWithoutCredentialsRefusesBothWaysWithA407() throws Exception {
        HttpClient client = client(Proxy.http("127.0.0.1", tinyproxyWithCredentials.port()));

        ProxyException forwarded = refusal(client, nginx.http("/hello"));
        ProxyException tunneled = refusal(client, nginx.https("/hello"));

        String proxy = "proxy http://127.0.0.1:" + tinyproxyWithCredentials.port();
        assertTrue(forwarded.getMessage().startsWith(proxy + " refused GET " + nginx.http("/hello") + ": 407 "),
                forwarded.getMessage());
        assertTrue(forwarded.getMessage().contains("no credentials were set"), forwarded.getMessage());
        assertTrue(tunneled.getMessage().startsWith(proxy + " refused CONNECT localhost:" + nginx.tlsPort + ": 407 "),
                tunneled.getMessage());
        assertTrue(tunneled.getMessage().contains("challenge: Basic"), tunneled.getMessage());
    }

    @Test
    void wrongCredentialsAreNamedAsRefused() throws Exception {
        HttpClient client = client(Proxy.http("127.0.0.1", tinyproxyWithCredentials.port()).withCredentials("ann", "wrong"));

        ProxyException refused = refusal(client, nginx.https("/hello"));

        // tinyproxy answers 401 to credentials it refuses.
        assertTrue(refused.getMessage().startsWith("proxy http://ann@127.0.0.1:" + tinyproxyWithCredentials.port()
                + " refused CONNECT localhost:" + nginx.tlsPort + ": 401 Unauthorized (it refused the credentials of ann)"),
                refused.getMessage());
    }

    @Test
    void aConnectToAForbiddenPortIsRefusedWithA403() throws Exception {
        HttpClient client = client(Proxy.http("127.0.0.1", tinyproxyTlsPortOnly.port()));

        assertEquals("hello https sni=localhost alpn=http/1.1\n", client.GET(nginx.https("/hello")).getContentAsString());
        ProxyException refused = refusal(client, "https://localhost:" + nginx.wrongNamePort + "/");

        assertTrue(refused.getMessage().startsWith("proxy http://127.0.0.1:" + tinyproxyTlsPortOnly.port()
                + " refused CONNECT localhost:" + nginx.wrongNamePort + ": 403"), refused.getMessage());
    }

    @Test
    void excludedHostsGoDirectAndTheOthersThroughTheProxy() throws Exception {
        HttpClient client = client(Proxy.http("127.0.0.1", tinyproxy.port()).excluding("localhost"));

        String direct = client.GET(nginx.http("/hello")).getContentAsString();
        String proxied = client.GET("http://127.0.0.1:" + nginx.httpPort + "/hello").getContentAsString();

        assertEquals("hello http via=\n", direct);
        assertTrue(proxied.contains("(tinyproxy/"), proxied);
        assertEquals(2, client.getDestinations().size());
    }

    // ---- microsocks ----

    @Test
    void socks5CarriesHttpAndHttps() throws Exception {
        HttpClient client = client(Proxy.socks5("127.0.0.1", microsocks.port()));

        assertEquals("hello http via=\n", client.GET(nginx.http("/hello")).getContentAsString());
        assertEquals("hello https sni=localhost alpn=http/1.1\n", client.GET(nginx.https("/hello")).getContentAsString());
        assertEquals("POST socks", client.POST(nginx.https("/echo")).content(RequestContent.of("socks")).send()
                .getContentAsString());
        assertTrue(microsocks.process().log().contains("connected to localhost:" + nginx.tlsPort), microsocks.process().log());
    }

    @Test
    void socks5WithUsernameAndPassword() throws Exception {
        HttpClient client = client(Proxy.socks5("127.0.0.1", microsocksWithCredentials.port()).withCredentials("ann", "secret"));

        assertEquals("hello https sni=localhost alpn=http/1.1\n", client.GET(nginx.https("/hello")).getContentAsString());
    }

    @Test
    void aSocks5ProxyWantingCredentialsRefusesWithout() throws Exception {
        HttpClient client = client(Proxy.socks5("127.0.0.1", microsocksWithCredentials.port()));

        ProxyException refused = refusal(client, nginx.https("/hello"));

        assertEquals("proxy socks5://127.0.0.1:" + microsocksWithCredentials.port() + " accepts none of the offered "
                + "authentication methods (no authentication; set credentials with Proxy.withCredentials)", refused.getMessage());
    }

    @Test
    void aSocks5ProxyRefusesWrongCredentials() throws Exception {
        HttpClient client = client(Proxy.socks5("127.0.0.1", microsocksWithCredentials.port()).withCredentials("ann", "wrong"));

        ProxyException refused = refusal(client, nginx.http("/hello"));

        assertTrue(refused.getMessage().startsWith("proxy socks5://ann@127.0.0.1:" + microsocksWithCredentials.port()
                + " refused the credentials of ann (status "), refused.getMessage());
    }

    @Test
    void aSocks5FailureCodeIsNamed() throws Exception {
        int closed = PeerProcess.freePort();
        HttpClient client = client(Proxy.socks5("127.0.0.1", microsocks.port()));

        ProxyException refused = refusal(client, "http://127.0.0.1:" + closed + "/");

        assertTrue(refused.getMessage().startsWith("proxy socks5://127.0.0.1:" + microsocks.port()
                + " refused to connect to 127.0.0.1:" + closed + ": reply "), refused.getMessage());
    }
}
