package io.wharf.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.servlet.http.MappingMatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One url-pattern: its kind and key (Servlet 6.1 section 12.2), what is refused, and how it matches alone. */
class UrlPatternTest {

    private static final String START_RULE = "it must be \"\", \"/\", start with '/' or start with \"*.\" (Servlet 6.1 section 12.2)"
        + "; a path in a context starts with '/', so as an exact pattern it could never match";
    private static final String STAR_RULE = "a '*' may only end a path pattern (\"/dir/*\") or start an extension pattern"
        + " (\"*.ext\") (Servlet 6.1 section 12.2)";

    @ParameterizedTest(name = "[{index}] \"{0}\" is {1} by \"{2}\"")
    @CsvSource(delimiter = '|', textBlock = """
        ''             | CONTEXT_ROOT | ''
        /              | DEFAULT      | ''
        /*             | PATH         | ''
        /a/*           | PATH         | /a
        /a/b/*         | PATH         | /a/b
        //*            | PATH         | /
        *.jsp          | EXTENSION    | jsp
        *.JSP          | EXTENSION    | JSP
        /a             | EXACT        | /a
        /a/            | EXACT        | /a/
        /a/b.jsp       | EXACT        | /a/b.jsp
        //             | EXACT        | //
        '/with space'  | EXACT        | '/with space'
        """)
    void parsesEachKind(String pattern, MappingMatch kind, String key) {
        UrlPattern parsed = UrlPattern.parse(pattern);
        assertEquals(pattern, parsed.pattern());
        assertEquals(kind, parsed.kind());
        assertEquals(key, parsed.key());
        assertEquals(pattern, parsed.toString());
    }

    @Test
    void refusesNull() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> UrlPattern.parse(null));
        assertEquals("a url-pattern must not be null (Servlet 6.1 section 12.2)", failure.getMessage());
    }

    @Test
    void refusesAPatternThatStartsWithNeitherSlashNorStarDot() {
        assertInvalid("foo", START_RULE);
        assertInvalid("foo/*", START_RULE);
        assertInvalid("*", START_RULE);
        assertInvalid("*jsp", START_RULE);
        assertInvalid(" /a", START_RULE);
    }

    @Test
    void refusesAnExtensionThatNoPathCanHave() {
        assertInvalid("*.", "an extension pattern needs an extension after \"*.\" (Servlet 6.1 section 12.2)");
        assertInvalid("*.a/b", "an extension belongs to the last path segment, so it cannot hold '/' (Servlet 6.1 section 12.1, rule 3)");
        assertInvalid("*./", "an extension belongs to the last path segment, so it cannot hold '/' (Servlet 6.1 section 12.1, rule 3)");
        assertInvalid("*.tar.gz", "an extension is what follows the last '.' of the last path segment, so it cannot hold '.'"
            + " (Servlet 6.1 section 12.1, rule 3)");
        assertInvalid("*.j*p", STAR_RULE);
        assertInvalid("*.*", STAR_RULE);
    }

    @Test
    void refusesAStarAnywhereElse() {
        assertInvalid("/a/*.jsp", STAR_RULE);
        assertInvalid("/a/*/b", STAR_RULE);
        assertInvalid("/a*", STAR_RULE);
        assertInvalid("/a/b*", STAR_RULE);
        assertInvalid("/**", STAR_RULE);
        assertInvalid("/*/*", STAR_RULE);
        assertInvalid("/a*/*", STAR_RULE);
    }

    @Test
    void refusesCarriageReturnAndLineFeed() {
        String rule = "it holds a CR or LF, which the deployment descriptor's url-patternType forbids";
        assertEquals("url-pattern \"/a\\nb\" is not valid: " + rule,
            assertThrows(IllegalArgumentException.class, () -> UrlPattern.parse("/a\nb")).getMessage());
        assertEquals("url-pattern \"*.j\\rsp\" is not valid: " + rule,
            assertThrows(IllegalArgumentException.class, () -> UrlPattern.parse("*.j\rsp")).getMessage());
    }

    /** Tested alone, as a filter's pattern is (section 6.2.4 by the rules of 12.1). */
    @ParameterizedTest(name = "[{index}] \"{0}\" matches \"{1}\": {2}")
    @CsvSource(delimiter = '|', textBlock = """
        ''        | /            | true
        ''        | ''           | true
        ''        | /a           | false
        /         | /            | true
        /         | /a/b.c       | true
        /         | ''           | true
        /*        | /            | true
        /*        | /a/b         | true
        /*        | ''           | true
        /a/*      | /a           | true
        /a/*      | /a/          | true
        /a/*      | /a/b/c       | true
        /a/*      | /ab          | false
        /a/*      | /b/a         | false
        /a/*      | /A/b         | false
        /a/b/*    | /a           | false
        /a/b/*    | /a/b/c       | true
        /a/b/*    | /a/bc        | false
        *.jsp     | /x.jsp       | true
        *.jsp     | /a/b/x.jsp   | true
        *.jsp     | /x.y.jsp     | true
        *.jsp     | /.jsp        | true
        *.jsp     | /a.jsp/b     | false
        *.jsp     | /x.jspx      | false
        *.jsp     | /x.JSP       | false
        *.jsp     | /xjsp        | false
        *.jsp     | /x.jsp/      | false
        *.b       | /a.b/c       | false
        /a        | /a           | true
        /a        | /a/          | false
        /a        | /a/b         | false
        /a        | /A           | false
        """)
    void matchesAlone(String pattern, String path, boolean expected) {
        assertEquals(expected, UrlPattern.parse(pattern).matches(path));
    }

    @ParameterizedTest(name = "[{index}] extension of \"{0}\" starts at {1}")
    @CsvSource(delimiter = '|', textBlock = """
        /a.jsp     | 3
        /a.b/c     | -1
        /a.b/c.d   | 7
        /a/b.      | 5
        /a/.b      | 4
        /a         | -1
        ''         | -1
        x.y        | 2
        """)
    void findsTheExtensionOfTheLastSegment(String path, int start) {
        assertEquals(start, UrlPattern.extensionStart(path));
    }

    @Test
    void equalWhenDeclaredAsTheSameString() {
        assertEquals(UrlPattern.parse("/a/*"), UrlPattern.parse("/a/*"));
        assertEquals(UrlPattern.parse("/a/*").hashCode(), UrlPattern.parse("/a/*").hashCode());
        assertNotEquals(UrlPattern.parse("/a/*"), UrlPattern.parse("/a"));
    }

    private static void assertInvalid(String pattern, String why) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> UrlPattern.parse(pattern));
        assertEquals("url-pattern \"" + pattern + "\" is not valid: " + why, failure.getMessage());
    }
}
