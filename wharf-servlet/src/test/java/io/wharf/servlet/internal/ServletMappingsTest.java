package io.wharf.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.servlet.http.MappingMatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which servlet a path maps to and the values the request reports for it (Servlet 6.1 chapter
 * 12, {@code HttpServletMapping}, {@code getServletPath}, {@code getPathInfo}). Each table row
 * is: path | target | kind | pattern | servletPath | pathInfo | matchValue, with {@code null}
 * for a null path info and {@code ''} for the empty string.
 */
class ServletMappingsTest {

    /** Section 12.2.2, tables 12-1 and 12-2, plus a default servlet for the row that falls to it. */
    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
        /foo/bar/index.html  | servlet1 | PATH      | /foo/bar/* | /foo/bar             | /index.html | index.html
        /foo/bar/index.bop   | servlet1 | PATH      | /foo/bar/* | /foo/bar             | /index.bop  | index.bop
        /baz                 | servlet2 | PATH      | /baz/*     | /baz                 | null        | ''
        /baz/index.html      | servlet2 | PATH      | /baz/*     | /baz                 | /index.html | index.html
        /catalog             | servlet3 | EXACT     | /catalog   | /catalog             | null        | catalog
        /catalog/index.html  | default  | DEFAULT   | /          | /catalog/index.html  | null        | ''
        /catalog/racecar.bop | servlet4 | EXTENSION | *.bop      | /catalog/racecar.bop | null        | catalog/racecar
        /index.bop           | servlet4 | EXTENSION | *.bop      | /index.bop           | null        | index
        """)
    void theSpecificationsExampleMappingSet(String path, String target, MappingMatch kind, String pattern, String servletPath,
                                            String pathInfo, String matchValue) {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/foo/bar/*", "servlet1");
        mappings.add("/baz/*", "servlet2");
        mappings.add("/catalog", "servlet3");
        mappings.add("*.bop", "servlet4");
        mappings.add("/", "default");
        assertMatch(mappings, path, target, kind, pattern, servletPath, pathInfo, matchValue);
    }

    /**
     * The table in the javadoc of HttpServletMapping (Servlet 6.1), with the container's default servlet as "default". The
     * javadoc writes two of its paths without their leading '/' ("MyServlet/index.html", "MyServlet/foo"), which no path in
     * a context lacks; they are given with it here, and such a path is refused ({@link #aPathWithoutLeadingSlashIsRefused}).
     */
    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
        ''                   | MyServlet | CONTEXT_ROOT | ''          | ''                   | /        | ''
        /                    | MyServlet | CONTEXT_ROOT | ''          | ''                   | /        | ''
        /index.html          | default   | DEFAULT      | /           | /index.html          | null     | ''
        /MyServlet/index.html | default  | DEFAULT      | /           | /MyServlet/index.html | null    | ''
        /MyServlet           | MyServlet | EXACT        | /MyServlet  | /MyServlet           | null     | MyServlet
        /MyServlet/foo       | default   | DEFAULT      | /           | /MyServlet/foo       | null     | ''
        /foo.extension       | MyServlet | EXTENSION    | *.extension | /foo.extension       | null     | foo
        /bar/foo.extension   | MyServlet | EXTENSION    | *.extension | /bar/foo.extension   | null     | bar/foo
        /path/foo            | MyServlet | PATH         | /path/*     | /path                | /foo     | foo
        /path/foo/bar        | MyServlet | PATH         | /path/*     | /path                | /foo/bar | foo/bar
        """)
    void theHttpServletMappingJavadocTable(String path, String target, MappingMatch kind, String pattern, String servletPath,
                                           String pathInfo, String matchValue) {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/MyServlet", "MyServlet");
        mappings.add("", "MyServlet");
        mappings.add("*.extension", "MyServlet");
        mappings.add("/path/*", "MyServlet");
        mappings.add("/", "default");
        assertMatch(mappings, path, target, kind, pattern, servletPath, pathInfo, matchValue);
    }

    /** Rule 2: the longest prefix wins, by whole segments; a prefix is tried before an extension, after an exact match. */
    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
        /a            | A       | PATH      | /a/*     | /a          | null      | ''
        /a/           | A       | PATH      | /a/*     | /a          | /         | ''
        /a/x          | A       | PATH      | /a/*     | /a          | /x        | x
        /a/bc         | A       | PATH      | /a/*     | /a          | /bc       | bc
        /a/b          | exact   | EXACT     | /a/b     | /a/b        | null      | a/b
        /a/b/         | AB      | PATH      | /a/b/*   | /a/b        | /         | ''
        /a/b/x        | AB      | PATH      | /a/b/*   | /a/b        | /x        | x
        /a/b/cd       | AB      | PATH      | /a/b/*   | /a/b        | /cd       | cd
        /a/b/c        | ABC     | PATH      | /a/b/c/* | /a/b/c      | null      | ''
        /a/b/c/d/e    | ABC     | PATH      | /a/b/c/* | /a/b/c      | /d/e      | d/e
        /a/x.jsp      | A       | PATH      | /a/*     | /a          | /x.jsp    | x.jsp
        /a/b/c/x.jsp  | ABC     | PATH      | /a/b/c/* | /a/b/c      | /x.jsp    | x.jsp
        /ab           | default | DEFAULT   | /        | /ab         | null      | ''
        /ab/x.jsp     | jsp     | EXTENSION | *.jsp    | /ab/x.jsp   | null      | ab/x
        /A/b          | default | DEFAULT   | /        | /A/b        | null      | ''
        /b/a/x        | default | DEFAULT   | /        | /b/a/x      | null      | ''
        """)
    void theLongestPrefixWinsBySegments(String path, String target, MappingMatch kind, String pattern, String servletPath,
                                        String pathInfo, String matchValue) {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/a/b/c/*", "ABC");
        mappings.add("/a/*", "A");
        mappings.add("/a/b/*", "AB");
        mappings.add("/a/b", "exact");
        mappings.add("*.jsp", "jsp");
        mappings.add("/", "default");
        assertMatch(mappings, path, target, kind, pattern, servletPath, pathInfo, matchValue);
    }

    /** Rule 3: the extension is what follows the last '.' of the last segment, and only there. */
    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
        /a.b/c       | default | DEFAULT   | /   | /a.b/c       | null | ''
        /a.b/c.b     | B       | EXTENSION | *.b | /a.b/c.b     | null | a.b/c
        /x/c.y.b     | B       | EXTENSION | *.b | /x/c.y.b     | null | x/c.y
        /x/c.b.y     | Y       | EXTENSION | *.y | /x/c.b.y     | null | x/c.b
        /x/.b        | B       | EXTENSION | *.b | /x/.b        | null | x/
        /x.b/        | default | DEFAULT   | /   | /x.b/        | null | ''
        /x/b.        | default | DEFAULT   | /   | /x/b.        | null | ''
        /x.B         | default | DEFAULT   | /   | /x.B         | null | ''
        /x.bb        | default | DEFAULT   | /   | /x.bb        | null | ''
        """)
    void theExtensionIsOnlyOnTheLastSegment(String path, String target, MappingMatch kind, String pattern, String servletPath,
                                            String pathInfo, String matchValue) {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("*.b", "B");
        mappings.add("*.y", "Y");
        mappings.add("/", "default");
        assertMatch(mappings, path, target, kind, pattern, servletPath, pathInfo, matchValue);
    }

    /** "" is an exact match of the context root, so it wins over "/*" there; "/*" takes every other path; "/" gets nothing. */
    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
        ''       | root    | CONTEXT_ROOT | ''   | ''     | /      | ''
        /        | root    | CONTEXT_ROOT | ''   | ''     | /      | ''
        /x       | all     | PATH         | /*   | ''     | /x     | x
        /x/y.z   | all     | PATH         | /*   | ''     | /x/y.z | x/y.z
        /exact   | exact   | EXACT        | /exact | /exact | null | exact
        //       | all     | PATH         | /*   | ''     | //     | /
        """)
    void contextRootThenExactThenSlashStar(String path, String target, MappingMatch kind, String pattern, String servletPath,
                                           String pathInfo, String matchValue) {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/*", "all");
        mappings.add("/", "default");
        mappings.add("", "root");
        mappings.add("/exact", "exact");
        mappings.add("*.z", "z");
        assertMatch(mappings, path, target, kind, pattern, servletPath, pathInfo, matchValue);
    }

    /** Without "", "/*" takes the context root too, with the servlet path "" (getServletPath's javadoc). */
    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
        ''   | all | PATH | /* | '' | null | ''
        /    | all | PATH | /* | '' | /    | ''
        /a/b | all | PATH | /* | '' | /a/b | a/b
        """)
    void slashStarAlone(String path, String target, MappingMatch kind, String pattern, String servletPath, String pathInfo,
                        String matchValue) {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/*", "all");
        mappings.add("/", "default");
        assertMatch(mappings, path, target, kind, pattern, servletPath, pathInfo, matchValue);
    }

    /** The default servlet: the servlet path is the whole path and there is no path info (section 12.2). */
    @ParameterizedTest(name = "[{index}] \"{0}\" -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
        /       | default | DEFAULT | / | /       | null | ''
        ''      | default | DEFAULT | / | ''      | null | ''
        /a/b.c  | default | DEFAULT | / | /a/b.c  | null | ''
        /a/     | default | DEFAULT | / | /a/     | null | ''
        """)
    void defaultAlone(String path, String target, MappingMatch kind, String pattern, String servletPath, String pathInfo,
                      String matchValue) {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/", "default");
        assertMatch(mappings, path, target, kind, pattern, servletPath, pathInfo, matchValue);
    }

    @Test
    void nothingMatchesWithoutADefaultServlet() {
        ServletMappings<String> mappings = new ServletMappings<>();
        assertNull(mappings.match("/"));
        assertNull(mappings.match(""));
        mappings.add("/a/*", "A");
        mappings.add("/b", "B");
        mappings.add("*.c", "C");
        mappings.add("", "root");
        assertNull(mappings.match("/ab"));
        assertNull(mappings.match("/b/"));
        assertNull(mappings.match("/x.cc"));
        assertNull(mappings.match("/x"));
        assertEquals("root", mappings.match("/").target());
    }

    @Test
    void aPrefixLongerThanThePathIsNotAMatch() {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/a/b/c/d/*", "long");
        assertNull(mappings.match("/a/b"));
        assertNull(mappings.match("/a/b/c/"));
        assertNull(mappings.match("/a/b/c/dd"));
        assertEquals("/a/b/c/d", mappings.match("/a/b/c/d/").servletPath());
    }

    @Test
    void manyPatternsStayFindable() {
        ServletMappings<Integer> mappings = new ServletMappings<>();
        for (int i = 0; i < 500; i++) {
            mappings.add("/exact/" + i, i);
            mappings.add("/prefix/" + i + "/*", 1000 + i);
            mappings.add("*.e" + i, 2000 + i);
        }
        for (int i = 0; i < 500; i++) {
            assertEquals(i, mappings.match("/exact/" + i).target());
            assertEquals(1000 + i, mappings.match("/prefix/" + i + "/x/y").target());
            assertEquals(2000 + i, mappings.match("/any/file.e" + i).target());
        }
        assertNull(mappings.match("/exact/500"));
    }

    @Test
    void aPatternMappedToAnotherTargetFails() {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/a", "one");
        mappings.add("/a/*", "one");
        mappings.add("*.a", "one");
        mappings.add("/", "one");
        mappings.add("", "one");
        String rule = " (Servlet 6.1 section 12.2: a url-pattern mapped to more than one servlet fails the deployment)";
        for (String pattern : new String[] {"/a", "/a/*", "*.a", "/", ""}) {
            IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> mappings.add(pattern, "two"));
            assertEquals("url-pattern \"" + pattern + "\" is already mapped to one and cannot also be mapped to two" + rule,
                failure.getMessage());
            assertEquals("one", mappings.targetOf(pattern));
        }
        assertEquals("one", mappings.match("/a").target());
    }

    @Test
    void aPatternMappedAgainToTheSameTargetIsKept() {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/a/*", "one");
        mappings.add("/a/*", "one");
        assertEquals("one", mappings.targetOf("/a/*"));
        assertEquals(MappingMatch.PATH, mappings.match("/a/b").mappingMatch());
    }

    @Test
    void patternsOfDifferentKindsDoNotClash() {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/a", "exact");
        mappings.add("/a/*", "prefix");
        mappings.add("*.a", "extension");
        assertEquals("exact", mappings.targetOf("/a"));
        assertEquals("prefix", mappings.targetOf("/a/*"));
        assertEquals("extension", mappings.targetOf("*.a"));
        assertNull(mappings.targetOf("/b"));
        assertNull(mappings.targetOf("/"));
        assertNull(mappings.targetOf(""));
    }

    @Test
    void anInvalidPatternFailsAndLeavesTheTableAlone() {
        ServletMappings<String> mappings = new ServletMappings<>();
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> mappings.add("/a/*.jsp", "x"));
        assertEquals("url-pattern \"/a/*.jsp\" is not valid: path spec '/a/*.jsp' has '*' at index 3; '*' is only allowed as"
            + " a final '/*' or a leading '*.' (Servlet 6.1 section 12.2)", failure.getMessage());
        assertNull(mappings.match("/a/x.jsp"));
        assertThrows(NullPointerException.class, () -> mappings.add("/b", null));
        assertNull(mappings.targetOf("/b"));
    }

    /** The path specs' regular expressions and URI templates are not url-patterns. */
    @Test
    void aRegexOrATemplateIsRefused() {
        ServletMappings<String> mappings = new ServletMappings<>();
        for (String pattern : new String[] {"^/a/.*$", "/users/{id}", "/a{b"}) {
            IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> mappings.add(pattern, "x"));
            assertEquals("url-pattern \"" + pattern + "\" is not valid: a url-pattern is \"\", \"/\", \"/dir/*\", \"*.ext\" or an"
                + " exact path; regular expressions and URI templates are not url-patterns (Servlet 6.1 section 12.2)",
                failure.getMessage());
        }
        assertNull(mappings.match("/a/b"));
    }

    @Test
    void aPathWithoutLeadingSlashIsRefused() {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("/", "default");
        mappings.add("/*", "all");
        assertThrows(IllegalArgumentException.class, () -> mappings.match("MyServlet/foo"));
        assertThrows(IllegalArgumentException.class, () -> mappings.match("x.jsp"));
    }

    /** "//*" maps "/" (its prefix is "/") but not "": the empty path goes to the root, "/*" or the default only. */
    @Test
    void theEmptyPathIsNotMatchedByAPrefixOtherThanSlashStar() {
        ServletMappings<String> mappings = new ServletMappings<>();
        mappings.add("//*", "slash");
        assertEquals(new ServletMatch<>("slash", MappingMatch.PATH, "//*", "/", null, ""), mappings.match("/"));
        assertNull(mappings.match(""));
        mappings.add("/", "default");
        assertEquals(new ServletMatch<>("default", MappingMatch.DEFAULT, "/", "", null, ""), mappings.match(""));
        mappings.add("/*", "all");
        assertEquals(new ServletMatch<>("all", MappingMatch.PATH, "/*", "", null, ""), mappings.match(""));
        assertEquals("slash", mappings.match("/").target());
    }

    private static void assertMatch(ServletMappings<String> mappings, String path, String target, MappingMatch kind, String pattern,
                                    String servletPath, String pathInfo, String matchValue) {
        ServletMatch<String> match = mappings.match(path);
        assertEquals(new ServletMatch<>(target, kind, pattern, servletPath, pathInfo, matchValue), match);
        // What the request reports: the servlet path and the path info put the path back together.
        assertEquals(path.isEmpty() && kind == MappingMatch.CONTEXT_ROOT ? "/" : path,
            match.servletPath() + (match.pathInfo() == null ? "" : match.pathInfo()));
    }
}
