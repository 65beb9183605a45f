package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;

import io.wharf.io.Connection;
import io.wharf.util.InvocationType;
import io.wharf.util.Promise;

import org.junit.jupiter.api.Test;

/** {@link Proxy}: exclusion patterns, credentials rules, equality and its printed form. */
class ProxyTest {

    private static Origin origin(String uri) {
        return Origin.of(URI.create(uri), null);
    }

    @Test
    void withoutExclusionsItAppliesToEveryOrigin() {
        Proxy proxy = Proxy.http("proxy.example", 3128);
        assertTrue(proxy.appliesTo(origin("http://example.com/")));
        assertTrue(proxy.appliesTo(origin("https://127.0.0.1:8443/")));
    }

    @Test
    void exclusionsMatchHostsByGlobIgnoringCase() {
        Proxy proxy = Proxy.http("proxy.example", 3128).excluding("localhost", "*.Internal", "10.*");
        assertFalse(proxy.appliesTo(origin("http://localhost:8080/")));
        assertFalse(proxy.appliesTo(origin("https://db.eu.internal/")));
        assertFalse(proxy.appliesTo(origin("http://10.1.2.3/")));
        assertTrue(proxy.appliesTo(origin("http://internal/")), "*.internal needs a dot before");
        assertTrue(proxy.appliesTo(origin("http://localhost.example/")));
        assertTrue(proxy.appliesTo(origin("http://110.1.2.3/")));
        assertEquals(List.of("localhost", "*.internal", "10.*"), proxy.getExclusions());
    }

    @Test
    void anExclusionWithAPortMatchesOnlyThatPort() {
        Proxy proxy = Proxy.socks5("127.0.0.1", 1080).excluding("example.com:8080", "[::1]:443", "[::1]");
        assertFalse(proxy.appliesTo(origin("http://example.com:8080/")));
        assertTrue(proxy.appliesTo(origin("http://example.com/")));
        assertFalse(proxy.appliesTo(origin("https://[::1]/")));
        assertFalse(proxy.appliesTo(origin("http://[::1]:9000/")));
    }

    @Test
    void malformedPatternsAreRefused() {
        Proxy proxy = Proxy.http("proxy.example", 3128);
        assertThrows(IllegalArgumentException.class, () -> proxy.excluding(""));
        assertThrows(IllegalArgumentException.class, () -> proxy.excluding("::1"), "IPv6 needs brackets");
        assertThrows(IllegalArgumentException.class, () -> proxy.excluding("host:99999"));
        assertThrows(IllegalArgumentException.class, () -> Proxy.http("", 80));
        assertThrows(IllegalArgumentException.class, () -> Proxy.http("proxy", 0));
    }

    @Test
    void credentialsFollowEachProtocolsRules() {
        assertThrows(IllegalArgumentException.class, () -> Proxy.http("p", 1).withCredentials("a:b", "c"),
                "Basic cannot carry a colon in the user name");
        assertThrows(IllegalArgumentException.class, () -> Proxy.socks5("p", 1).withCredentials("", "c"));
        assertThrows(IllegalArgumentException.class, () -> Proxy.socks5("p", 1).withCredentials("a", "x".repeat(256)));
        Proxy socks = Proxy.socks5("p", 1).withCredentials("ann", "ü".repeat(127));
        assertTrue(socks.hasCredentials());
        assertEquals("ann", socks.getUsername());
    }

    @Test
    void theStringNamesKindUserAndAddressButNeverThePassword() {
        assertEquals("http://127.0.0.1:3128", Proxy.http("127.0.0.1", 3128).toString());
        assertEquals("socks5://ann@[::1]:1080", Proxy.socks5("::1", 1080).withCredentials("ann", "secret").toString());
        assertFalse(Proxy.http("p", 1).withCredentials("ann", "secret").toString().contains("secret"));
    }

    @Test
    void connectTakesOnlyWebSchemesAndAStartedClient() throws Exception {
        HttpClient client = new HttpClient();
        Origin plain = new Origin("ws", "localhost", 8080, null);
        Promise<Connection> ignored = Promise.from(InvocationType.NON_BLOCKING, connection -> { }, failure -> { });
        IllegalArgumentException ftp = assertThrows(IllegalArgumentException.class,
                () -> client.connect(new Origin("ftp", "localhost", 21, null), List.of(), endPoint -> null, ignored));
        assertTrue(ftp.getMessage().contains("ftp://localhost:21"), ftp.getMessage());
        IllegalStateException stopped = assertThrows(IllegalStateException.class,
                () -> client.connect(plain, List.of(), endPoint -> null, ignored));
        assertTrue(stopped.getMessage().contains("not started"), stopped.getMessage());
    }

    @Test
    void equalProxiesShareDestinations() {
        Proxy a = Proxy.http("p", 1).withCredentials("ann", "secret").excluding("localhost");
        Proxy b = Proxy.http("p", 1).withCredentials("ann", "secret").excluding("LOCALHOST");
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, Proxy.http("p", 1).withCredentials("ann", "other").excluding("localhost"));
        assertNotEquals(Proxy.http("p", 1), Proxy.socks5("p", 1));
    }
}
