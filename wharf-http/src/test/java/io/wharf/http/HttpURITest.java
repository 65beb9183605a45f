package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;

import io.wharf.http.UriCompliance.Violation;
import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class HttpURITest {

    /** What one parsed target must look like, component by component. */
    record Expected(String target, String scheme, String user, String host, int port, String path, String param,
                    String query, String fragment, String decodedPath, String canonicalPath, String pathQuery,
                    String asString, Set<Violation> violations) {
        @Override
        public String toString() {
            return target;
        }
    }

    private static Expected row(String target, String scheme, String user, String host, int port, String path,
                                String param, String query, String fragment, String decodedPath, String canonicalPath,
                                String pathQuery, String asString, Violation... violations) {
        Set<Violation> set = EnumSet.noneOf(Violation.class);
        set.addAll(Set.of(violations));
        return new Expected(target, scheme, user, host, port, path, param, query, fragment, decodedPath,
                canonicalPath, pathQuery, asString, set);
    }

    static Stream<Expected> wellFormed() {
        return Stream.of(
                row("/", null, null, null, -1, "/", null, null, null, "/", "/", "/", "/"),
                row("/a/b?q=1", null, null, null, -1, "/a/b", null, "q=1", null, "/a/b", "/a/b", "/a/b?q=1", "/a/b?q=1"),
                row("/?", null, null, null, -1, "/", null, "", null, "/", "/", "/?", "/?"),
                row("/a?x=1?y=2", null, null, null, -1, "/a", null, "x=1?y=2", null, "/a", "/a", "/a?x=1?y=2",
                        "/a?x=1?y=2"),
                row("/caf%C3%A9?x=%20", null, null, null, -1, "/caf%C3%A9", null, "x=%20", null, "/café",
                        "/caf%C3%A9", "/caf%C3%A9?x=%20", "/caf%C3%A9?x=%20"),
                row("/x%20y/z+w", null, null, null, -1, "/x%20y/z+w", null, null, null, "/x y/z+w", "/x%20y/z+w",
                        "/x%20y/z+w", "/x%20y/z+w"),
                row("/a/./b/../c/", null, null, null, -1, "/a/./b/../c/", null, null, null, "/a/c/", "/a/c/",
                        "/a/./b/../c/", "/a/./b/../c/"),
                row("/a/b/..", null, null, null, -1, "/a/b/..", null, null, null, "/a/", "/a/", "/a/b/..", "/a/b/.."),
                row("/index.html", null, null, null, -1, "/index.html", null, null, null, "/index.html",
                        "/index.html", "/index.html", "/index.html"),
                row("/p;jsessionid=1/x;y=2", null, null, null, -1, "/p;jsessionid=1/x;y=2", "y=2", null, null,
                        "/p/x", "/p/x", "/p;jsessionid=1/x;y=2", "/p;jsessionid=1/x;y=2",
                        Violation.AMBIGUOUS_PATH_PARAMETER),
                row("/a/b#frag", null, null, null, -1, "/a/b", null, null, "frag", "/a/b", "/a/b", "/a/b",
                        "/a/b#frag", Violation.FRAGMENT),
                row("*", null, null, null, -1, "*", null, null, null, "*", "*", "*", "*"),
                row("http://example.com/", "http", null, "example.com", -1, "/", null, null, null, "/", "/", "/",
                        "http://example.com/"),
                row("http://example.com:80/", "http", null, "example.com", 80, "/", null, null, null, "/", "/", "/",
                        "http://example.com:80/"),
                row("HTTPS://Example.com:443/index.html?a=b&c=d", "https", null, "Example.com", 443, "/index.html",
                        null, "a=b&c=d", null, "/index.html", "/index.html", "/index.html?a=b&c=d",
                        "https://Example.com:443/index.html?a=b&c=d"),
                row("http://host", "http", null, "host", -1, "", null, null, null, "/", "/", "/", "http://host"),
                row("http://host?q", "http", null, "host", -1, "", null, "q", null, "/", "/", "/?q", "http://host?q"),
                row("http://user@host:8080/p;x?q#f", "http", "user", "host", 8080, "/p;x", "x", "q", "f", "/p",
                        "/p", "/p;x?q", "http://user@host:8080/p;x?q#f",
                        Violation.AMBIGUOUS_PATH_PARAMETER, Violation.USER_INFO, Violation.FRAGMENT),
                row("https://[::1]:8443/x%20y", "https", null, "[::1]", 8443, "/x%20y", null, null, null, "/x y",
                        "/x%20y", "/x%20y", "https://[::1]:8443/x%20y"),
                row("ws://[2001:db8::1]/chat?room=1", "ws", null, "[2001:db8::1]", -1, "/chat", null, "room=1",
                        null, "/chat", "/chat", "/chat?room=1", "ws://[2001:db8::1]/chat?room=1"),
                row("http://127.0.0.1:8080/a/%2E%2E/b", "http", null, "127.0.0.1", 8080, "/a/%2E%2E/b", null,
                        null, null, "/b", "/b", "/a/%2E%2E/b", "http://127.0.0.1:8080/a/%2E%2E/b",
                        Violation.AMBIGUOUS_PATH_SEGMENT),
                row("file:///etc/hosts", "file", null, "", -1, "/etc/hosts", null, null, null, "/etc/hosts",
                        "/etc/hosts", "/etc/hosts", "file:///etc/hosts"),
                row("git+ssh://git@example.com:22/repo", "git+ssh", "git", "example.com", 22, "/repo", null, null,
                        null, "/repo", "/repo", "/repo", "git+ssh://git@example.com:22/repo", Violation.USER_INFO));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("wellFormed")
    void parsesEveryComponent(Expected expected) {
        HttpURI uri = HttpURI.parse(expected.target());
        assertEquals(expected.scheme(), uri.getScheme(), "scheme");
        assertEquals(expected.user(), uri.getUser(), "user");
        assertEquals(expected.host(), uri.getHost(), "host");
        assertEquals(expected.port(), uri.getPort(), "port");
        assertEquals(expected.path(), uri.getPath(), "path");
        assertEquals(expected.param(), uri.getParam(), "param");
        assertEquals(expected.query(), uri.getQuery(), "query");
        assertEquals(expected.fragment(), uri.getFragment(), "fragment");
        assertEquals(expected.decodedPath(), uri.getDecodedPath(), "decoded path");
        assertEquals(expected.canonicalPath(), uri.getCanonicalPath(), "canonical path");
        assertEquals(expected.pathQuery(), uri.getPathQuery(), "path and query");
        assertEquals(expected.asString(), uri.asString(), "as string");
        assertEquals(expected.asString(), uri.toString(), "to string");
        assertEquals(expected.violations(), uri.getViolations(), "violations");
        assertEquals(!expected.violations().isEmpty(), uri.hasViolations());
        assertEquals(expected.scheme() != null, uri.isAbsolute());
        assertFalse(uri.isBad());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("wellFormed")
    void rebuildsAndReparsesToAnEqualUri(Expected expected) {
        HttpURI uri = HttpURI.parse(expected.target());
        HttpURI rebuilt = HttpURI.build(uri).asImmutable();
        assertEquals(uri, rebuilt);
        assertEquals(uri.hashCode(), rebuilt.hashCode());
        assertEquals(uri.getViolations(), rebuilt.getViolations());
        assertEquals(uri.getDecodedPath(), rebuilt.getDecodedPath());
        assertEquals(uri, HttpURI.parse(uri.asString()));
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("", "Bad request target: empty"),
                Arguments.of("foo", "not an origin, absolute or asterisk form"),
                Arguments.of("1http://x/", "not an origin, absolute or asterisk form"),
                Arguments.of("ht%tp://x/", "not an origin, absolute or asterisk form"),
                Arguments.of("**", "not an origin, absolute or asterisk form"),
                Arguments.of("host:443", "no authority after the scheme"),
                Arguments.of("http:/x", "no authority after the scheme"),
                Arguments.of("http://", "Bad URI authority: empty host"),
                Arguments.of("http:///path", "Bad URI authority: empty host"),
                Arguments.of("https://:443/", "Bad URI authority: empty host"),
                Arguments.of("http://a b/", "Bad URI authority: illegal character 0x20 in host"),
                Arguments.of("http://h\0/", "Bad URI authority: illegal character 0x00 in host"),
                Arguments.of("http://host:65536/", "Bad URI authority: port out of range"),
                Arguments.of("http://host:80x/", "Bad URI authority: non-digit character 'x' in port"),
                Arguments.of("http://[::1/", "Bad URI authority: unterminated IPv6 literal"),
                Arguments.of("http://[::1]x/", "Bad URI authority: unexpected character 'x' after IP literal"),
                Arguments.of("http://a@b@c/", "Bad URI authority: illegal character '@' in host"),
                Arguments.of("http://us er@host/", "Bad URI user info"),
                Arguments.of("http://evil\\@good/", "Bad URI user info"),
                Arguments.of("/?a b", "Illegal character in URI query"),
                Arguments.of("/?a\r\nSet-Cookie: x", "Illegal character in URI query"),
                Arguments.of("/?a\0", "Illegal character in URI query"),
                Arguments.of("/#a#b", "Illegal character in URI fragment"),
                Arguments.of("/#a\u007f", "Illegal character in URI fragment"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("malformed")
    void refusesWhatIsNotARequestTarget(String target, String reason) {
        BadMessageException refused = assertThrows(BadMessageException.class, () -> HttpURI.parse(target));
        assertEquals(400, refused.getStatus());
        assertTrue(refused.getReason().contains(reason), refused.getReason());
        for (char c : refused.getReason().toCharArray()) {
            assertTrue(c >= 0x20 && c < 0x7F, "reason holds a raw peer character: " + refused.getReason());
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # authority            | host                 | port | asString
            example.com:443        | example.com          | 443  | example.com:443
            [::1]:8443             | [::1]                | 8443 | [::1]:8443
            127.0.0.1:65535        | 127.0.0.1            | 65535| 127.0.0.1:65535
            """)
    void parsesTheAuthorityFormOfConnect(String authority, String host, int port, String asString) {
        HttpURI uri = HttpURI.parseAuthority(authority);
        assertEquals(host, uri.getHost());
        assertEquals(port, uri.getPort());
        assertEquals(asString, uri.getAuthority());
        assertEquals(asString, uri.asString());
        assertNull(uri.getScheme());
        assertNull(uri.getPath());
        assertNull(uri.getPathQuery());
        assertNull(uri.getDecodedPath());
        assertFalse(uri.isBad());
        assertFalse(uri.hasViolations());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # authority            | reason
            example.com            | Bad authority-form target: no port
            127.0.0.1:65536        | Bad authority-form target: port out of range
            user@host:443          | Bad authority-form target: illegal character '@' in host
            ''                     | Bad authority-form target: empty host
            [::1:443               | Bad authority-form target: unterminated IPv6 literal
            """)
    void refusesBadAuthorityForms(String authority, String reason) {
        BadMessageException refused = assertThrows(BadMessageException.class, () -> HttpURI.parseAuthority(authority));
        assertTrue(refused.getReason().startsWith(reason), refused.getReason());
    }

    @Test
    void buildsFromComponents() {
        assertEquals("http://example.com:8080/a?b=1", HttpURI.from("http", "example.com", 8080, "/a?b=1").asString());
        assertEquals("https://[::1]/", HttpURI.from("HTTPS", "::1", -1, "/").asString());
        assertEquals("http://example.com", HttpURI.from("http", "example.com", -1, null).asString());
        HttpURI uri = HttpURI.build()
                .scheme("https").user("me").host("example.com").port(8443)
                .path("/a;old").param("new").query("q=1").fragment("top")
                .asImmutable();
        assertEquals("https://me@example.com:8443/a;new?q=1#top", uri.asString());
        assertEquals("new", uri.getParam());
        assertEquals("/a", uri.getDecodedPath());
        assertEquals(EnumSet.of(Violation.AMBIGUOUS_PATH_PARAMETER, Violation.USER_INFO, Violation.FRAGMENT),
                uri.getViolations());
    }

    @Test
    void builderChangesAParsedUri() {
        HttpURI parsed = HttpURI.parse("http://h/a/b;x?q#f");
        HttpURI changed = HttpURI.build(parsed).param(null).query(null).fragment(null).port(81).asImmutable();
        assertEquals("http://h:81/a/b", changed.asString());
        assertFalse(changed.hasViolations());
        assertEquals("/c/d?e", HttpURI.build(parsed).scheme(null).host(null).port(-1).fragment(null)
                .pathQuery("/c/d?e").asImmutable().asString());
        HttpURI separator = HttpURI.build().path("/a%2Fb").asImmutable();
        assertEquals(Set.of(Violation.AMBIGUOUS_PATH_SEPARATOR), separator.getViolations());
        assertEquals("/a/b", separator.getDecodedPath());
        assertEquals("/a%2Fb", separator.getCanonicalPath());
        assertEquals("//double", HttpURI.build(HttpURI.parse("//double")).asImmutable().asString());
        assertEquals("host:443", HttpURI.build(HttpURI.parseAuthority("host:443")).asImmutable().asString());
    }

    @Test
    void builderRefusesWhatCannotBeAUri() {
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().scheme("1x"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().scheme("a b"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().port(65536));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().port(-2));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().host("a b"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().host("[::1"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().user("a b"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().path("/a?b"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().path("/a#b"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().query("a b"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().query("a#b"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().fragment("a#b"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().param("a/b"));
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().host("h").path("a").asImmutable());
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().user("u").path("/").asImmutable());
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().port(80).path("/").asImmutable());
        assertThrows(IllegalArgumentException.class, () -> HttpURI.build().scheme("http").path("//x").asImmutable());
        assertThrows(IllegalArgumentException.class,
                () -> HttpURI.from("http", "example.com", 70000, "/"));
    }

    @Test
    void withAuthorityMakesAnOriginFormTargetAbsolute() {
        HttpURI uri = HttpURI.parse("/a%20b?q=1").withAuthority("HTTP", HostPort.of("example.com", 8080));
        assertEquals("http://example.com:8080/a%20b?q=1", uri.asString());
        assertEquals("/a b", uri.getDecodedPath());
        assertEquals("example.com", uri.getHost());
        assertEquals(8080, uri.getPort());
        assertThrows(IllegalArgumentException.class, () -> HttpURI.parse("/").withAuthority("1x", HostPort.of("h", -1)));
    }

    /** RFC 9112 section 3.3: the target URI of {@code OPTIONS *} has an empty path; handlers still see "*". */
    @Test
    void withAuthorityKeepsTheAsteriskForm() {
        HttpURI uri = HttpURI.parse("*").withAuthority("http", HostPort.of("localhost", -1));
        assertEquals("*", uri.getPath());
        assertEquals("*", uri.getDecodedPath());
        assertEquals("*", uri.getPathQuery());
        assertEquals("localhost", uri.getHost());
        assertEquals("http", uri.getScheme());
        assertEquals("http://localhost", uri.asString());
        assertFalse(uri.hasViolations());
    }

    @Test
    void asteriskIsShared() {
        assertSame(HttpURI.parse("*"), HttpURI.parse("*"));
    }

    @Test
    void convertsToJavaNetUri() {
        HttpURI uri = HttpURI.parse("http://h:1/a%20b?q=1");
        assertEquals("/a b", uri.toURI().getPath());
        assertEquals("h", uri.toURI().getHost());
        assertEquals(1, uri.toURI().getPort());
        assertThrows(IllegalArgumentException.class, () -> HttpURI.parse("/a%G1").toURI());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # target           | ambiguous | hasViolations | bad
            /a/b               | false     | false         | false
            /a//b              | true      | true          | false
            /a%2Fb             | true      | true          | false
            /a;p               | true      | true          | false
            /a%25              | true      | true          | false
            /%2e/              | true      | true          | false
            /a%5Cb             | false     | true          | false
            /a#f               | false     | true          | false
            /../               | false     | false         | true
            /a/%00             | false     | false         | true
            /a/%00/%2F         | false     | false         | true
            """)
    void classifiesAmbiguousAndBadUris(String target, boolean ambiguous, boolean hasViolations, boolean bad) {
        HttpURI uri = HttpURI.parse(target);
        assertEquals(ambiguous, uri.isAmbiguous(), "ambiguous");
        assertEquals(hasViolations, uri.hasViolations(), "has violations");
        assertEquals(bad, uri.isBad(), "bad");
        if (bad) {
            assertNull(uri.getDecodedPath());
            assertNull(uri.getCanonicalPath());
        }
    }

    @Test
    void longHostileTargetsParseInLinearTime() {
        LinearTime.assertLinear("targets of 100,000 segments", 100_000, segments -> {
            String parameters = "/a".repeat(segments) + ";x";
            String dots = "/a".repeat(segments) + "/%2e%2e".repeat(segments + 1);
            String escapes = "/%C3%A9%2F%25".repeat(segments * 3 / 10) + "?" + "q".repeat(segments);
            return () -> {
                assertEquals("x", HttpURI.parse(parameters).getParam());
                assertTrue(HttpURI.parse(dots).isBad());
                assertEquals(segments * 12 / 10, HttpURI.parse(escapes).getDecodedPath().length());
            };
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/",
        "/a/b?c=d#e",
        "/%2e/x",
        "/a/..;/b",
        "/a//b?",
        "/caf%C3%A9",
        "*",
        "http://other.example:81/x?y",
    })
    void parsingWithAnAuthorityEqualsParsingThenAddingIt(String target) {
        HostPort authority = HostPort.of("host.example", 8080);
        HttpURI once = HttpURI.parse(target, "http", authority);
        HttpURI parsed = HttpURI.parse(target);
        HttpURI twice = parsed.isAbsolute() ? parsed : parsed.withAuthority("http", authority);
        assertEquals(twice.toString(), once.toString());
        assertEquals(twice.getHost(), once.getHost());
        assertEquals(twice.getPort(), once.getPort());
        assertEquals(twice.getDecodedPath(), once.getDecodedPath());
        assertEquals(twice.getViolations(), once.getViolations());
        assertEquals(twice.isAmbiguous(), once.isAmbiguous());
    }

    @Test
    void theAsteriskFormKeepsItsPathAndGetsTheAuthority() {
        HttpURI asterisk = HttpURI.parse("*", "http", HostPort.of("h", 1));
        assertEquals("*", asterisk.getPath());
        assertEquals("h", asterisk.getHost());
    }

    @Test
    void parsingWithAnAuthorityChecksAndLowerCasesTheScheme() {
        assertEquals("https", HttpURI.parse("/x", "HTTPS", HostPort.of("h", 1)).getScheme());
        assertThrows(IllegalArgumentException.class, () -> HttpURI.parse("/x", "1http", HostPort.of("h", 1)));
    }
}
