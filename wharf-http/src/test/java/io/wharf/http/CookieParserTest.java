package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import java.util.stream.Stream;

import io.wharf.http.CookieCompliance.Violation;
import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CookieParserTest {

    private static final String STRICT = "RFC6265";
    private static final String LEGACY = "RFC6265_LEGACY";
    private static final String OLD = "RFC2965";

    /** Mode, Cookie header value, the cookies as name=value, the violations reported in order. */
    static Stream<Arguments> headers() {
        return Stream.of(
                // plain RFC 6265
                row(STRICT, "a=b", "a=b", ""),
                row(STRICT, "a=b; c=d", "a=b|c=d", ""),
                row(STRICT, "a=b;c=d", "a=b|c=d", ""),
                row(STRICT, "a=b;  \tc=d", "a=b|c=d", ""),
                row(STRICT, "a=b;;; c=d;", "a=b|c=d", ""),
                row(STRICT, "", "", ""),
                row(STRICT, " ; ", "", ""),
                row(STRICT, "a=b ", "a=b", ""),
                row(STRICT, "a=b=c", "a=b=c", ""),
                Arguments.of(STRICT, "!#$%&'*+-.^_`|~=!#$%&'()*+-./:<=>?@[]^_`{|}~",
                        List.of("!#$%&'*+-.^_`|~=!#$%&'()*+-./:<=>?@[]^_`{|}~"), List.of()),
                // empty values
                row(STRICT, "a=", "a=", ""),
                row(STRICT, "a=; b=", "a=|b=", ""),
                row(STRICT, "a=;b=x", "a=|b=x", ""),
                // quoted values: the quotes are part of the value unless the mode strips them
                row(STRICT, "a=\"\"", "a=\"\"", ""),
                row(STRICT, "a=\"b\"", "a=\"b\"", ""),
                row(LEGACY, "a=\"b\"", "a=\"b\"", ""),
                row(OLD, "a=\"b\"", "a=b", "STRIPPED_QUOTES"),
                row(OLD, "a=\"\"", "a=", "STRIPPED_QUOTES"),
                row(STRICT, "a=\"b c\"; d=e", "d=e", "INVALID_COOKIES"),
                row(LEGACY, "a=\"b c\"; d=e", "a=\"b c\"|d=e", "SPECIAL_CHARS_IN_QUOTES"),
                row(OLD, "a=\"b c\"; d=e", "a=b c|d=e", "SPECIAL_CHARS_IN_QUOTES,STRIPPED_QUOTES"),
                row(LEGACY, "a=\"b\\c\"", "a=\"b\\c\"", "ESCAPE_IN_QUOTES"),
                row(LEGACY, "a=\"b\\\"c\"", "a=\"b\\\"c\"", "ESCAPE_IN_QUOTES"),
                row(OLD, "a=\"b\\\"c\"", "a=b\"c", "ESCAPE_IN_QUOTES,STRIPPED_QUOTES"),
                row(STRICT, "a=\"b\\\"c\"; d=e", "d=e", "INVALID_COOKIES"),
                row(LEGACY, "a=\"b\\", "a=\"b\\", "SPECIAL_CHARS_IN_QUOTES,BAD_QUOTES"),
                // unbalanced quotes
                row(STRICT, "a=\"b; c=d", "c=d", "INVALID_COOKIES"),
                row(LEGACY, "a=\"b; c=d", "a=\"b|c=d", "BAD_QUOTES"),
                row(OLD, "a=\"b; c=d", "a=\"b|c=d", "BAD_QUOTES"),
                row(STRICT, "a=\"b\"c; d=e", "d=e", "INVALID_COOKIES"),
                row(LEGACY, "a=\"b\"c; d=e", "a=\"b\"c|d=e", "BAD_QUOTES"),
                row(LEGACY, "a=\"b\"c\"; d=e", "d=e", "INVALID_COOKIES"),
                row(LEGACY, "a=b\"; d=e", "d=e", "INVALID_COOKIES"),
                row(OLD, "a=b\"c; d=e", "d=e", "INVALID_COOKIES"),
                // a ';' always ends a cookie, also inside quotes
                row(OLD, "a=\"b; c\"; d=e", "a=\"b|d=e", "BAD_QUOTES,INVALID_COOKIES"),
                // blanks and spaces
                row(STRICT, "a=b c; d=e", "d=e", "INVALID_COOKIES"),
                row(LEGACY, "a=b c; d=e", "a=b c|d=e", "SPACE_IN_VALUES"),
                row(LEGACY, "a=b \t c", "a=b \t c", "SPACE_IN_VALUES"),
                row(STRICT, "a = b; c=d", "c=d", "INVALID_COOKIES"),
                row(LEGACY, "a = b; c=d", "a=b|c=d", "OPTIONAL_WHITE_SPACE"),
                row(LEGACY, "a =b", "a=b", "OPTIONAL_WHITE_SPACE"),
                row(LEGACY, "a= b", "a=b", "OPTIONAL_WHITE_SPACE"),
                row(STRICT, "a=b ; c=d", "c=d", "INVALID_COOKIES"),
                row(LEGACY, "a=b ; c=d", "a=b|c=d", "OPTIONAL_WHITE_SPACE"),
                row(LEGACY, "a= ; c=d", "a=|c=d", "OPTIONAL_WHITE_SPACE"),
                row(STRICT, "a= ", "a=", ""),
                row(LEGACY, "a=\"b\" ; c=d", "a=\"b\"|c=d", "OPTIONAL_WHITE_SPACE"),
                row(LEGACY, "a=\"b ; c=d", "a=\"b|c=d", "OPTIONAL_WHITE_SPACE,BAD_QUOTES"),
                row(LEGACY, "a=\"b c ", "a=\"b c", "SPECIAL_CHARS_IN_QUOTES,BAD_QUOTES"),
                row(LEGACY, "a b=c; d=e", "d=e", "INVALID_COOKIES"),
                // commas
                row(STRICT, "a=1, b=2", "", "INVALID_COOKIES"),
                row(STRICT, "a=1,b=2; c=3", "c=3", "INVALID_COOKIES"),
                row(LEGACY, "a=1,b=2", "a=1,b=2", "COMMA_NOT_VALID_OCTET"),
                row(LEGACY, "a=1, b=2", "a=1, b=2", "COMMA_NOT_VALID_OCTET,SPACE_IN_VALUES"),
                row(OLD, "a=1, b=2", "a=1|b=2", "COMMA_SEPARATOR"),
                row(OLD, "a=1,b=2;c=3", "a=1|b=2|c=3", "COMMA_SEPARATOR"),
                row(OLD, "a=1 , b=2", "a=1|b=2", "COMMA_SEPARATOR,OPTIONAL_WHITE_SPACE"),
                row(OLD, "a=\"1,2\", b=3", "a=1,2|b=3", "COMMA_SEPARATOR,SPECIAL_CHARS_IN_QUOTES,STRIPPED_QUOTES"),
                row(LEGACY, "a=\"1,2\"", "a=\"1,2\"", "SPECIAL_CHARS_IN_QUOTES"),
                row(OLD, ",,a=1,,", "a=1", "COMMA_SEPARATOR"),
                // pairs that do not parse
                row(STRICT, "=b; c=d", "c=d", "INVALID_COOKIES"),
                row(STRICT, "abc; c=d", "c=d", "INVALID_COOKIES"),
                row(STRICT, "a\"b=c; d=e", "d=e", "INVALID_COOKIES"),
                row(STRICT, "a=b\u0000c; d=e", "d=e", "INVALID_COOKIES"),
                row(LEGACY, "a=b\u0000c; d=e", "d=e", "INVALID_COOKIES"),
                row(OLD, "a=\"b\u0007c\"; d=e", "d=e", "INVALID_COOKIES"),
                row(LEGACY, "a=b\\c; d=e", "d=e", "INVALID_COOKIES"),
                row(LEGACY, "a=caf\u00e9; d=e", "d=e", "INVALID_COOKIES"),
                row(LEGACY, "a=\u007f", "", "INVALID_COOKIES"),
                row(LEGACY, "a=\"b\\\u0001\"; d=e", "d=e", "INVALID_COOKIES"),
                // RFC 2965 attributes
                row(OLD, "$Version=1; a=b; $Path=/x", "a=b", "ATTRIBUTES,ATTRIBUTE_VALUES,ATTRIBUTES,ATTRIBUTE_VALUES"),
                row(OLD, "$Version=\"1\"; a=\"b\"; $Path=\"/x\"; $Domain=\".example.com\"", "a=b",
                        "ATTRIBUTES,ATTRIBUTE_VALUES,STRIPPED_QUOTES,STRIPPED_QUOTES,ATTRIBUTES,ATTRIBUTE_VALUES,STRIPPED_QUOTES,"
                                + "ATTRIBUTES,ATTRIBUTE_VALUES,STRIPPED_QUOTES"),
                row(OLD, "$Version=1, a=b, $Path=/x, c=d, $PORT=\"80\"", "a=b|c=d",
                        "ATTRIBUTES,ATTRIBUTE_VALUES,COMMA_SEPARATOR,COMMA_SEPARATOR,ATTRIBUTES,ATTRIBUTE_VALUES,COMMA_SEPARATOR,"
                                + "COMMA_SEPARATOR,ATTRIBUTES,STRIPPED_QUOTES"),
                row(OLD, "$Path=/x; a=b", "a=b", "ATTRIBUTES"),
                row(LEGACY, "$Version=1; a=b; $Path=/x", "a=b", "ATTRIBUTES,ATTRIBUTES"),
                row(STRICT, "$Version=1; a=b; $Path=/x", "$Version=1|a=b|$Path=/x", ""),
                row(OLD, "$Other=1; a=b", "$Other=1|a=b", ""),
                // the security rows: a JSESSIONID hidden in a quoted value never comes out
                row(STRICT, "foo=\"bar; JSESSIONID=evil\"; JSESSIONID=good", "JSESSIONID=good", "INVALID_COOKIES,INVALID_COOKIES"),
                row(LEGACY, "foo=\"bar; JSESSIONID=evil\"; JSESSIONID=good", "foo=\"bar|JSESSIONID=good", "BAD_QUOTES,INVALID_COOKIES"),
                row(OLD, "foo=\"bar; JSESSIONID=evil\"; JSESSIONID=good", "foo=\"bar|JSESSIONID=good", "BAD_QUOTES,INVALID_COOKIES"),
                row(STRICT, "foo=\"bar\\\"; JSESSIONID=evil\"; JSESSIONID=good", "JSESSIONID=good", "INVALID_COOKIES,INVALID_COOKIES"),
                row(LEGACY, "foo=\"bar\\\"; JSESSIONID=evil\"; JSESSIONID=good", "foo=\"bar\\\"|JSESSIONID=good",
                        "ESCAPE_IN_QUOTES,BAD_QUOTES,INVALID_COOKIES"),
                row(OLD, "foo=\"bar\\\"; JSESSIONID=evil\"; JSESSIONID=good", "foo=\"bar\\\"|JSESSIONID=good",
                        "ESCAPE_IN_QUOTES,BAD_QUOTES,INVALID_COOKIES"),
                row(STRICT, "foo=\"bar\\\"; JSESSIONID=evil\"", "", "INVALID_COOKIES,INVALID_COOKIES"),
                row(LEGACY, "foo=\"bar\\\"; JSESSIONID=evil\"", "foo=\"bar\\\"", "ESCAPE_IN_QUOTES,BAD_QUOTES,INVALID_COOKIES"),
                row(OLD, "foo=\"bar\\\"; JSESSIONID=evil\"", "foo=\"bar\\\"", "ESCAPE_IN_QUOTES,BAD_QUOTES,INVALID_COOKIES"),
                row(OLD, "foo=\"bar, JSESSIONID=evil\", JSESSIONID=good", "foo=bar, JSESSIONID=evil|JSESSIONID=good",
                        "COMMA_SEPARATOR,SPECIAL_CHARS_IN_QUOTES,STRIPPED_QUOTES"),
                row(OLD, "foo=\"bar\\\", JSESSIONID=evil\", JSESSIONID=good", "foo=bar\", JSESSIONID=evil|JSESSIONID=good",
                        "COMMA_SEPARATOR,ESCAPE_IN_QUOTES,SPECIAL_CHARS_IN_QUOTES,STRIPPED_QUOTES"),
                row(LEGACY, "foo=\"bar\\; JSESSIONID=evil\"; JSESSIONID=good", "foo=\"bar\\|JSESSIONID=good",
                        "SPECIAL_CHARS_IN_QUOTES,BAD_QUOTES,INVALID_COOKIES"));
    }

    private static Arguments row(String mode, String header, String cookies, String violations) {
        return Arguments.of(mode, header,
                cookies.isEmpty() ? List.of() : List.of(cookies.split("\\|")),
                violations.isEmpty() ? List.of() : List.of(violations.split(",")));
    }

    @ParameterizedTest(name = "{0} [{1}]")
    @MethodSource("headers")
    void parsesEachHeaderIntoCookiesAndReportsWhatTheModeAllowed(String mode, String header, List<String> cookies, List<String> violations) {
        List<String> reported = new ArrayList<>();
        CookieParser parser = new CookieParser(CookieCompliance.from(mode),
                (allowingMode, violation, details) -> reported.add(violation.getName()), 100);
        List<HttpCookie> parsed = parser.parse(List.of(header));
        assertEquals(cookies, parsed.stream().map(cookie -> cookie.getName() + "=" + cookie.getValue()).toList());
        assertEquals(violations, reported);
        assertFalse(parsed.stream().anyMatch(cookie -> cookie.getValue().contains("evil") && cookie.getName().equals("JSESSIONID")));
    }

    @Test
    void appliesRfc2965AttributesToTheCookieBeforeThemAndTheVersionToThoseAfter() {
        CookieParser parser = new CookieParser(CookieCompliance.RFC2965, ComplianceViolation.Listener.NONE, 100);
        List<HttpCookie> cookies = parser.parse(List.of("a=0; $Version=1; b=2; $Path=/x; $Domain=.example.com; c=3", "d=4; $Path=/y"));
        assertEquals(4, cookies.size());
        HttpCookie a = cookies.get(0);
        assertEquals(0, a.getVersion());
        assertNull(a.getPath());
        HttpCookie b = cookies.get(1);
        assertEquals(1, b.getVersion());
        assertEquals("/x", b.getPath());
        assertEquals(".example.com", b.getDomain());
        HttpCookie c = cookies.get(2);
        assertEquals(1, c.getVersion());
        assertNull(c.getPath());
        HttpCookie d = cookies.get(3);
        assertEquals("/y", d.getPath());
        assertEquals(1, d.getVersion());

        List<HttpCookie> ignored = new CookieParser(CookieCompliance.RFC6265_LEGACY, ComplianceViolation.Listener.NONE, 100)
                .parse(List.of("$Version=1; b=2; $Path=/x"));
        assertEquals(0, ignored.get(0).getVersion());
        assertNull(ignored.get(0).getPath());
    }

    @Test
    void attributesDoNotReachIntoTheNextHeader() {
        CookieParser parser = new CookieParser(CookieCompliance.RFC2965, ComplianceViolation.Listener.NONE, 100);
        List<HttpCookie> cookies = parser.parse(List.of("a=1", "$Path=/x; b=2"));
        assertNull(cookies.get(0).getPath());
        assertNull(cookies.get(1).getPath());
    }

    @Test
    void readsEveryCookieFieldInOrder() {
        HttpFields fields = HttpFields.build().add(HttpHeader.COOKIE, "a=1; b=2").add(HttpHeader.HOST, "h").add("cookie", "c=3");
        List<HttpCookie> cookies = new CookieParser().parse(fields);
        assertEquals(List.of("a", "b", "c"), cookies.stream().map(HttpCookie::getName).toList());
        assertTrue(new CookieParser().parse(HttpFields.EMPTY).isEmpty());
    }

    @Test
    void keepsAtMostMaxCookiesAndReportsTheRestOnce() {
        List<String> reported = new ArrayList<>();
        CookieParser parser = new CookieParser(CookieCompliance.RFC6265,
                (mode, violation, details) -> reported.add(violation.getName() + " " + details), 3);
        List<HttpCookie> cookies = parser.parse(List.of("a=1; b=2", "c=3; d=4; e=5", "f=6"));
        assertEquals(List.of("a", "b", "c"), cookies.stream().map(HttpCookie::getName).toList());
        assertEquals(List.of("INVALID_COOKIES more than 3 cookies; this one and those after it were dropped: \"d=4\""), reported);
    }

    @Test
    void attributesDoNotCountAsCookies() {
        CookieParser parser = new CookieParser(CookieCompliance.RFC2965, ComplianceViolation.Listener.NONE, 1);
        List<HttpCookie> cookies = parser.parse(List.of("$Version=1; a=1; $Path=/p; b=2"));
        assertEquals(1, cookies.size());
        assertEquals("/p", cookies.get(0).getPath());
    }

    @Test
    void reportsAtMostMaxReportsViolationsPerParse() {
        List<String> reported = new ArrayList<>();
        CookieParser parser = new CookieParser(CookieCompliance.RFC6265_LEGACY,
                (mode, violation, details) -> reported.add(violation.getName()), 100, 3);
        List<HttpCookie> cookies = parser.parse(List.of("a = 1 2; b; c; d; e=5"));
        assertEquals(List.of("a", "e"), cookies.stream().map(HttpCookie::getName).toList());
        assertEquals(List.of("OPTIONAL_WHITE_SPACE", "SPACE_IN_VALUES", "INVALID_COOKIES"), reported);
        reported.clear();
        parser.parse(List.of("a = 1 2; b; c; d; e=5"));
        assertEquals(List.of("OPTIONAL_WHITE_SPACE", "SPACE_IN_VALUES", "INVALID_COOKIES"), reported);
        assertEquals("max reports must not be negative: -1", assertThrows(IllegalArgumentException.class,
                () -> new CookieParser(CookieCompliance.RFC6265, ComplianceViolation.Listener.NONE, 1, -1)).getMessage());
    }

    @Test
    void aModeWithoutInvalidCookiesFailsTheRequestWithoutEchoingThePeer() {
        CookieCompliance noDrops = CookieCompliance.from("RFC6265,-INVALID_COOKIES");
        CookieParser parser = new CookieParser(noDrops, ComplianceViolation.Listener.NONE, 2);
        assertEquals(2, parser.parse(List.of("a=1; b=2")).size());
        BadMessageException bad = assertThrows(BadMessageException.class, () -> parser.parse(List.of("a=1; b=x y\u0001")));
        assertEquals(400, bad.getStatus());
        assertEquals("invalid cookie: a space in a cookie value", bad.getReason());
        BadMessageException tooMany = assertThrows(BadMessageException.class, () -> parser.parse(List.of("a=1; b=2; c=3")));
        assertEquals("invalid cookie: more than 2 cookies", tooMany.getReason());
    }

    @Test
    void detailsShowThePairEscapedAndCutShort() {
        List<String> details = new ArrayList<>();
        CookieParser parser = new CookieParser(CookieCompliance.RFC6265_LEGACY, (mode, violation, text) -> details.add(text), 100);
        parser.parse(List.of("a=b\u0001\r\nX: y; c=d e; " + "long=" + "v ".repeat(100)));
        assertEquals("an illegal character in a cookie value: \"a=b\\x01\\x0d\\x0aX: y\"", details.get(0));
        assertEquals("\"c=d e\"", details.get(1));
        assertEquals("\"long=" + "v ".repeat(29) + "v\"...", details.get(2));
    }

    @Test
    void repeatedHeadersReturnThePreviousListAndReportItsViolationsAgain() {
        List<String> reported = new ArrayList<>();
        CookieParser parser = new CookieParser(CookieCompliance.RFC6265_LEGACY, (mode, violation, details) -> reported.add(violation.getName()), 100);
        List<HttpCookie> first = parser.parse(List.of("a=b c; d=e"));
        List<HttpCookie> again = parser.parse(List.of(new String("a=b c; d=e")));
        assertSame(first, again);
        assertEquals(List.of("SPACE_IN_VALUES", "SPACE_IN_VALUES"), reported);
        List<HttpCookie> other = parser.parse(List.of("a=b c; d=f"));
        assertEquals("f", other.get(1).getValue());
        assertThrows(UnsupportedOperationException.class, () -> other.add(HttpCookie.from("x", "y")));
        assertEquals(List.of("d"), parser.parse(List.of("a=b c; d=e", "d=e")).stream().skip(2).map(HttpCookie::getName).toList());
    }

    @Test
    void refusesNonsenseSettings() {
        assertEquals("max cookies must be at least 1, not 0",
                assertThrows(IllegalArgumentException.class,
                        () -> new CookieParser(CookieCompliance.RFC6265, ComplianceViolation.Listener.NONE, 0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CookieParser(null, ComplianceViolation.Listener.NONE, 1));
    }

    /**
     * Each row is a header of about {@code bytes} bytes meant to make a careless parser backtrack
     * or allocate per character, and how many cookies RFC6265_LEGACY keeps from it.
     */
    static Stream<Arguments> hugeHeaders() {
        return Stream.of(
                huge("many cookies", bytes -> "a=b; ".repeat(bytes / 5), bytes -> bytes / 5),
                huge("one huge value", bytes -> "a=" + "x".repeat(bytes), bytes -> 1),
                huge("one huge quoted value", bytes -> "a=\"" + "x".repeat(bytes) + "\"", bytes -> 1),
                huge("quotes", bytes -> "a=" + "\"".repeat(bytes), bytes -> 0),
                huge("escapes", bytes -> "a=\"" + "\\\"".repeat(bytes / 2), bytes -> 1),
                huge("blank runs", bytes -> "a=b" + " ".repeat(bytes) + "c", bytes -> 1),
                huge("spaced words", bytes -> "a=" + "b ".repeat(bytes / 2) + "c", bytes -> 1),
                huge("separators", bytes -> ";".repeat(bytes), bytes -> 0),
                huge("names without values", bytes -> "abc; ".repeat(bytes / 5), bytes -> 0),
                huge("equals", bytes -> "=".repeat(bytes), bytes -> 0),
                huge("commas", bytes -> "a=1," + ",".repeat(bytes), bytes -> 1),
                huge("dollar attributes", bytes -> "$Path=/; ".repeat(bytes / 9), bytes -> 0));
    }

    private static Arguments huge(String shape, IntFunction<String> header, IntUnaryOperator legacyCookies) {
        return Arguments.of(shape, header, legacyCookies);
    }

    /**
     * Parses each shape in each mode at 128 KiB and at a megabyte, and checks that the time grows
     * linearly; each parse keeps its cookies and reports within the limits.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hugeHeaders")
    void parsesAMegabyteInLinearTime(String shape, IntFunction<String> header, IntUnaryOperator legacyCookies) {
        for (CookieCompliance mode : List.of(CookieCompliance.RFC6265_LEGACY, CookieCompliance.RFC6265, CookieCompliance.RFC2965)) {
            LinearTime.assertLinear(shape + " in " + mode.getName(), 128 * 1024, bytes -> {
                List<String> fields = List.of(header.apply(bytes));
                return () -> {
                    List<ComplianceViolation> reported = new ArrayList<>();
                    ComplianceViolation.Listener listener = (m, violation, details) -> reported.add(violation);
                    int count = new CookieParser(mode, listener, Integer.MAX_VALUE).parse(fields).size();
                    if (mode == CookieCompliance.RFC6265_LEGACY) {
                        assertEquals(legacyCookies.applyAsInt(bytes), count);
                    }
                    assertTrue(reported.size() <= CookieParser.DEFAULT_MAX_REPORTS, shape + " reported " + reported.size());
                };
            });
        }
    }

    @Test
    void theDefaultLimitStopsTheScanEarly() {
        List<HttpCookie> cookies = new CookieParser().parse(List.of("a=b; ".repeat(1 << 18)));
        assertEquals(CookieParser.DEFAULT_MAX_COOKIES, cookies.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"RFC6265", "rfc6265_legacy", " RFC2965 "})
    void namedModesAreFoundInAnyCase(String name) {
        CookieCompliance mode = CookieCompliance.from(name);
        assertSame(switch (name.trim().toUpperCase()) {
            case "RFC6265" -> CookieCompliance.RFC6265;
            case "RFC6265_LEGACY" -> CookieCompliance.RFC6265_LEGACY;
            default -> CookieCompliance.RFC2965;
        }, mode);
    }
}
