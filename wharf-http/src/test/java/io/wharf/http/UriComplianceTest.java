package io.wharf.http;

import static io.wharf.http.UriCompliance.Violation.AMBIGUOUS_EMPTY_SEGMENT;
import static io.wharf.http.UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING;
import static io.wharf.http.UriCompliance.Violation.AMBIGUOUS_PATH_PARAMETER;
import static io.wharf.http.UriCompliance.Violation.AMBIGUOUS_PATH_SEGMENT;
import static io.wharf.http.UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR;
import static io.wharf.http.UriCompliance.Violation.BAD_PERCENT_ENCODING;
import static io.wharf.http.UriCompliance.Violation.BAD_UTF8_ENCODING;
import static io.wharf.http.UriCompliance.Violation.FRAGMENT;
import static io.wharf.http.UriCompliance.Violation.ILLEGAL_PATH_CHARACTERS;
import static io.wharf.http.UriCompliance.Violation.SUSPICIOUS_PATH_CHARACTERS;
import static io.wharf.http.UriCompliance.Violation.USER_INFO;
import static io.wharf.http.UriCompliance.Violation.UTF16_ENCODINGS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import io.wharf.http.UriCompliance.Violation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class UriComplianceTest {

    private static final String OK = "ok";
    private static final String SEGMENT = "Ambiguous URI path segment";
    private static final String EMPTY = "Ambiguous URI empty segment";
    private static final String SEPARATOR = "Ambiguous URI path separator";
    private static final String PARAMETER = "Ambiguous URI path parameter";
    private static final String ENCODING = "Ambiguous URI path encoding";
    private static final String SUSPICIOUS = "Suspicious URI path characters";
    private static final String ILLEGAL = "Illegal URI path characters";
    private static final String USER = "URI with user info";
    private static final String UTF16 = "UTF-16 encoding in URI";
    private static final String UTF8 = "Bad UTF-8 encoding in URI";
    private static final String PERCENT = "Bad percent encoding in URI";
    private static final String NUL = "NUL character in URI path";
    private static final String ABOVE_ROOT = "URI path climbs above the root";

    /**
     * Each hostile or ambiguous target with what parsing finds, what each named mode answers
     * ({@code "ok"} or the reason of the 400) and the decoded path.
     */
    static Stream<Arguments> targets() {
        return Stream.of(
                // target, violations found, DEFAULT, LEGACY, UNSAFE, decoded path
                Arguments.of("/a/b?q=1", Set.of(), OK, OK, OK, "/a/b"),
                Arguments.of("/%2e/", Set.of(AMBIGUOUS_PATH_SEGMENT), SEGMENT, SEGMENT, OK, "/"),
                Arguments.of("/a/%2e%2e/b", Set.of(AMBIGUOUS_PATH_SEGMENT), SEGMENT, SEGMENT, OK, "/b"),
                Arguments.of("/a/.%2E/b", Set.of(AMBIGUOUS_PATH_SEGMENT), SEGMENT, SEGMENT, OK, "/b"),
                Arguments.of("/a/..;/", Set.of(AMBIGUOUS_PATH_SEGMENT, AMBIGUOUS_PATH_PARAMETER),
                        SEGMENT, SEGMENT, OK, "/"),
                Arguments.of("/a/.;x/b", Set.of(AMBIGUOUS_PATH_SEGMENT, AMBIGUOUS_PATH_PARAMETER),
                        SEGMENT, SEGMENT, OK, "/a/b"),
                Arguments.of("/.%00/", Set.of(), NUL, NUL, NUL, null),
                Arguments.of("/a\0b", Set.of(), NUL, NUL, NUL, null),
                Arguments.of("/%u0000", Set.of(UTF16_ENCODINGS), NUL, NUL, NUL, null),
                Arguments.of("/../", Set.of(), ABOVE_ROOT, ABOVE_ROOT, ABOVE_ROOT, null),
                Arguments.of("/..", Set.of(), ABOVE_ROOT, ABOVE_ROOT, ABOVE_ROOT, null),
                Arguments.of("/a/../../etc/passwd", Set.of(), ABOVE_ROOT, ABOVE_ROOT, ABOVE_ROOT, null),
                Arguments.of("/%2e%2e/%2e%2e/etc", Set.of(AMBIGUOUS_PATH_SEGMENT), ABOVE_ROOT, ABOVE_ROOT,
                        ABOVE_ROOT, null),
                Arguments.of("/a/b/../../..;/x", Set.of(AMBIGUOUS_PATH_SEGMENT, AMBIGUOUS_PATH_PARAMETER), ABOVE_ROOT, ABOVE_ROOT, ABOVE_ROOT, null),
                Arguments.of("/a%2Fb", Set.of(AMBIGUOUS_PATH_SEPARATOR), SEPARATOR, OK, OK, "/a/b"),
                Arguments.of("/a%2fb/..", Set.of(AMBIGUOUS_PATH_SEPARATOR), SEPARATOR, OK, OK, "/"),
                Arguments.of("/..%2F..%2Fetc", Set.of(AMBIGUOUS_PATH_SEPARATOR), SEPARATOR, OK, OK,
                        "/../../etc"),
                Arguments.of("/a%5Cb", Set.of(SUSPICIOUS_PATH_CHARACTERS), SUSPICIOUS, OK, OK, "/a\\b"),
                Arguments.of("/a\\..\\b", Set.of(SUSPICIOUS_PATH_CHARACTERS), SUSPICIOUS, OK, OK, "/a\\..\\b"),
                Arguments.of("//double", Set.of(AMBIGUOUS_EMPTY_SEGMENT), EMPTY, OK, OK, "//double"),
                Arguments.of("/a//b/", Set.of(AMBIGUOUS_EMPTY_SEGMENT), EMPTY, OK, OK, "/a//b/"),
                Arguments.of("/p;jsessionid=1", Set.of(AMBIGUOUS_PATH_PARAMETER), PARAMETER, OK, OK, "/p"),
                Arguments.of("/100%25", Set.of(AMBIGUOUS_PATH_ENCODING), ENCODING, OK, OK, "/100%"),
                Arguments.of("/%252e%252e/", Set.of(AMBIGUOUS_PATH_ENCODING), ENCODING, OK, OK, "/%2e%2e/"),
                Arguments.of("/a/%u002e/b", Set.of(UTF16_ENCODINGS, AMBIGUOUS_PATH_SEGMENT),
                        SEGMENT, SEGMENT, OK, "/a/b"),
                Arguments.of("/%u0041", Set.of(UTF16_ENCODINGS), UTF16, UTF16, OK, "/A"),
                Arguments.of("/%uD83D%uDE00", Set.of(UTF16_ENCODINGS), UTF16, UTF16, OK, "/\uD83D\uDE00"),
                Arguments.of("/%uD83Dx", Set.of(UTF16_ENCODINGS, BAD_PERCENT_ENCODING), UTF16, UTF16, OK,
                        "/\uFFFDx"),
                Arguments.of("/%C0%AE", Set.of(BAD_UTF8_ENCODING), UTF8, UTF8, OK, "/\uFFFD"),
                Arguments.of("/%C0%AE%C0%AE/etc", Set.of(BAD_UTF8_ENCODING), UTF8, UTF8, OK,
                        "/\uFFFD\uFFFD/etc"),
                Arguments.of("/%E0%80%AE", Set.of(BAD_UTF8_ENCODING), UTF8, UTF8, OK, "/\uFFFD"),
                Arguments.of("/%C3", Set.of(BAD_UTF8_ENCODING), UTF8, UTF8, OK, "/\uFFFD"),
                Arguments.of("/%FF", Set.of(BAD_UTF8_ENCODING), UTF8, UTF8, OK, "/\uFFFD"),
                Arguments.of("/%G1", Set.of(BAD_PERCENT_ENCODING), PERCENT, PERCENT, OK, "/%G1"),
                Arguments.of("/a%2", Set.of(BAD_PERCENT_ENCODING), PERCENT, PERCENT, OK, "/a%2"),
                Arguments.of("/a%;x", Set.of(BAD_PERCENT_ENCODING, AMBIGUOUS_PATH_PARAMETER),
                        PARAMETER, PERCENT, OK, "/a%"),
                Arguments.of("/a%01b", Set.of(ILLEGAL_PATH_CHARACTERS), ILLEGAL, ILLEGAL, OK, "/a\u0001b"),
                Arguments.of("/a\tb", Set.of(ILLEGAL_PATH_CHARACTERS), ILLEGAL, ILLEGAL, OK, "/a\tb"),
                Arguments.of("/a%7F", Set.of(ILLEGAL_PATH_CHARACTERS), ILLEGAL, ILLEGAL, OK, "/a\u007f"),
                Arguments.of("/a b", Set.of(ILLEGAL_PATH_CHARACTERS), ILLEGAL, ILLEGAL, OK, "/a b"),
                Arguments.of("/a<b>", Set.of(ILLEGAL_PATH_CHARACTERS), ILLEGAL, ILLEGAL, OK, "/a<b>"),
                Arguments.of("http://user:pass@host/", Set.of(USER_INFO), USER, USER, OK, "/"),
                Arguments.of("/a#frag", Set.of(FRAGMENT), "Fragment in request target", OK, OK, "/a"),
                Arguments.of("https://[::1]:8443/p?q", Set.of(), OK, OK, OK, "/p"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("targets")
    void parsingFindsTheViolations(String target, Set<Violation> violations, String inDefault, String inLegacy,
                                   String inUnsafe, String decodedPath) {
        HttpURI uri = HttpURI.parse(target);
        assertEquals(violations, uri.getViolations());
        assertEquals(decodedPath, uri.getDecodedPath());
        assertEquals(inUnsafe.equals(NUL) || inUnsafe.equals(ABOVE_ROOT), uri.isBad());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("targets")
    void eachModeAcceptsOrRejects(String target, Set<Violation> violations, String inDefault, String inLegacy,
                                  String inUnsafe, String decodedPath) {
        HttpURI uri = HttpURI.parse(target);
        assertEquals(inDefault, outcome(UriCompliance.DEFAULT, uri), "DEFAULT");
        assertEquals(inLegacy, outcome(UriCompliance.LEGACY, uri), "LEGACY");
        assertEquals(inUnsafe, outcome(UriCompliance.UNSAFE, uri), "UNSAFE");
    }

    private static String outcome(UriCompliance mode, HttpURI uri) {
        try {
            mode.check(uri, ComplianceViolation.Listener.NONE);
            return OK;
        } catch (BadMessageException rejected) {
            assertEquals(400, rejected.getStatus());
            return rejected.getReason();
        }
    }

    private record Heard(ComplianceViolation.Mode<?> mode, ComplianceViolation violation, String details) {
    }

    @Test
    void listenerHearsEveryAllowedViolationWithEscapedDetails() {
        List<Heard> heard = new ArrayList<>();
        HttpURI uri = HttpURI.parse("//a;x/b\\c\u0001");
        UriCompliance.UNSAFE.check(uri, (mode, violation, details) -> heard.add(new Heard(mode, violation, details)));
        String details = "//a;x/b\\c%01";
        assertEquals(List.of(
                new Heard(UriCompliance.UNSAFE, AMBIGUOUS_EMPTY_SEGMENT, details),
                new Heard(UriCompliance.UNSAFE, AMBIGUOUS_PATH_PARAMETER, details),
                new Heard(UriCompliance.UNSAFE, SUSPICIOUS_PATH_CHARACTERS, details),
                new Heard(UriCompliance.UNSAFE, ILLEGAL_PATH_CHARACTERS, details)), heard);
    }

    @Test
    void listenerHearsNothingWhenTheUriIsRejected() {
        List<Heard> heard = new ArrayList<>();
        HttpURI uri = HttpURI.parse("//a;x/%u0041");
        BadMessageException rejected = assertThrows(BadMessageException.class, () -> UriCompliance.LEGACY.check(uri,
                (mode, violation, details) -> heard.add(new Heard(mode, violation, details))));
        assertEquals(UTF16, rejected.getReason());
        assertEquals(List.of(), heard);
    }

    @Test
    void detailsAreTruncated() {
        List<String> details = new ArrayList<>();
        UriCompliance.UNSAFE.check(HttpURI.parse("/" + "a/".repeat(1000) + "/"),
                (mode, violation, text) -> details.add(text));
        assertEquals(1, details.size());
        assertEquals(256 + 3, details.get(0).length());
        assertTrue(details.get(0).endsWith("..."));
    }

    @Test
    void legacyAndUnsafeAllowWhatTheySay() {
        assertEquals(Set.of(), UriCompliance.DEFAULT.getAllowed());
        assertEquals(EnumSet.of(AMBIGUOUS_EMPTY_SEGMENT, AMBIGUOUS_PATH_PARAMETER, AMBIGUOUS_PATH_SEPARATOR,
                AMBIGUOUS_PATH_ENCODING, SUSPICIOUS_PATH_CHARACTERS, FRAGMENT), UriCompliance.LEGACY.getAllowed());
        assertEquals(EnumSet.allOf(Violation.class), UriCompliance.UNSAFE.getAllowed());
        assertThrows(UnsupportedOperationException.class, () -> UriCompliance.DEFAULT.getAllowed().add(FRAGMENT));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # specification                                   | allowed
            DEFAULT                                           | ''
            DEFAULT,-AMBIGUOUS_EMPTY_SEGMENT,+USER_INFO       | USER_INFO
            DEFAULT, +FRAGMENT , AMBIGUOUS_PATH_ENCODING,     | AMBIGUOUS_PATH_ENCODING FRAGMENT
            legacy,-fragment,+utf16_encodings                 | AMBIGUOUS_EMPTY_SEGMENT AMBIGUOUS_PATH_PARAMETER AMBIGUOUS_PATH_SEPARATOR AMBIGUOUS_PATH_ENCODING SUSPICIOUS_PATH_CHARACTERS UTF16_ENCODINGS
            UNSAFE,-ILLEGAL_PATH_CHARACTERS,-BAD_UTF8_ENCODING | AMBIGUOUS_PATH_SEGMENT AMBIGUOUS_EMPTY_SEGMENT AMBIGUOUS_PATH_SEPARATOR AMBIGUOUS_PATH_PARAMETER AMBIGUOUS_PATH_ENCODING SUSPICIOUS_PATH_CHARACTERS USER_INFO UTF16_ENCODINGS BAD_PERCENT_ENCODING FRAGMENT
            """)
    void readsModesFromConfiguration(String specification, String allowed) {
        UriCompliance mode = UriCompliance.from(specification);
        Set<Violation> expected = EnumSet.noneOf(Violation.class);
        for (String name : allowed.split(" ")) {
            if (!name.isEmpty()) {
                expected.add(Violation.valueOf(name));
            }
        }
        assertEquals(expected, mode.getAllowed());
        assertEquals(specification.trim(), mode.getName());
    }

    @Test
    void namedModesComeBackAsThemselves() {
        assertSame(UriCompliance.DEFAULT, UriCompliance.from("DEFAULT"));
        assertSame(UriCompliance.LEGACY, UriCompliance.from(" legacy "));
        assertSame(UriCompliance.UNSAFE, UriCompliance.from("UNSAFE"));
        assertEquals("custom", UriCompliance.of("custom", Set.of(USER_INFO)).getName());
        assertTrue(UriCompliance.of("custom", Set.of(USER_INFO)).allows(USER_INFO));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # specification          | message
            STRICT                   | unknown URI compliance mode 'STRICT'
            ''                       | unknown URI compliance mode ''
            DEFAULT,+NO_SUCH         | unknown URI compliance violation 'NO_SUCH'
            DEFAULT,-                | unknown URI compliance violation ''
            """)
    void refusesUnknownNames(String specification, String message) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> UriCompliance.from(specification));
        assertTrue(refused.getMessage().startsWith(message), refused.getMessage());
    }

    @Test
    void everyViolationHasANameAStandardAndADescription() {
        for (Violation violation : Violation.values()) {
            assertEquals(violation.name(), violation.getName());
            assertTrue(violation.getStandard().startsWith("RFC "), violation.getStandard());
            assertTrue(!violation.getDescription().isBlank());
        }
    }
}
