package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import java.util.function.Consumer;

import io.wharf.http.HttpURI;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.proxy.ProxyConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ForwardedRequestCustomizerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String PLAIN = "http://localhost:-1 secure=false/false remote=null:0";

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;
    private LocalConnector connector;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /**
     * Starts a server with the customizer; its connector starts with a PROXY header when
     * {@code proxied}, so that tests can choose the direct peer's address.
     */
    private void start(boolean proxied, Consumer<ForwardedRequestCustomizer> configure) throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setSendDateHeader(false);
        configuration.setSendServerVersion(false);
        ForwardedRequestCustomizer customizer = new ForwardedRequestCustomizer();
        configure.accept(customizer);
        configuration.addCustomizer(customizer);
        HttpConnectionFactory http = new HttpConnectionFactory(configuration);
        connector = proxied ? new LocalConnector(server, new ProxyConnectionFactory(), http) : new LocalConnector(server, http);
        server.addConnector(connector);
        server.setHandler(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            HttpURI uri = request.getHttpURI();
            String body = uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort()
                    + " secure=" + request.isSecure() + "/" + request.getConnectionMetaData().isSecure()
                    + " remote=" + Request.getRemoteAddress(request) + ":" + Request.getRemotePort(request)
                    + (request.getConnectionMetaData().getProxyHeader().isPresent() ? " proxied" : "");
            Response.write(response, true, body, callback);
            return true;
        }));
        server.start();
    }

    /** @return what the handler saw for a GET with {@code headers} (lines separated by '|') */
    private String seen(String prefix, String headers) throws Exception {
        String fields = headers.isEmpty() ? "" : String.join("\r\n", headers.split("\\|")) + "\r\n";
        String response = connector.getResponse(prefix + "GET / HTTP/1.1\r\nHost: localhost\r\n" + fields + "\r\n");
        assertTrue(response != null && response.startsWith("HTTP/1.1 200 OK\r\n"), String.valueOf(response));
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '#', textBlock = """
            '' # http://localhost:-1 secure=false/false remote=null:0
            Forwarded: for=192.0.2.60;proto=https;by=203.0.113.43 # https://localhost:-1 secure=true/true remote=192.0.2.60:0
            Forwarded: for="[2001:db8:cafe::17]:4711" # http://localhost:-1 secure=false/false remote=2001:db8:cafe:0:0:0:0:17:4711
            Forwarded: For="192.0.2.43:47011" # http://localhost:-1 secure=false/false remote=192.0.2.43:47011
            Forwarded: for=unknown # http://localhost:-1 secure=false/false remote=unknown:0
            Forwarded: for=_hidden, for=_SEVKISEK # http://localhost:-1 secure=false/false remote=_SEVKISEK:0
            Forwarded: for="_hidden:_port" # http://localhost:-1 secure=false/false remote=_hidden:0
            Forwarded: host="example.com:8443"; proto=HTTPS # https://example.com:8443 secure=true/true remote=null:0
            Forwarded: host=example.com;proto=https # https://example.com:-1 secure=true/true remote=null:0
            Forwarded: for=192.0.2.43, for=127.0.0.1 # http://localhost:-1 secure=false/false remote=192.0.2.43:0
            Forwarded: for=192.0.2.43;proto=http, for=198.51.100.17;proto=https # https://localhost:-1 secure=true/true remote=198.51.100.17:0
            Forwarded: for=192.0.2.1|Forwarded: for=127.0.0.2 # http://localhost:-1 secure=false/false remote=192.0.2.1:0
            Forwarded: for="_a\\b" # http://localhost:-1 secure=false/false remote=_ab:0
            Forwarded: for=192.0.2.1|X-Forwarded-For: 198.51.100.1|X-Forwarded-Proto: https # http://localhost:-1 secure=false/false remote=192.0.2.1:0
            X-Forwarded-For: 192.0.2.1 # http://localhost:-1 secure=false/false remote=192.0.2.1:0
            X-Forwarded-For: 203.0.113.9, 192.0.2.1 # http://localhost:-1 secure=false/false remote=192.0.2.1:0
            X-Forwarded-For: 203.0.113.9, 127.0.0.1 # http://localhost:-1 secure=false/false remote=203.0.113.9:0
            X-Forwarded-For: 203.0.113.9|X-Forwarded-For: ::1 # http://localhost:-1 secure=false/false remote=203.0.113.9:0
            X-Forwarded-For: [2001:db8::1]:1234 # http://localhost:-1 secure=false/false remote=2001:db8:0:0:0:0:0:1:1234
            X-Forwarded-For: 2001:db8::1 # http://localhost:-1 secure=false/false remote=2001:db8:0:0:0:0:0:1:0
            X-Forwarded-For: 192.0.2.1:5555 # http://localhost:-1 secure=false/false remote=192.0.2.1:5555
            X-Forwarded-Proto: https|X-Forwarded-Host: example.com|X-Forwarded-Port: 8443 # https://example.com:8443 secure=true/true remote=null:0
            X-Forwarded-Proto: https # https://localhost:-1 secure=true/true remote=null:0
            X-Forwarded-Host: example.com:444 # http://example.com:444 secure=false/false remote=null:0
            X-Forwarded-Port: 8443 # http://localhost:8443 secure=false/false remote=null:0
            X-Forwarded-For: 203.0.113.9, 192.0.2.1|X-Forwarded-Proto: http, https # https://localhost:-1 secure=true/true remote=192.0.2.1:0
            X-Forwarded-For: 203.0.113.9, 127.0.0.1|X-Forwarded-Proto: https, http # https://localhost:-1 secure=true/true remote=203.0.113.9:0
            X-Forwarded-Proto: http, https, http # http://localhost:-1 secure=false/false remote=null:0
            Forwarded: for=1.2.3.4:80|X-Forwarded-For: 192.0.2.7 # http://localhost:-1 secure=false/false remote=192.0.2.7:0
            """)
    void appliesTheHeaders(String headers, String expected) throws Exception {
        start(false, customizer -> { });
        assertEquals(expected, seen("", headers));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '#', textBlock = """
            Forwarded: for=192.0.2.1:80
            Forwarded: for="[::1"
            Forwarded: for="[::1]x"
            Forwarded: for="[localhost]"
            Forwarded: for=01.2.3.4
            Forwarded: for=host.example
            Forwarded: for="_hidden:99999"
            Forwarded: for=1.2.3.4;for=5.6.7.8
            Forwarded: for=1.2.3.4,,for=5.6.7.8
            Forwarded: for="1.2.3.4
            Forwarded: for=
            Forwarded: =1.2.3.4
            Forwarded: for 1.2.3.4
            Forwarded: proto=ftp
            Forwarded: proto=https;host="bad host"
            Forwarded: host="example.com:0"
            Forwarded: by=somewhere;proto=https
            X-Forwarded-For: evil.example
            X-Forwarded-For: 1.2.3.4,,5.6.7.8
            X-Forwarded-For: 1.2.3.4, unknown
            X-Forwarded-For: 1.2.3.4:99999
            X-Forwarded-Proto: javascript
            X-Forwarded-Host: a@b
            X-Forwarded-Host: example.com:99999
            X-Forwarded-Port: 0
            X-Forwarded-Port: 65536
            X-Forwarded-Port: 80x
            X-Forwarded-Port: 080
            """)
    void ignoresMalformedHeaders(String headers) throws Exception {
        start(false, customizer -> { });
        assertEquals(PLAIN, seen("", headers));
    }

    @Test
    void theFirstSelectionBelievesTheLeftmostEntry() throws Exception {
        start(false, customizer -> customizer.setClientSelection(ForwardedRequestCustomizer.ClientSelection.FIRST));
        assertEquals("http://localhost:-1 secure=false/false remote=203.0.113.9:0", seen("", "X-Forwarded-For: 203.0.113.9, 192.0.2.1"));
        assertEquals("http://localhost:-1 secure=false/false remote=203.0.113.9:0", seen("", "Forwarded: for=203.0.113.9, for=192.0.2.1"));
        assertEquals("https://localhost:-1 secure=true/true remote=null:0", seen("", "X-Forwarded-Proto: https, http"));
    }

    @Test
    void trustedProxiesAreSkippedWhenWalkingFromTheRight() throws Exception {
        start(false, customizer -> customizer.addTrustedProxy("10.0.0.0/8"));
        assertEquals("http://localhost:-1 secure=false/false remote=203.0.113.9:0",
                seen("", "X-Forwarded-For: 198.51.100.1, 203.0.113.9, 10.1.2.3, 10.200.0.1"));
    }

    @Test
    void forwardedOnlyIgnoresTheXForwardedHeaders() throws Exception {
        start(false, customizer -> customizer.setForwardedOnly(true));
        assertEquals(PLAIN, seen("", "X-Forwarded-For: 192.0.2.1|X-Forwarded-Proto: https"));
        assertEquals("http://localhost:-1 secure=false/false remote=192.0.2.1:0", seen("", "Forwarded: for=192.0.2.1"));
    }

    @Test
    void onlyTheChosenSourcesAreHonoured() throws Exception {
        start(false, customizer -> customizer.setSources(EnumSet.of(ForwardedRequestCustomizer.Source.X_FORWARDED_PROTO)));
        assertEquals("https://localhost:-1 secure=true/true remote=null:0",
                seen("", "Forwarded: for=192.0.2.1|X-Forwarded-For: 192.0.2.2|X-Forwarded-Proto: https|X-Forwarded-Host: example.com"));
    }

    @Test
    void anUntrustedPeersHeadersAreIgnored() throws Exception {
        start(true, customizer -> { });
        String peer = "PROXY TCP4 192.0.2.50 192.0.2.80 5000 80\r\n";
        assertEquals("http://localhost:-1 secure=false/false remote=192.0.2.50:5000 proxied",
                seen(peer, "Forwarded: for=198.51.100.1;proto=https|X-Forwarded-For: 198.51.100.2"));
        String loopback = "PROXY TCP4 127.0.0.1 127.0.0.1 5000 80\r\n";
        assertEquals("https://localhost:-1 secure=true/true remote=198.51.100.1:0 proxied",
                seen(loopback, "Forwarded: for=198.51.100.1;proto=https"), "the metadata wrapper keeps the PROXY header");
    }

    @Test
    void aConfiguredProxyBlockIsTrusted() throws Exception {
        start(true, customizer -> customizer.addTrustedProxy("192.0.2.0/25"));
        assertEquals("http://localhost:-1 secure=false/false remote=198.51.100.1:0 proxied",
                seen("PROXY TCP4 192.0.2.100 192.0.2.80 5000 80\r\n", "X-Forwarded-For: 198.51.100.1"));
        assertEquals("http://localhost:-1 secure=false/false remote=192.0.2.200:5000 proxied",
                seen("PROXY TCP4 192.0.2.200 192.0.2.80 5000 80\r\n", "X-Forwarded-For: 198.51.100.1"));
        assertEquals("http://localhost:-1 secure=false/false remote=2001:db8:0:0:0:0:0:1:5000 proxied",
                seen("PROXY TCP6 2001:db8::1 2001:db8::2 5000 80\r\n", "X-Forwarded-For: 198.51.100.1"), "IPv4 blocks never match IPv6");
    }

    @Test
    void clearingTheTrustedProxiesDistrustsLoopback() throws Exception {
        start(true, ForwardedRequestCustomizer::clearTrustedProxies);
        assertEquals("http://localhost:-1 secure=false/false remote=127.0.0.1:5000 proxied",
                seen("PROXY TCP4 127.0.0.1 127.0.0.1 5000 80\r\n", "X-Forwarded-For: 198.51.100.1"));
    }

    @Test
    void trustingAllProxiesAppliesAnyPeersHeaders() throws Exception {
        start(true, customizer -> customizer.setTrustAllProxies(true));
        assertEquals("http://localhost:-1 secure=false/false remote=198.51.100.1:0 proxied",
                seen("PROXY TCP4 203.0.113.5 192.0.2.80 5000 80\r\n", "X-Forwarded-For: 198.51.100.1"));
    }

    @Test
    void refusesABadTrustedProxy() {
        ForwardedRequestCustomizer customizer = new ForwardedRequestCustomizer();
        for (String bad : new String[] {"localhost", "10.0.0.0/33", "::1/129", "10.0.0.0/", "10.0.0.0/x", "010.0.0.1"}) {
            assertThrows(IllegalArgumentException.class, () -> customizer.addTrustedProxy(bad), bad);
        }
        customizer.addTrustedProxy("[fd00::]/8");
    }
}
