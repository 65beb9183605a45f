package io.wharf.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.wharf.http.pathmap.PathSpec;

import jakarta.servlet.http.MappingMatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One url-pattern: the path spec and kind it declares (Servlet 6.1 section 12.2), what is refused, and how it matches alone. */
class UrlPatternsTest {

    private static final String RULES = " (Servlet 6.1 section 12.2)";
    private static final String START_RULE = "must start with '/' or '*.', or be empty" + RULES;
    private static final String STAR_RULE = "'*' is only allowed as a final '/*' or a leading '*.'" + RULES;

    @ParameterizedTest(name = "[{index}] \"{0}\" is {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
        ''             | CONTEXT_ROOT | RootPathSpec[]
        /              | DEFAULT      | DefaultPathSpec[]
        /*             | PATH         | PrefixPathSpec[prefix=]
        /a/*           | PATH         | PrefixPathSpec[prefix=/a]
        /a/b/*         | PATH         | PrefixPathSpec[prefix=/a/b]
        //*            | PATH         | PrefixPathSpec[prefix=/]
        *.jsp          | EXTENSION    | SuffixPathSpec[suffix=jsp]
        *.JSP          | EXTENSION    | SuffixPathSpec[suffix=JSP]
        /a             | EXACT        | ExactPathSpec[path=/a]
        /a/            | EXACT        | ExactPathSpec[path=/a/]
        /a/b.jsp       | EXACT        | ExactPathSpec[path=/a/b.jsp]
        //             | EXACT        | ExactPathSpec[path=//]
        '/with space'  | EXACT        | ExactPathSpec[path=/with space]
        """)
    void readsEachKind(String pattern, MappingMatch kind, String spec) {
        PathSpec parsed = UrlPatterns.parse(pattern);
        assertEquals(spec, parsed.toString());
        assertEquals(kind, UrlPatterns.mappingMatchOf(parsed));
        assertEquals(pattern, parsed.getDeclaration());
    }

    @Test
    void refusesNull() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> UrlPatterns.parse(null));
        assertEquals("a url-pattern must not be null (Servlet 6.1 section 12.2)", failure.getMessage());
    }

    @Test
    void refusesAPatternThatStartsWithNeitherSlashNorStarDot() {
        assertInvalid("foo", "servlet path spec 'foo' " + START_RULE);
        assertInvalid("foo/*", "servlet path spec 'foo/*' " + START_RULE);
        assertInvalid("*", "servlet path spec '*' " + START_RULE);
        assertInvalid("*jsp", "servlet path spec '*jsp' " + START_RULE);
        assertInvalid(" /a", "servlet path spec ' /a' " + START_RULE);
    }

    @Test
    void refusesAnExtensionThatNoPathCanHave() {
        assertInvalid("*.", "suffix path spec '*.' has an empty suffix" + RULES);
        assertInvalid("*.a/b", "suffix path spec '*.a/b' has a '/' in its suffix; a suffix matches within the last segment only"
            + RULES);
        assertInvalid("*./", "suffix path spec '*./' has a '/' in its suffix; a suffix matches within the last segment only"
            + RULES);
        assertInvalid("*.tar.gz", "an extension is what follows the last '.' of the last path segment, so it cannot hold '.'"
            + " (Servlet 6.1 section 12.1, rule 3)");
        assertInvalid("*.j*p", "suffix path spec '*.j*p' has a second '*'; " + STAR_RULE);
        assertInvalid("*.*", "suffix path spec '*.*' has a second '*'; " + STAR_RULE);
    }

    @Test
    void refusesAStarAnywhereElse() {
        assertInvalid("/a/*.jsp", "path spec '/a/*.jsp' has '*' at index 3; " + STAR_RULE);
        assertInvalid("/a/*/b", "path spec '/a/*/b' has '*' at index 3; " + STAR_RULE);
        assertInvalid("/a*", "path spec '/a*' has '*' at index 2; " + STAR_RULE);
        assertInvalid("/a/b*", "path spec '/a/b*' has '*' at index 4; " + STAR_RULE);
        assertInvalid("/**", "path spec '/**' has '*' at index 1; " + STAR_RULE);
        assertInvalid("/*/*", "path spec '/*/*' has '*' at index 1; " + STAR_RULE);
        assertInvalid("/a*/*", "path spec '/a*/*' has '*' at index 2; " + STAR_RULE);
    }

    /** What the path specs would read as a regular expression or a URI template. */
    @Test
    void refusesARegexOrATemplate() {
        String rule = "a url-pattern is \"\", \"/\", \"/dir/*\", \"*.ext\" or an exact path;"
            + " regular expressions and URI templates are not url-patterns" + RULES;
        assertInvalid("^/a", rule);
        assertInvalid("^.*\\.jsp$", rule);
        assertInvalid("/users/{id}", rule);
        assertInvalid("/a{", rule);
        assertInvalid("*.{jsp}", rule);
    }

    @Test
    void givesNoMappingMatchForARegexOrATemplate() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> UrlPatterns.mappingMatchOf(PathSpec.from("/users/{id}")));
        assertEquals("path spec \"/users/{id}\" is not a url-pattern" + RULES, failure.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UrlPatterns.mappingMatchOf(PathSpec.from("^/a$")));
    }

    @Test
    void refusesCarriageReturnAndLineFeed() {
        String rule = "it holds a CR or LF, which the deployment descriptor's url-patternType forbids";
        assertEquals("url-pattern \"/a\\nb\" is not valid: " + rule,
            assertThrows(IllegalArgumentException.class, () -> UrlPatterns.parse("/a\nb")).getMessage());
        assertEquals("url-pattern \"*.j\\rsp\" is not valid: " + rule,
            assertThrows(IllegalArgumentException.class, () -> UrlPatterns.parse("*.j\rsp")).getMessage());
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
        assertEquals(expected, UrlPatterns.matches(UrlPatterns.parse(pattern), path));
    }

    @Test
    void refusesAPathWithoutLeadingSlash() {
        assertThrows(IllegalArgumentException.class, () -> UrlPatterns.matches(UrlPatterns.parse("/"), "a"));
    }

    private static void assertInvalid(String pattern, String why) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> UrlPatterns.parse(pattern));
        assertEquals("url-pattern \"" + pattern + "\" is not valid: " + why, failure.getMessage());
    }
}
