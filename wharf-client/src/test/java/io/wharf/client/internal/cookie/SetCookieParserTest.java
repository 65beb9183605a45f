package io.wharf.client.internal.cookie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpCookie;
import java.net.URI;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

/** Set-Cookie as a user agent reads it (RFC 6265 section 5.2), and the cookie dates of section 5.1.1. */
class SetCookieParserTest {

    private static final URI PAGE = URI.create("http://www.example.com/shop/cart/view");
    private static final URI SECURE_PAGE = URI.create("https://www.example.com/shop/cart/view");
    private static final long NOW = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();

    private static HttpCookie parse(String header) {
        return SetCookieParser.parse(header, PAGE, NOW);
    }

    @Test
    void nameValueAndAttributes() {
        HttpCookie cookie = parse(" sid = abc123 ; Path=/shop; Domain=.Example.COM; HttpOnly; SameSite=Strict; Max-Age=60");
        assertEquals("sid", cookie.getName());
        assertEquals("abc123", cookie.getValue());
        assertEquals("/shop", cookie.getPath());
        assertEquals("example.com", cookie.getDomain());
        assertTrue(cookie.isHttpOnly());
        assertFalse(cookie.getSecure());
        assertEquals(60, cookie.getMaxAge());
        assertEquals(0, cookie.getVersion());
    }

    @Test
    void defaultsAreHostOnlyTheRequestsDirectoryAndTheSession() {
        HttpCookie cookie = parse("a=1");
        assertNull(cookie.getDomain(), "host-only");
        assertEquals("/shop/cart", cookie.getPath());
        assertEquals(-1, cookie.getMaxAge());
        assertEquals("/shop/cart", parse("a=1; Path=relative").getPath(), "a path not starting with / is the default");
        assertEquals("/", SetCookieParser.parse("a=1", URI.create("http://h/top"), NOW).getPath());
        assertNull(parse("a=1; Domain=www.example.com").getDomain(), "the host itself is host-only");
    }

    @Test
    void valuesMayBeEmptyOrQuotedAndTheLastAttributeWins() {
        assertEquals("", parse("a=").getValue());
        assertEquals("\"quoted value\"", parse("a=\"quoted value\"").getValue());
        assertEquals("x=y", parse("a=x=y").getValue());
        assertEquals("/two", parse("a=1; Path=/one; Path=/two").getPath());
    }

    @Test
    void maxAgeWinsOverExpiresWhereverItStands() {
        assertEquals(100, parse("a=1; Max-Age=100; Expires=Wed, 01 Jan 2025 01:00:00 GMT").getMaxAge());
        assertEquals(100, parse("a=1; Expires=Wed, 01 Jan 2025 01:00:00 GMT; Max-Age=100").getMaxAge());
        assertEquals(3600, parse("a=1; Expires=Wed, 01 Jan 2025 01:00:00 GMT").getMaxAge());
        assertEquals(0, parse("a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT").getMaxAge(), "expired: delete");
        assertEquals(0, parse("a=1; Max-Age=0").getMaxAge());
        assertEquals(0, parse("a=1; Max-Age=-5").getMaxAge(), "a negative max-age expires at once");
        assertEquals(-1, parse("a=1; Max-Age=1e3").getMaxAge(), "not a number: ignored");
        assertEquals(-1, parse("a=1; Expires=tomorrow").getMaxAge(), "not a date: ignored");
        assertEquals(Long.MAX_VALUE, parse("a=1; Max-Age=99999999999999999999999").getMaxAge());
    }

    @Test
    void cookieDatesAreReadLeniently() {
        long expected = Instant.parse("2015-10-21T07:28:00Z").toEpochMilli();
        assertEquals(expected, CookieDate.parse("Wed, 21 Oct 2015 07:28:00 GMT"));
        assertEquals(expected, CookieDate.parse("Wednesday, 21-Oct-15 07:28:00 GMT"));
        assertEquals(expected, CookieDate.parse("Wed Oct 21 07:28:00 2015"));
        assertEquals(expected, CookieDate.parse("21 october 2015 7:28:0"));
        assertEquals(Instant.parse("1999-10-21T07:28:00Z").toEpochMilli(), CookieDate.parse("21-Oct-99 07:28:00"));
        assertEquals(Long.MIN_VALUE, CookieDate.parse("30 Feb 2015 07:28:00"), "no such day");
        assertEquals(Long.MIN_VALUE, CookieDate.parse("21 Oct 1600 07:28:00"), "before 1601");
        assertEquals(Long.MIN_VALUE, CookieDate.parse("21 Oct 2015 24:00:00"));
        assertEquals(Long.MIN_VALUE, CookieDate.parse("21 Oct 2015"), "no time");
        assertEquals(Long.MIN_VALUE, CookieDate.parse(""));
    }

    @Test
    void domainsTheHostDoesNotMatchOrPublicSuffixesAreRefused() {
        assertNull(parse("a=1; Domain=other.com"));
        assertNull(parse("a=1; Domain=ample.com"), "not on a label boundary");
        assertNull(parse("a=1; Domain=com"), "one label stands for a public suffix");
        assertNull(parse("a=1; Domain=shop.www.example.com"), "a name under the host is not the host's");
        assertNull(SetCookieParser.parse("a=1; Domain=0.0.1", URI.create("http://127.0.0.1/"), NOW));
        assertNull(SetCookieParser.parse("a=1; Domain=127.0.0.1", URI.create("http://127.0.0.1/"), NOW).getDomain(),
                "an IP address sets host-only cookies");
        assertEquals("a", SetCookieParser.parse("a=1", URI.create("http://localhost/"), NOW).getName());
        assertNull(SetCookieParser.parse("a=1; Domain=localhost", URI.create("http://localhost/"), NOW).getDomain());
    }

    @Test
    void secureCookiesComeOnlyFromSecureOrigins() {
        assertNull(parse("a=1; Secure"));
        assertTrue(SetCookieParser.parse("a=1; Secure", SECURE_PAGE, NOW).getSecure());
    }

    @Test
    void malformedOrHostileHeadersAreDropped() {
        assertNull(parse("no-equals-sign"));
        assertNull(parse("=value"));
        assertNull(parse(""));
        assertNull(parse("a=1\u0000; Path=/"), "a control character");
        assertNull(parse("a=\r\nInjected: yes"));
        assertNull(parse("a=" + "x".repeat(5000)), "name and value over 4096 bytes");
        assertEquals("/x", parse("path=/x").getValue(), "an attribute's name is a cookie name like any other");
        assertNull(parse("$Version=1"));
        assertNull(parse("a b=1"), "a space in the name");
        assertEquals("/shop/cart", parse("a=1; Path=/" + "p".repeat(2000)).getPath(), "an attribute over 1024 bytes is ignored");
        assertEquals("1", parse("a=1;;; ;=;Path").getValue());
        assertEquals("1", parse("a=1\t").getValue());
    }

    @Test
    void randomBytesNeverThrow() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String alphabet = "a=;, \t\"\\/.-:0123456789DomainPathExpiresMax-AgeSecure\u0000\u007f\u00e9\r\n";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder header = new StringBuilder();
            int length = random.nextInt(60);
            for (int j = 0; j < length; j++) {
                header.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            HttpCookie cookie = SetCookieParser.parse(header.toString(), PAGE, NOW);
            if (cookie != null) {
                assertFalse(cookie.getName().isEmpty());
                assertTrue(cookie.getPath().startsWith("/"));
            }
            CookieDate.parse(header.toString());
        }
    }
}
