package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

import javax.net.ssl.SSLContext;

import io.wharf.io.ssl.SslConnectionFactory;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proxies played by scripts on plain sockets: what the client asks of an HTTP proxy (absolute
 * form, CONNECT, Basic credentials) and of a SOCKS5 proxy (each byte), how every refusal and
 * every nonsense answer fails the exchange with a message naming the proxy and its answer,
 * and tunnels relayed to Wharf's own server (plain and TLS) as the happy path.
 */
@Timeout(30)
class ScriptedProxyTest {

    private static final String BASIC_ANN = "Basic YW5uOnNlY3JldA=="; // ann:secret

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private final List<byte[]> socksRequests = new CopyOnWriteArrayList<>();

    private static Handler hello() {
        return Handler.of((request, response, callback) -> {
            Response.write(response, true, "hello " + request.getMethod() + " " + request.getHttpURI().getPath()
                    + " host=" + request.getHeaders().get("Host"), callback);
            return true;
        });
    }

    private HttpClient client(Proxy proxy) throws Exception {
        return loopback.client(c -> c.setProxies(List.of(proxy)));
    }

    /** A proxy's refusal: the port the scripted proxy listened on, and the message of the ProxyException that failed the exchange. */
    private record Refusal(int port, String message) {
    }

    /** @return how a GET of {@code uri} failed through the proxy {@code proxyAt} makes for the port of a server playing {@code script} */
    private Refusal refusal(IntFunction<Proxy> proxyAt, String uri, ScriptedServer.Script script) throws Exception {
        ScriptedServer proxy = loopback.scripted(script);
        HttpClient client = client(proxyAt.apply(proxy.port()));
        return new Refusal(proxy.port(), failure(client, uri, ProxyException.class).getMessage());
    }

    /** @return the failure of a GET to {@code uri}, which must be a {@code type} */
    private static <T extends Throwable> T failure(HttpClient client, String uri, Class<T> type) {
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.GET(uri));
        return assertInstanceOf(type, failed.getCause());
    }

    // ---- HTTP proxy: forwarding plain http ----

    @Test
    void plainHttpGoesToTheProxyInAbsoluteFormWithCredentials() throws Exception {
        ScriptedServer proxy = loopback.scripted(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            peer.readHead();
        });
        HttpClient client = client(Proxy.http("127.0.0.1", proxy.port()).withCredentials("ann", "secret"));

        // The origin's name does not resolve: only the proxy is connected to.
        ContentResponse response = client.GET("http://origin.invalid:8080/a?b=1");

        assertEquals("ok", response.getContentAsString());
        String head = proxy.heads.get(0);
        assertTrue(head.startsWith("GET http://origin.invalid:8080/a?b=1 HTTP/1.1\r\n"), head);
        assertTrue(head.contains("\r\nHost: origin.invalid:8080\r\n"), head);
        assertTrue(head.contains("\r\nProxy-Authorization: " + BASIC_ANN + "\r\n"), head);
        Destination destination = client.getDestinations().get(0);
        assertEquals(Proxy.http("127.0.0.1", proxy.port()).withCredentials("ann", "secret"), destination.getProxy());
    }

    @Test
    void aForwardingProxysRefusalFailsTheExchangeNamingItsChallenge() throws Exception {
        Refusal refused = refusal(port -> Proxy.http("127.0.0.1", port), "http://origin.invalid/x", peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"wharf\"\r\n"
                    + "Content-Length: 0\r\n\r\n");
            peer.readHead();
        });

        assertEquals("proxy http://127.0.0.1:" + refused.port() + " refused GET http://origin.invalid/x: 407 Proxy "
                + "Authentication Required (no credentials were set: Proxy.withCredentials), challenge: Basic realm=\"wharf\"",
                refused.message());
    }

    // ---- HTTP proxy: CONNECT tunnels ----

    @Test
    void httpsGoesThroughAConnectTunnelWithTlsEndToEnd() throws Exception {
        TestServer origin = loopback.tlsServer(hello(), SslConnectionFactory.forServer(TestCertificate.localhost().serverContext()));
        ScriptedServer proxy = loopback.scripted(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 Connection established\r\n\r\n");
            peer.relayTo(origin.port());
        });
        HttpClient client = loopback.client(c -> {
            c.setProxies(List.of(Proxy.http("127.0.0.1", proxy.port()).withCredentials("ann", "secret")));
            c.setSslContext(trusting(TestCertificate.localhost()));
        });

        String uri = "https://localhost:" + origin.port() + "/tunneled";
        assertEquals("hello GET /tunneled host=localhost:" + origin.port(), client.GET(uri).getContentAsString());
        assertEquals("hello POST /tunneled host=localhost:" + origin.port(),
                client.POST(uri).content(RequestContent.of("x")).send().getContentAsString());

        assertEquals(1, proxy.accepted(), "one tunnel carried both exchanges");
        String connect = proxy.heads.get(0);
        assertTrue(connect.startsWith("CONNECT localhost:" + origin.port() + " HTTP/1.1\r\n"), connect);
        assertTrue(connect.contains("\r\nHost: localhost:" + origin.port() + "\r\n"), connect);
        assertTrue(connect.contains("\r\nProxy-Authorization: " + BASIC_ANN + "\r\n"), connect);
    }

    @Test
    void interimAnswersBeforeTheTunnelAreSkipped() throws Exception {
        TestServer origin = loopback.tlsServer(hello(), SslConnectionFactory.forServer(TestCertificate.localhost().serverContext()));
        ScriptedServer proxy = loopback.scripted(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n");
            peer.relayTo(origin.port());
        });
        HttpClient client = loopback.client(c -> {
            c.setProxies(List.of(Proxy.http("127.0.0.1", proxy.port())));
            c.setSslContext(trusting(TestCertificate.localhost()));
        });

        assertEquals("hello GET /after-100 host=localhost:" + origin.port(),
                client.GET("https://localhost:" + origin.port() + "/after-100").getContentAsString());
    }

    @Test
    void aRefusedConnectFailsNamingTheProxyAndItsAnswer() throws Exception {
        Refusal refused = refusal(port -> Proxy.http("127.0.0.1", port), "https://origin.invalid:8443/", peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 403 Forbidden\r\nContent-Length: 9\r\n\r\nforbidden");
            peer.readHead();
        });

        assertEquals("proxy http://127.0.0.1:" + refused.port() + " refused CONNECT origin.invalid:8443: 403 Forbidden",
                refused.message());
        assertEquals(0, loopback.client().getDestinations().get(0).getConnectionCount(), "the refused connection left the pool");
    }

    @Test
    void refusedCredentialsAreNamedInTheMessage() throws Exception {
        Refusal refused = refusal(port -> Proxy.http("127.0.0.1", port).withCredentials("ann", "wrong"), "https://origin.invalid/", peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"r\"\r\n\r\n");
            peer.readHead();
        });

        assertEquals("proxy http://ann@127.0.0.1:" + refused.port() + " refused CONNECT origin.invalid:443: 407 Proxy "
                + "Authentication Required (it refused the credentials of ann), challenge: Basic realm=\"r\"",
                refused.message());
    }

    @Test
    void aMalformedAnswerToConnectFailsSayingWhatIsWrong() throws Exception {
        Refusal bad = refusal(port -> Proxy.http("127.0.0.1", port), "https://origin.invalid/", peer -> {
            peer.readHead();
            peer.write("HELLO THERE\r\n\r\n");
            peer.readHead();
        });

        assertTrue(bad.message().startsWith("proxy http://127.0.0.1:" + bad.port()
                + " answered CONNECT origin.invalid:443 with a malformed response: "), bad.message());
    }

    @Test
    void aProxyThatClosesWithoutAnsweringFailsTheExchange() throws Exception {
        Refusal closed = refusal(port -> Proxy.http("127.0.0.1", port), "https://origin.invalid/", peer -> {
            peer.readHead();
            peer.close();
        });

        assertEquals("proxy http://127.0.0.1:" + closed.port() + " closed the connection before answering CONNECT "
                + "origin.invalid:443", closed.message());
    }

    @Test
    void bytesAfterTheTunnelOpensFailIt() throws Exception {
        Refusal early = refusal(port -> Proxy.http("127.0.0.1", port), "https://origin.invalid/", peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 OK\r\n\r\nHELLO");
            peer.readHead();
        });

        assertTrue(early.message().contains("sent 5 bytes after agreeing to CONNECT origin.invalid:443"),
                early.message());
    }

    @Test
    void aSilentProxyTimesOutByTheIdleTimeout() throws Exception {
        ScriptedServer proxy = loopback.scripted(peer -> {
            peer.readHead();
            peer.readHead();
        });
        HttpClient client = loopback.client(c -> {
            c.setProxies(List.of(Proxy.http("127.0.0.1", proxy.port())));
            c.setIdleTimeout(Duration.ofMillis(300));
        });

        // send() throws a timeout as it is.
        TimeoutException timeout = assertThrows(TimeoutException.class, () -> client.GET("https://origin.invalid/"));

        assertEquals("idle timeout of 300 ms elapsed waiting for proxy http://127.0.0.1:" + proxy.port()
                + " to answer CONNECT origin.invalid:443", timeout.getMessage());
    }

    @Test
    void anUnreachableProxyIsNamed() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        HttpClient client = client(Proxy.http("127.0.0.1", closedPort));

        ProxyException unreachable = failure(client, "http://origin.invalid/", ProxyException.class);

        assertTrue(unreachable.getMessage().startsWith("cannot connect to proxy http://127.0.0.1:" + closedPort
                + " for http://origin.invalid:80: "), unreachable.getMessage());
    }

    // ---- SOCKS5 ----

    /** Reads a SOCKS5 CONNECT request (the domain form) and records it. */
    private void readSocksConnect(ScriptedServer.Peer peer) throws IOException {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        byte[] start = peer.readBytes(5);
        request.writeBytes(start);
        request.writeBytes(peer.readBytes((start[4] & 0xFF) + 2));
        socksRequests.add(request.toByteArray());
    }

    @Test
    void socks5WithCredentialsCarriesHttpAndHttps() throws Exception {
        TestServer plain = loopback.server(hello());
        TestServer tls = loopback.tlsServer(hello(), SslConnectionFactory.forServer(TestCertificate.localhost().serverContext()));
        List<byte[]> greetings = new CopyOnWriteArrayList<>();
        List<byte[]> authentications = new CopyOnWriteArrayList<>();
        ScriptedServer proxy = loopback.scripted(peer -> {
            greetings.add(peer.readBytes(4));
            peer.write(new byte[] {5, 2});
            authentications.add(peer.readBytes(1 + 1 + 3 + 1 + 6));
            peer.write(new byte[] {1, 0});
            readSocksConnect(peer);
            byte[] request = socksRequests.get(socksRequests.size() - 1);
            int port = ((request[request.length - 2] & 0xFF) << 8) | (request[request.length - 1] & 0xFF);
            peer.write(new byte[] {5, 0, 0, 1, 127, 0, 0, 1, 0, 0});
            peer.relayTo(port);
        });
        HttpClient client = loopback.client(c -> {
            c.setProxies(List.of(Proxy.socks5("127.0.0.1", proxy.port()).withCredentials("ann", "secret")));
            c.setSslContext(trusting(TestCertificate.localhost()));
        });

        assertEquals("hello GET /plain host=localhost:" + plain.port(),
                client.GET("http://localhost:" + plain.port() + "/plain").getContentAsString());
        assertEquals("hello GET /tls host=localhost:" + tls.port(),
                client.GET("https://localhost:" + tls.port() + "/tls").getContentAsString());

        assertArrayEquals(new byte[] {5, 2, 0, 2}, greetings.get(0), "offers no authentication and username/password");
        assertEquals("\u0001\u0003ann\u0006secret", new String(authentications.get(0), StandardCharsets.ISO_8859_1));
        String connect = new String(socksRequests.get(0), StandardCharsets.ISO_8859_1);
        assertEquals("\u0005\u0001\u0000\u0003\u0009localhost" + (char) (plain.port() >> 8) + (char) (plain.port() & 0xFF),
                connect, "CONNECT with the host name unresolved");
    }

    @Test
    void socks5SendsIpLiteralsAsAddresses() throws Exception {
        TestServer plain = loopback.server(hello());
        ScriptedServer proxy = loopback.scripted(peer -> {
            peer.readBytes(3);
            peer.write(new byte[] {5, 0});
            byte[] request = peer.readBytes(10);
            socksRequests.add(request);
            peer.write(new byte[] {5, 0, 0, 1, 127, 0, 0, 1, 0, 0});
            peer.relayTo(plain.port());
        });
        HttpClient client = client(Proxy.socks5("127.0.0.1", proxy.port()));

        assertEquals("hello GET /ip host=127.0.0.1:" + plain.port(), client.GET(plain.uri("/ip")).getContentAsString());
        assertArrayEquals(new byte[] {5, 1, 0, 1, 127, 0, 0, 1, (byte) (plain.port() >> 8), (byte) plain.port()},
                socksRequests.get(0));
    }

    @Test
    void aSocksRefusalIsNamedWithTheRfcsWords() throws Exception {
        Refusal refused = refusal(port -> Proxy.socks5("127.0.0.1", port), "http://origin.invalid:8080/", peer -> {
            peer.readBytes(3);
            peer.write(new byte[] {5, 0});
            readSocksConnect(peer);
            peer.write(new byte[] {5, 2, 0, 1, 0, 0, 0, 0, 0, 0});
            peer.readHead();
        });

        assertEquals("proxy socks5://127.0.0.1:" + refused.port() + " refused to connect to origin.invalid:8080: reply 2 "
                + "(connection not allowed by ruleset)", refused.message());
    }

    @Test
    void aSocksProxyWantingCredentialsSaysSo() throws Exception {
        Refusal refused = refusal(port -> Proxy.socks5("127.0.0.1", port), "http://origin.invalid/", peer -> {
            peer.readBytes(3);
            peer.write(new byte[] {5, (byte) 0xFF});
            peer.readHead();
        });

        assertEquals("proxy socks5://127.0.0.1:" + refused.port() + " accepts none of the offered authentication methods "
                + "(no authentication; set credentials with Proxy.withCredentials)", refused.message());
    }

    @Test
    void refusedSocksCredentialsAreNamed() throws Exception {
        Refusal refused = refusal(port -> Proxy.socks5("127.0.0.1", port).withCredentials("ann", "wrong"), "http://origin.invalid/", peer -> {
            peer.readBytes(4);
            peer.write(new byte[] {5, 2});
            peer.readBytes(1 + 1 + 3 + 1 + 5);
            peer.write(new byte[] {1, 1});
            peer.readHead();
        });

        assertEquals("proxy socks5://ann@127.0.0.1:" + refused.port() + " refused the credentials of ann (status 1)",
                refused.message());
    }

    @Test
    void aServerThatIsNotSocks5IsNamed() throws Exception {
        Refusal bad = refusal(port -> Proxy.socks5("127.0.0.1", port), "http://origin.invalid/", peer -> {
            peer.readBytes(3);
            peer.write("HTTP/1.1 400 Bad Request\r\n\r\n");
            peer.readHead();
        });

        assertEquals("proxy socks5://127.0.0.1:" + bad.port() + " is not a SOCKS5 proxy: it answered version 72",
                bad.message());
    }

    @Test
    void aSocksVersion4AnswerIsNamed() throws Exception {
        Refusal bad = refusal(port -> Proxy.socks5("127.0.0.1", port), "http://origin.invalid/", peer -> {
            peer.readBytes(3);
            peer.write(new byte[] {4, 0});
            peer.readHead();
        });

        assertEquals("proxy socks5://127.0.0.1:" + bad.port() + " is not a SOCKS5 proxy: it answered version 4",
                bad.message());
    }

    // ---- which requests go through which proxy ----

    @Test
    void excludedHostsGoDirect() throws Exception {
        TestServer origin = loopback.server(hello());
        ScriptedServer proxy = loopback.scripted(peer -> peer.readHead());
        HttpClient client = client(Proxy.http("127.0.0.1", proxy.port()).excluding("localhost", "127.0.0.*"));

        assertEquals("hello GET /direct host=127.0.0.1:" + origin.port(), client.GET(origin.uri("/direct")).getContentAsString());

        assertEquals(0, proxy.accepted(), "the proxy was never connected to");
        assertNull(client.getDestinations().get(0).getProxy());
    }

    @Test
    void destinationsAreKeptApartByProxy() throws Exception {
        TestServer origin = loopback.server(hello());
        ScriptedServer proxy = loopback.scripted(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nproxied");
            peer.readHead();
        });
        HttpClient client = loopback.client();

        assertEquals("hello GET /a host=127.0.0.1:" + origin.port(), client.GET(origin.uri("/a")).getContentAsString());
        Proxy http = Proxy.http("127.0.0.1", proxy.port());
        client.setProxies(List.of(http));
        assertEquals("proxied", client.GET(origin.uri("/b")).getContentAsString());

        List<Destination> destinations = client.getDestinations();
        assertEquals(2, destinations.size());
        assertEquals(destinations.get(0).getOrigin(), destinations.get(1).getOrigin());
        Destination viaProxy = destinations.get(0).getProxy() == null ? destinations.get(1) : destinations.get(0);
        assertSame(http, viaProxy.getProxy());
    }

    private static SSLContext trusting(TestCertificate certificate) {
        try {
            return TestCertificate.trusting(certificate);
        } catch (Exception x) {
            throw new IllegalStateException(x);
        }
    }
}
