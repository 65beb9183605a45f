package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpCookie;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/** The store's RFC 6265 rules: domains and host-only cookies, paths, secure, expiry, order and bounds. */
class MemoryCookieStoreTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2025-01-01T00:00:00Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private final MemoryCookieStore store = new MemoryCookieStore(clock, 100, 5);

    private static HttpCookie cookie(String name, String value, String domain, String path) {
        HttpCookie cookie = new HttpCookie(name, value);
        cookie.setVersion(0);
        cookie.setDomain(domain);
        cookie.setPath(path);
        return cookie;
    }

    private List<String> names(String uri) {
        return store.get(URI.create(uri)).stream().map(c -> c.getName() + "=" + c.getValue()).toList();
    }

    @Test
    void hostOnlyCookiesGoBackToTheirHostOnly() {
        store.add(URI.create("http://www.example.com/"), cookie("a", "1", null, "/"));
        assertEquals(List.of("a=1"), names("http://www.example.com/x"));
        assertEquals(List.of("a=1"), names("http://WWW.Example.com:8080/x"), "ports do not separate cookies");
        assertEquals(List.of(), names("http://shop.www.example.com/"));
        assertEquals(List.of(), names("http://example.com/"));
    }

    @Test
    void domainCookiesGoToTheDomainAndTheNamesUnderIt() {
        store.add(URI.create("http://www.example.com/"), cookie("d", "1", ".example.com", "/"));
        assertEquals(List.of("d=1"), names("http://example.com/"));
        assertEquals(List.of("d=1"), names("http://a.b.example.com/"));
        assertEquals(List.of(), names("http://badexample.com/"));
        store.add(URI.create("http://www.example.com/"), cookie("x", "1", "other.org", "/"));
        store.add(URI.create("http://www.example.com/"), cookie("y", "1", "com", "/"));
        assertEquals(1, store.getCookies().size(), "foreign domains and public suffixes are refused");
    }

    @Test
    void pathsMatchOnSegmentBoundariesAndLongerPathsComeFirst() {
        URI uri = URI.create("http://h.example/");
        store.add(uri, cookie("root", "1", null, "/"));
        store.add(uri, cookie("docs", "2", null, "/docs"));
        store.add(uri, cookie("deep", "3", null, "/docs/api/"));
        assertEquals(List.of("deep=3", "docs=2", "root=1"), names("http://h.example/docs/api/x"));
        assertEquals(List.of("docs=2", "root=1"), names("http://h.example/docs"));
        assertEquals(List.of("root=1"), names("http://h.example/docsx"));
        assertEquals(List.of("docs=2", "root=1"), names("http://h.example/docs/api"));
        store.add(URI.create("http://h.example/a/b/page"), cookie("dflt", "4", null, null));
        assertEquals(List.of("dflt=4", "root=1"), names("http://h.example/a/b/other"), "the default path is the request's directory");
    }

    @Test
    void secureCookiesTravelOverHttpsOnlyAndPlainHttpCannotReplaceThem() {
        HttpCookie secure = cookie("s", "1", null, "/");
        secure.setSecure(true);
        store.add(URI.create("http://h.example/"), secure);
        assertTrue(store.getCookies().isEmpty(), "set over http: refused");
        store.add(URI.create("https://h.example/"), secure);
        assertEquals(List.of(), names("http://h.example/"));
        assertEquals(List.of("s=1"), names("https://h.example/"));
        store.add(URI.create("http://h.example/"), cookie("s", "evil", null, "/"));
        assertEquals(List.of("s=1"), names("https://h.example/"));
    }

    @Test
    void maxAgeExpiresAndZeroDeletes() {
        URI uri = URI.create("http://h.example/");
        HttpCookie shortLived = cookie("t", "1", null, "/");
        shortLived.setMaxAge(10);
        store.add(uri, shortLived);
        store.add(uri, cookie("session", "1", null, "/"));
        assertEquals(List.of("t=1", "session=1"), names("http://h.example/"));
        now.set(now.get().plus(Duration.ofSeconds(11)));
        assertEquals(List.of("session=1"), names("http://h.example/"));
        HttpCookie delete = cookie("session", "", null, "/");
        delete.setMaxAge(0);
        store.add(uri, delete);
        assertTrue(store.getCookies().isEmpty());
    }

    @Test
    void aReplacementKeepsItsPlaceAndBoundsDropTheOldest() {
        URI uri = URI.create("http://h.example/");
        store.add(uri, cookie("a", "1", null, "/"));
        store.add(uri, cookie("b", "1", null, "/"));
        store.add(uri, cookie("a", "2", null, "/"));
        assertEquals(List.of("a=2", "b=1"), names("http://h.example/"), "same path: older first, a kept its age");
        for (int i = 0; i < 10; i++) {
            store.add(uri, cookie("c" + i, "x", null, "/"));
        }
        assertEquals(List.of("c5=x", "c6=x", "c7=x", "c8=x", "c9=x"), names("http://h.example/"), "5 per host");
        store.add(URI.create("http://other.example/"), cookie("o", "1", null, "/"));
        assertEquals(6, store.getCookies().size());
    }

    @Test
    void removeAndRemoveAll() {
        URI uri = URI.create("http://h.example/");
        store.add(uri, cookie("a", "1", null, "/"));
        store.add(uri, cookie("b", "1", null, "/"));
        assertEquals(List.of(URI.create("http://h.example/")), store.getURIs());
        assertTrue(store.remove(uri, cookie("a", "", null, null)));
        assertFalse(store.remove(uri, cookie("a", "", null, null)));
        assertEquals(List.of("b=1"), names("http://h.example/"));
        assertTrue(store.removeAll());
        assertFalse(store.removeAll());
    }

    @Test
    void cookiesHandedOutAreCopies() {
        URI uri = URI.create("http://h.example/");
        HttpCookie mine = cookie("a", "1", null, "/");
        store.add(uri, mine);
        mine.setValue("changed");
        store.get(uri).get(0).setValue("changed too");
        assertEquals(List.of("a=1"), names("http://h.example/"));
    }
}
