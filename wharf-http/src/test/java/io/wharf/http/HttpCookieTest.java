package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.wharf.http.HttpCookie.SameSite;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class HttpCookieTest {

    private static final Instant NOW = Instant.parse("2026-03-05T08:09:07Z");

    static Stream<Arguments> invalidCookies() {
        return Stream.of(
                row(() -> HttpCookie.build("a b", "x"), "cookie name \"a b\" has an illegal character ' ' (0x20) at index 1"),
                row(() -> HttpCookie.build("", "x"), "cookie name is empty"),
                row(() -> HttpCookie.build(null, "x"), "cookie name is empty"),
                row(() -> HttpCookie.build("a=b", "x"), "cookie name \"a=b\" has an illegal character '=' (0x3d) at index 1"),
                row(() -> HttpCookie.build("a;", "x"), "cookie name \"a;\" has an illegal character ';' (0x3b) at index 1"),
                row(() -> HttpCookie.build("\"id\"", "x"), "cookie name \"\\\"id\\\"\" has an illegal character '\"' (0x22) at index 0"),
                row(() -> HttpCookie.build("a\nb", "x"), "cookie name \"a\\x0ab\" has an illegal character 0x0a at index 1"),
                row(() -> HttpCookie.build("caf\u00e9", "x"), "cookie name \"caf\\xe9\" has an illegal character 0xe9 at index 3"),
                row(() -> HttpCookie.build("id", "abc;d"), "cookie value of \"id\" has an illegal character ';' (0x3b) at index 3"),
                row(() -> HttpCookie.build("id", "a b"), "cookie value of \"id\" has an illegal character ' ' (0x20) at index 1"),
                row(() -> HttpCookie.build("id", "a,b"), "cookie value of \"id\" has an illegal character ',' (0x2c) at index 1"),
                row(() -> HttpCookie.build("id", "a\\b"), "cookie value of \"id\" has an illegal character '\\' (0x5c) at index 1"),
                row(() -> HttpCookie.build("id", "a\"b"), "cookie value of \"id\" has an illegal character '\"' (0x22) at index 1"),
                row(() -> HttpCookie.build("id", "\"abc"), "cookie value of \"id\" has an illegal character '\"' (0x22) at index 0"),
                row(() -> HttpCookie.build("id", "\""), "cookie value of \"id\" has an illegal character '\"' (0x22) at index 0"),
                row(() -> HttpCookie.build("id", "\"a b\""), "cookie value of \"id\" has an illegal character ' ' (0x20) at index 2"),
                row(() -> HttpCookie.build("id", "\"a\"b\""), "cookie value of \"id\" has an illegal character '\"' (0x22) at index 2"),
                row(() -> HttpCookie.build("id", "ab\u0001"), "cookie value of \"id\" has an illegal character 0x01 at index 2"),
                row(() -> HttpCookie.build("id", "\u0100"), "cookie value of \"id\" has an illegal character U+0100 at index 0"),
                row(() -> HttpCookie.build("id", null), "cookie value of \"id\" is null"),
                row(() -> HttpCookie.build("id", "x").path("/a;b"), "cookie path of \"id\" has an illegal character ';' (0x3b) at index 2"),
                row(() -> HttpCookie.build("id", "x").path("/a\r\n"), "cookie path of \"id\" has an illegal character 0x0d at index 2"),
                row(() -> HttpCookie.build("id", "x").domain("ex ample.com"), "cookie domain of \"id\" has an illegal character ' ' (0x20) at index 2"),
                row(() -> HttpCookie.build("id", "x").domain("a.com;b"), "cookie domain of \"id\" has an illegal character ';' (0x3b) at index 5"),
                row(() -> HttpCookie.build("id", "x").domain(""), "cookie domain of \"id\" is empty"),
                row(() -> HttpCookie.build("id", "x").comment("a\u0000"), "cookie comment of \"id\" has an illegal character 0x00 at index 1"),
                row(() -> HttpCookie.build("id", "x").maxAge(-2), "cookie max-age of \"id\" is -2; use 0 to delete the cookie or -1 for none"),
                row(() -> HttpCookie.build("id", "x").version(-1), "cookie version of \"id\" is negative: -1"),
                row(() -> HttpCookie.build("id", "x").expires(Instant.parse("+10000-01-01T00:00:00Z")),
                        "cookie expires of \"id\" is +10000-01-01T00:00:00Z, outside the years 0001 to 9999 an HTTP date can hold"),
                row(() -> HttpCookie.build("id", "x").partitioned(true).build(),
                        "cookie \"id\" is Partitioned but not Secure; browsers drop it: set secure(true)"),
                row(() -> HttpCookie.build("id", "x").attribute("a b", "x"), "cookie attribute name \"a b\" has an illegal character ' ' (0x20) at index 1"),
                row(() -> HttpCookie.build("id", "x").attribute("", "x"), "cookie attribute name is empty"),
                row(() -> HttpCookie.build("id", "x").attribute("Priority", "High;"),
                        "cookie attribute \"Priority\" of \"id\" has an illegal character ';' (0x3b) at index 4"),
                row(() -> HttpCookie.build("id", "x").attribute("Max-Age", "soon"), "cookie attribute Max-Age of \"id\" is not a number: \"soon\""),
                row(() -> HttpCookie.build("id", "x").attribute("version", "99999999999"), "cookie attribute version of \"id\" is too large: 99999999999"),
                row(() -> HttpCookie.build("id", "x").attribute("SameSite", "Sometimes"), "SameSite \"Sometimes\" is not None, Lax or Strict"),
                row(() -> HttpCookie.build("id", "x").attribute("Secure", "yes"), "cookie attribute Secure of \"id\" is a flag, not \"yes\""),
                row(() -> HttpCookie.build("id", "x").attribute("Expires", "tomorrow"), "cookie expires of \"id\" is not an HTTP date: \"tomorrow\""),
                row(() -> HttpCookie.build("id", "x").attribute("Path", "/\u007f"), "cookie path of \"id\" has an illegal character 0x7f at index 1"));
    }

    private static Arguments row(Supplier<Object> build, String message) {
        return Arguments.of(build, message);
    }

    @ParameterizedTest
    @MethodSource("invalidCookies")
    void refusesWhatBreaksTheGrammarNamingTheProblem(Supplier<Object> build, String message) {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, build::get);
        assertEquals(message, thrown.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "\"\"", "\"abc\"", "abc", "!#$%&'()*+-./0123456789:<=>?@AZ[]^_`az{|}~"})
    void acceptsCookieOctetsOptionallyQuoted(String value) {
        HttpCookie cookie = HttpCookie.from("id", value);
        assertEquals("id", cookie.getName());
        assertEquals(value, cookie.getValue());
    }

    @ParameterizedTest
    @ValueSource(strings = {"$Version", "!#$%&'*+-.^_`|~09AZaz"})
    void acceptsAnyTokenAsName(String name) {
        assertEquals(name, HttpCookie.from(name, "x").getName());
    }

    static Stream<Arguments> setCookieValues() {
        return Stream.of(
                Arguments.of(HttpCookie.from("id", "abc"), "id=abc"),
                Arguments.of(HttpCookie.from("id", ""), "id="),
                Arguments.of(HttpCookie.from("id", "\"abc\""), "id=\"abc\""),
                Arguments.of(HttpCookie.build("id", "abc").path("/").domain("example.com").build(),
                        "id=abc; Domain=example.com; Path=/"),
                Arguments.of(HttpCookie.build("id", "abc").maxAge(3600).build(),
                        "id=abc; Expires=Thu, 05 Mar 2026 09:09:07 GMT; Max-Age=3600"),
                Arguments.of(HttpCookie.build("id", "abc").maxAge(0).build(),
                        "id=abc; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0"),
                Arguments.of(HttpCookie.build("id", "abc").maxAge(Long.MAX_VALUE).build(),
                        "id=abc; Expires=Fri, 31 Dec 9999 23:59:59 GMT; Max-Age=9223372036854775807"),
                Arguments.of(HttpCookie.build("id", "abc").expires(Instant.parse("2026-03-05T08:09:07Z")).build(),
                        "id=abc; Expires=Thu, 05 Mar 2026 08:09:07 GMT"),
                Arguments.of(HttpCookie.build("id", "abc").expires(Instant.parse("1994-11-06T08:49:37Z")).maxAge(60).build(),
                        "id=abc; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Max-Age=60"),
                Arguments.of(HttpCookie.build("id", "abc").secure(true).build(), "id=abc; Secure"),
                Arguments.of(HttpCookie.build("id", "abc").httpOnly(true).build(), "id=abc; HttpOnly"),
                Arguments.of(HttpCookie.build("id", "abc").sameSite(SameSite.STRICT).build(), "id=abc; SameSite=Strict"),
                Arguments.of(HttpCookie.build("id", "abc").sameSite(SameSite.LAX).build(), "id=abc; SameSite=Lax"),
                Arguments.of(HttpCookie.build("id", "abc").sameSite(SameSite.NONE).build(), "id=abc; SameSite=None"),
                Arguments.of(HttpCookie.build("id", "abc").sameSite(SameSite.NONE).secure(true).build(), "id=abc; Secure; SameSite=None"),
                Arguments.of(HttpCookie.build("id", "abc").partitioned(true).secure(true).build(), "id=abc; Secure; Partitioned"),
                Arguments.of(HttpCookie.build("id", "abc").comment("for tests only").version(1).build(),
                        "id=abc; Comment=for tests only; Version=1"),
                Arguments.of(HttpCookie.build("id", "abc").attribute("Priority", "High").attribute("Flag", null).build(),
                        "id=abc; Priority=High; Flag"),
                Arguments.of(HttpCookie.build("id", "abc").attribute("Priority", "High").attribute("Flag", null)
                                .attribute("priority", "Low").build(),
                        "id=abc; Flag; priority=Low"),
                Arguments.of(HttpCookie.build("id", "abc").attribute("max-age", "60").attribute("SECURE", null)
                                .attribute("HttpOnly", "true").attribute("samesite", "lax").attribute("Path", "/a")
                                .attribute("Domain", "a.example").attribute("Partitioned", "").attribute("Comment", "c")
                                .attribute("Version", "1").attribute("Expires", "Sun, 6 Nov 1994 08:49:37 GMT").build(),
                        "id=abc; Domain=a.example; Path=/a; Expires=Sun, 06 Nov 1994 08:49:37 GMT; Max-Age=60; Secure; HttpOnly;"
                                + " SameSite=Lax; Partitioned; Comment=c; Version=1"),
                Arguments.of(HttpCookie.build("id", "abc").secure(true).secure(false).httpOnly(true).attribute("HttpOnly", "false").build(),
                        "id=abc"),
                Arguments.of(HttpCookie.build("SID", "31d4d96e407aad42").attribute("X-Ext", "a b").sameSite(SameSite.LAX).partitioned(true)
                                .secure(true).httpOnly(true).maxAge(86400).path("/app").domain("example.com").build(),
                        "SID=31d4d96e407aad42; Domain=example.com; Path=/app; Expires=Fri, 06 Mar 2026 08:09:07 GMT; Max-Age=86400;"
                                + " Secure; HttpOnly; SameSite=Lax; Partitioned; X-Ext=a b"));
    }

    @ParameterizedTest
    @MethodSource("setCookieValues")
    void writesSetCookieValuesInAStableOrder(HttpCookie cookie, String expected) {
        assertEquals(expected, cookie.asSetCookieValue(NOW));
    }

    @Test
    void setCookieFieldCarriesTheValueUnderTheKnownHeader() {
        HttpField field = HttpCookie.build("id", "abc").path("/").httpOnly(true).build().asSetCookieField();
        assertSame(HttpHeader.SET_COOKIE, field.getHeader());
        assertEquals("Set-Cookie", field.getName());
        assertEquals("id=abc; Path=/; HttpOnly", field.getValue());
    }

    @Test
    void expiresIsDerivedFromMaxAgeAndTheCurrentTime() {
        Instant before = Instant.now();
        String value = HttpCookie.build("id", "abc").maxAge(60).build().asSetCookieValue();
        Instant after = Instant.now();
        String expires = value.substring(value.indexOf("Expires=") + 8, value.indexOf("; Max-Age"));
        Instant written = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.parse(expires, Instant::from);
        assertFalse(written.isBefore(before.plusSeconds(59)), value);
        assertFalse(written.isAfter(after.plusSeconds(60)), value);
    }

    @Test
    void gettersReturnWhatWasBuiltAndDefaultsWhenNothingWas() {
        HttpCookie plain = HttpCookie.from("id", "abc");
        assertNull(plain.getDomain());
        assertNull(plain.getPath());
        assertEquals(-1, plain.getMaxAge());
        assertNull(plain.getExpires());
        assertFalse(plain.isSecure());
        assertFalse(plain.isHttpOnly());
        assertNull(plain.getSameSite());
        assertFalse(plain.isPartitioned());
        assertEquals(0, plain.getVersion());
        assertNull(plain.getComment());
        assertEquals(Map.of(), plain.getAttributes());

        Instant expires = Instant.parse("2030-01-01T00:00:00Z");
        HttpCookie full = HttpCookie.build("id", "abc").domain("example.com").path("/p").maxAge(5).expires(expires)
                .secure(true).httpOnly(true).sameSite(SameSite.STRICT).partitioned(true).version(1).comment("c")
                .attribute("Priority", "High").build();
        assertEquals("example.com", full.getDomain());
        assertEquals("/p", full.getPath());
        assertEquals(5, full.getMaxAge());
        assertEquals(expires, full.getExpires());
        assertTrue(full.isSecure());
        assertTrue(full.isHttpOnly());
        assertEquals(SameSite.STRICT, full.getSameSite());
        assertTrue(full.isPartitioned());
        assertEquals(1, full.getVersion());
        assertEquals("c", full.getComment());
        assertEquals(Map.of("Priority", "High"), full.getAttributes());
        assertThrows(UnsupportedOperationException.class, () -> full.getAttributes().put("a", "b"));

        HttpCookie copy = HttpCookie.build(full).path("/q").build();
        assertEquals(full.asSetCookieValue(NOW).replace("Path=/p", "Path=/q"), copy.asSetCookieValue(NOW));
        assertEquals("/p", full.getPath());
    }

    @Test
    void identityIsNameDomainInAnyCaseAndPath() {
        HttpCookie cookie = HttpCookie.build("id", "one").domain("Example.COM").path("/a").build();
        HttpCookie sameCookieOtherValue = HttpCookie.build("id", "two").domain("example.com").path("/a").secure(true).build();
        assertEquals(cookie, sameCookieOtherValue);
        assertEquals(cookie.hashCode(), sameCookieOtherValue.hashCode());
        assertNotEquals(cookie, HttpCookie.build("ID", "one").domain("example.com").path("/a").build());
        assertNotEquals(cookie, HttpCookie.build("id", "one").domain("example.com").path("/A").build());
        assertNotEquals(cookie, HttpCookie.build("id", "one").path("/a").build());
        assertNotEquals(cookie, HttpCookie.build("id", "one").domain("example.com").build());
        assertEquals(HttpCookie.from("id", "x"), HttpCookie.from("id", "y"));
        assertNotEquals(HttpCookie.from("id", "x"), "id=x");
    }

    @ParameterizedTest
    @ValueSource(strings = {"id=1; Domain=example.com; Path=/a", " id = 1 ;path=/a;DOMAIN=.EXAMPLE.com", "id=; Path=/b; Path=/a; Domain=example.com",
        "id=1; Domain=example.com; Domain=; Path=/a; Secure"})
    void aSetCookieValueSetsTheSameCookieWhenNameDomainAndPathAgree(String setCookie) {
        HttpCookie cookie = HttpCookie.build("id", "x").domain("example.com").path("/a").build();
        assertTrue(cookie.isSameCookieAs(setCookie), setCookie);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ID=1; Domain=example.com; Path=/a", "id=1; Path=/a", "id=1; Domain=example.org; Path=/a",
        "id=1; Domain=example.com; Path=/a/b", "id=1; Domain=example.com", "id; Domain=example.com; Path=/a", ""})
    void aSetCookieValueOfAnotherCookieIsNotTheSame(String setCookie) {
        HttpCookie cookie = HttpCookie.build("id", "x").domain("example.com").path("/a").build();
        assertFalse(cookie.isSameCookieAs(setCookie), setCookie);
    }

    @Test
    void aPathThatIsNoPathCountsAsNone() {
        assertTrue(HttpCookie.from("id", "x").isSameCookieAs("id=1; Path=relative"));
    }

    /** A cookie read in a legacy mode may hold what no Set-Cookie may carry: writing it is refused, naming the problem. */
    @Test
    void aParsedCookieIsCheckedBeforeItIsWrittenAsSetCookie() {
        CookieParser legacy = new CookieParser(CookieCompliance.RFC6265_LEGACY, ComplianceViolation.Listener.NONE, 10);
        HttpCookie spaced = legacy.parse(java.util.List.of("greeting=hello world")).get(0);
        assertEquals("hello world", spaced.getValue());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> spaced.asSetCookieValue(NOW));
        assertEquals("cookie value of \"greeting\" has an illegal character ' ' (0x20) at index 5", refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HttpCookie.build(spaced).path("/").build().asSetCookieValue(NOW));
        assertEquals("HttpCookie[greeting=hello world]", spaced.toString());
        HttpCookie plain = new CookieParser().parse(java.util.List.of("id=abc")).get(0);
        assertEquals("id=abc", plain.asSetCookieValue(NOW));
    }

    @Test
    void toStringShowsTheCookieWithoutADerivedExpiry() {
        HttpCookie cookie = HttpCookie.build("id", "abc").path("/").maxAge(60).secure(true).build();
        assertEquals("HttpCookie[id=abc; Path=/; Max-Age=60; Secure]", cookie.toString());
    }

    @Test
    void sameSiteReadsItsAttributeSpellingInAnyCase() {
        assertEquals(SameSite.NONE, SameSite.from("none"));
        assertEquals(SameSite.LAX, SameSite.from("LAX"));
        assertEquals(SameSite.STRICT, SameSite.from("Strict"));
        assertEquals("None", SameSite.NONE.attributeValue());
        assertEquals("SameSite null is not None, Lax or Strict",
                assertThrows(IllegalArgumentException.class, () -> SameSite.from(null)).getMessage());
    }
}
