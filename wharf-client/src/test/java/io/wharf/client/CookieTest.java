package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.CookieManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.wharf.http.HttpCookie;
import io.wharf.http.HttpHeader;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cookie round trips against Wharf's server, which reads the Cookie field with wharf-http's
 * strict RFC 6265 {@link io.wharf.http.CookieParser}. The client talks over a Unix domain
 * socket, so that any host name reaches the one server: domains and host-only cookies are
 * tried with real names.
 */
@Timeout(30)
class CookieTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @TempDir
    Path directory;

    /** Path to the Set-Cookie values the server answers it with. */
    private final Map<String, List<String>> setCookies = new ConcurrentHashMap<>();
    private HttpClient client;

    /** Answers "host path|name=value,..." with the cookies the server parsed, plus the routed Set-Cookie fields. */
    private void start(java.util.function.Consumer<HttpClient> setup) throws Exception {
        Path socket = directory.resolve("cookies.sock");
        loopback.unixServer(Handler.of((request, response, callback) -> {
            String path = request.getHttpURI().getPath();
            for (String value : setCookies.getOrDefault(path, List.of())) {
                response.getHeaders().add(HttpHeader.SET_COOKIE, value);
            }
            String cookies = Request.getCookies(request).stream()
                    .map(cookie -> cookie.getName() + "=" + cookie.getValue())
                    .collect(Collectors.joining(","));
            Response.write(response, true, request.getHeaders().get("Host") + " " + path + "|" + cookies, callback);
            return true;
        }), socket);
        client = loopback.client(configured -> {
            configured.setUnixDomainPath(socket);
            setup.accept(configured);
        });
    }

    private String get(String uri) throws Exception {
        return client.GET(uri).getContentAsString();
    }

    @Test
    void pathsDecideWhereCookiesGoLongestFirst() throws Exception {
        start(client -> {
        });
        setCookies.put("/a/set", List.of("dir=1", "root=2; Path=/", "deep=3; Path=/a/b",
                HttpCookie.build("built", "4").path("/").httpOnly(true).maxAge(3600).build().asSetCookieValue()));
        assertEquals("www.example.com /a/set|", get("http://www.example.com/a/set"));
        assertEquals("www.example.com /a/x|dir=1,root=2,built=4", get("http://www.example.com/a/x"));
        assertEquals("www.example.com /a/b/c|deep=3,dir=1,root=2,built=4", get("http://www.example.com/a/b/c"));
        assertEquals("www.example.com /b|root=2,built=4", get("http://www.example.com/b"));
        assertEquals("www.example.com /ab|root=2,built=4", get("http://www.example.com/ab"));
    }

    @Test
    void domainCookiesReachTheDomainHostOnlyCookiesTheirHost() throws Exception {
        start(client -> {
        });
        setCookies.put("/set", List.of("wide=1; Domain=example.com", "narrow=2", "foreign=3; Domain=other.org",
                "suffix=4; Domain=com", "dotted=5; Domain=.EXAMPLE.com"));
        get("http://www.example.com/set");
        assertEquals("www.example.com /|wide=1,narrow=2,dotted=5", get("http://www.example.com/"));
        assertEquals("shop.example.com /|wide=1,dotted=5", get("http://shop.example.com/"));
        assertEquals("example.com /|wide=1,dotted=5", get("http://example.com/"));
        assertEquals("other.org /|", get("http://other.org/"));
        assertEquals("com /|", get("http://com/"));
    }

    @Test
    void cookiesExpireAndAreDeleted() throws Exception {
        start(client -> {
        });
        setCookies.put("/set", List.of("kept=1; Max-Age=3600", "gone=1", "old=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT"));
        setCookies.put("/delete", List.of("gone=; Max-Age=0"));
        get("http://h.example/set");
        assertEquals("h.example /|kept=1,gone=1", get("http://h.example/"));
        get("http://h.example/delete");
        assertEquals("h.example /|kept=1", get("http://h.example/"));
    }

    @Test
    void secureCookiesAreNotTakenFromPlainHttp() throws Exception {
        start(client -> {
        });
        setCookies.put("/set", List.of("secret=1; Secure", "plain=1"));
        get("http://h.example/set");
        assertEquals("h.example /|plain=1", get("http://h.example/"));
        assertEquals(1, client.getCookieStore().getCookies().size());
    }

    @Test
    void theApplicationsOwnCookiesComeFirstInOneField() throws Exception {
        start(client -> {
        });
        setCookies.put("/set", List.of("stored=1"));
        get("http://h.example/set");
        ContentResponse response = client.newRequest("http://h.example/").header("Cookie", "mine=0").send();
        assertEquals("h.example /|mine=0,stored=1", response.getContentAsString());
    }

    @Test
    void hostileSetCookieValuesAreDroppedAndTheExchangeGoesOn() throws Exception {
        start(client -> {
        });
        setCookies.put("/set", List.of("no-equals-sign", "=novalue", "big=" + "x".repeat(4100), "sp ace=1",
                "$dollar=1", "dots=1; Domain=..",
                "a=1; Domain=; Path=;; Max-Age=-0x10; Expires=32 Foo 99999 99:99:99", "ok=1"));
        assertEquals("h.example /set|", get("http://h.example/set"));
        assertEquals("h.example /|a=1,ok=1", get("http://h.example/"));
    }

    @Test
    void cookiesOffSendAndKeepNothing() throws Exception {
        start(client -> client.setCookieStore(null));
        setCookies.put("/set", List.of("a=1"));
        get("http://h.example/set");
        assertEquals("h.example /|", get("http://h.example/"));
    }

    @Test
    void anotherStoreMayBeSet() throws Exception {
        java.net.CookieStore jdkStore = new CookieManager().getCookieStore();
        start(client -> client.setCookieStore(jdkStore));
        setCookies.put("/set", List.of("a=1; Path=/"));
        get("http://h.example/set");
        assertEquals("h.example /|a=1", get("http://h.example/"));
        assertEquals(1, jdkStore.getCookies().size());
    }
}
