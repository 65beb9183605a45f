package io.wharf.http.pathmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.wharf.http.BadMessageException;
import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathSpecTest {

    /** declaration, path, matches?, pathMatch, pathInfo, parameters */
    static Stream<Arguments> matches() {
        return Stream.of(
                // exact
                Arguments.of("/a/b", "/a/b", true, "/a/b", null, Map.of()),
                Arguments.of("/a/b", "/a/b/", false, null, null, null),
                Arguments.of("/a/b", "/a", false, null, null, null),
                Arguments.of("/a/b", "/a/bc", false, null, null, null),
                Arguments.of("/a/", "/a/", true, "/a/", null, Map.of()),
                // prefix
                Arguments.of("/a/*", "/a", true, "/a", null, Map.of()),
                Arguments.of("/a/*", "/a/", true, "/a", "/", Map.of()),
                Arguments.of("/a/*", "/a/b/c", true, "/a", "/b/c", Map.of()),
                Arguments.of("/a/*", "/ab", false, null, null, null),
                Arguments.of("/a/*", "/", false, null, null, null),
                Arguments.of("/a/b/*", "/a/b/c.jsp", true, "/a/b", "/c.jsp", Map.of()),
                Arguments.of("/a/b/*", "/a/bc/d", false, null, null, null),
                Arguments.of("/*", "/", true, "", "/", Map.of()),
                Arguments.of("/*", "/x/y", true, "", "/x/y", Map.of()),
                // suffix
                Arguments.of("*.jsp", "/a/b.jsp", true, "/a/b.jsp", null, Map.of()),
                Arguments.of("*.jsp", "/.jsp", true, "/.jsp", null, Map.of()),
                Arguments.of("*.jsp", "/b.jsp/c", false, null, null, null),
                Arguments.of("*.jsp", "/bjsp", false, null, null, null),
                Arguments.of("*.jsp", "/a.jspx", false, null, null, null),
                Arguments.of("*.jsp", "/jsp", false, null, null, null),
                Arguments.of("*.jsp", "/", false, null, null, null),
                Arguments.of("*.tar.gz", "/x.tar.gz", true, "/x.tar.gz", null, Map.of()),
                Arguments.of("*.tar.gz", "/x.gz", false, null, null, null),
                Arguments.of("*.tar.gz", "/x.tar/y.gz", false, null, null, null),
                Arguments.of("*.gz", "/x.tar.gz", true, "/x.tar.gz", null, Map.of()),
                // root and default
                Arguments.of("", "/", true, "", "/", Map.of()),
                Arguments.of("", "/a", false, null, null, null),
                Arguments.of("/", "/", true, "/", null, Map.of()),
                Arguments.of("/", "/anything/x.jsp", true, "/anything/x.jsp", null, Map.of()),
                // regex
                Arguments.of("^/api/(?<id>[0-9]+)$", "/api/42", true, "/api/42", null, Map.of("1", "42", "id", "42")),
                Arguments.of("^/api/(?<id>[0-9]+)$", "/api/x", false, null, null, null),
                Arguments.of("^/api/(?<id>[0-9]+)$", "/api/42/", false, null, null, null),
                Arguments.of("^/api/[0-9]+", "/api/42", true, "/api/42", null, Map.of()),
                Arguments.of("^/api/[0-9]+", "/api/42x", false, null, null, null),
                Arguments.of("^/a/(b)?(c)$", "/a/c", true, "/a/c", null, Map.of("2", "c")),
                Arguments.of("^.*\\.jsp$", "/x/y.jsp", true, "/x/y.jsp", null, Map.of()),
                Arguments.of("^(?<pathMatch>/api)(?<pathInfo>/.*)?$", "/api/x/y", true, "/api", "/x/y",
                        Map.of("1", "/api", "2", "/x/y", "pathMatch", "/api", "pathInfo", "/x/y")),
                Arguments.of("^(?<pathMatch>/api)(?<pathInfo>/.*)?$", "/api", true, "/api", null,
                        Map.of("1", "/api", "pathMatch", "/api")),
                Arguments.of("^(?<pathMatch>/api)(?<pathInfo>/.*)?$", "/apix", false, null, null, null),
                // URI templates
                Arguments.of("/users/{id}/posts/{post}", "/users/7/posts/99", true, "/users/7/posts/99", null,
                        Map.of("id", "7", "post", "99")),
                Arguments.of("/users/{id}/posts/{post}", "/users/7/posts", false, null, null, null),
                Arguments.of("/users/{id}/posts/{post}", "/users/7/posts/", false, null, null, null),
                Arguments.of("/users/{id}/posts/{post}", "/users/7/posts/99/x", false, null, null, null),
                Arguments.of("/users/{id}/posts/{post}", "/users//posts/1", false, null, null, null),
                Arguments.of("/users/{id}/posts/{post}", "/users/7/post/1", false, null, null, null),
                Arguments.of("/users/{id}", "/users/a b%", true, "/users/a b%", null, Map.of("id", "a b%")),
                Arguments.of("/users/{user.id}", "/users/x", true, "/users/x", null, Map.of("user.id", "x")),
                Arguments.of("/files/{name}/", "/files/x/", true, "/files/x/", null, Map.of("name", "x")),
                Arguments.of("/files/{name}/", "/files/x", false, null, null, null),
                Arguments.of("/{a}", "/x", true, "/x", null, Map.of("a", "x")),
                Arguments.of("/{a}", "/", false, null, null, null),
                Arguments.of("/{a}", "/x/", false, null, null, null),
                Arguments.of("/{lang}/index.html", "/fr/index.html", true, "/fr/index.html", null, Map.of("lang", "fr")),
                Arguments.of("/{lang}/index.html", "/fr/index.htm", false, null, null, null));
    }

    @ParameterizedTest(name = "[{index}] {0} on {1}")
    @MethodSource
    void matches(String declaration, String path, boolean matches, String pathMatch, String pathInfo,
            Map<String, String> parameters) {
        MatchedPath matched = PathSpec.from(declaration).matched(path);
        if (!matches) {
            assertNull(matched);
            return;
        }
        assertEquals(new MatchedPath(pathMatch, pathInfo, parameters), matched);
    }

    /** declaration, kind, group, spec length, path depth */
    static Stream<Arguments> kindsAndGroups() {
        return Stream.of(
                Arguments.of("/a/b", ExactPathSpec.class, PathSpecGroup.EXACT, 4, 2),
                Arguments.of("", RootPathSpec.class, PathSpecGroup.ROOT, 0, 0),
                Arguments.of("/a/*", PrefixPathSpec.class, PathSpecGroup.PREFIX_GLOB, 4, 2),
                Arguments.of("/*", PrefixPathSpec.class, PathSpecGroup.PREFIX_GLOB, 2, 1),
                Arguments.of("*.jsp", SuffixPathSpec.class, PathSpecGroup.SUFFIX_GLOB, 5, 0),
                Arguments.of("/", DefaultPathSpec.class, PathSpecGroup.DEFAULT, 1, 1),
                Arguments.of("^/a/b$", RegexPathSpec.class, PathSpecGroup.EXACT, 6, 2),
                Arguments.of("^/a\\.b$", RegexPathSpec.class, PathSpecGroup.EXACT, 7, 1),
                Arguments.of("^/\\Qa.b\\E$", RegexPathSpec.class, PathSpecGroup.EXACT, 10, 1),
                Arguments.of("^/a\\$", RegexPathSpec.class, PathSpecGroup.EXACT, 5, 1),
                Arguments.of("^/api/(?<id>[0-9]+)$", RegexPathSpec.class, PathSpecGroup.PREFIX_GLOB, 20, 2),
                Arguments.of("^/api/.*", RegexPathSpec.class, PathSpecGroup.PREFIX_GLOB, 8, 2),
                Arguments.of("^/ab?$", RegexPathSpec.class, PathSpecGroup.PREFIX_GLOB, 6, 1),
                Arguments.of("^/api/\\d+$", RegexPathSpec.class, PathSpecGroup.PREFIX_GLOB, 10, 2),
                Arguments.of("^.*\\.jsp$", RegexPathSpec.class, PathSpecGroup.SUFFIX_GLOB, 9, 0),
                Arguments.of("^[a-z/]+/x$", RegexPathSpec.class, PathSpecGroup.SUFFIX_GLOB, 11, 2),
                Arguments.of("^/a/.*/b$", RegexPathSpec.class, PathSpecGroup.MIDDLE_GLOB, 9, 3),
                Arguments.of("^/a{2}/x$", RegexPathSpec.class, PathSpecGroup.MIDDLE_GLOB, 9, 2),
                Arguments.of("^/a|/b$", RegexPathSpec.class, PathSpecGroup.MIDDLE_GLOB, 7, 2),
                Arguments.of("^.*$", RegexPathSpec.class, PathSpecGroup.SUFFIX_GLOB, 4, 0),
                Arguments.of("^(/a|/b)$", RegexPathSpec.class, PathSpecGroup.SUFFIX_GLOB, 9, 2),
                Arguments.of("^/a/.*/b/.*$", RegexPathSpec.class, PathSpecGroup.PREFIX_GLOB, 12, 4),
                Arguments.of("/users/me", ExactPathSpec.class, PathSpecGroup.EXACT, 9, 2),
                Arguments.of("/users/{id}", UriTemplatePathSpec.class, PathSpecGroup.PREFIX_GLOB, 11, 2),
                Arguments.of("/users/{a}/{b}", UriTemplatePathSpec.class, PathSpecGroup.PREFIX_GLOB, 14, 3),
                Arguments.of("/a/{x}/b/{y}", UriTemplatePathSpec.class, PathSpecGroup.PREFIX_GLOB, 12, 4),
                Arguments.of("/files/{name}/", UriTemplatePathSpec.class, PathSpecGroup.MIDDLE_GLOB, 14, 3),
                Arguments.of("/users/{id}/posts/{post}", UriTemplatePathSpec.class, PathSpecGroup.PREFIX_GLOB, 24, 4),
                Arguments.of("/users/{id}/posts", UriTemplatePathSpec.class, PathSpecGroup.MIDDLE_GLOB, 17, 3),
                Arguments.of("/{lang}/index.html", UriTemplatePathSpec.class, PathSpecGroup.MIDDLE_GLOB, 18, 2));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource
    void kindsAndGroups(String declaration, Class<?> kind, PathSpecGroup group, int specLength, int pathDepth) {
        PathSpec spec = PathSpec.from(declaration);
        assertEquals(kind, spec.getClass());
        assertEquals(declaration, spec.getDeclaration());
        assertEquals(group, spec.getGroup());
        assertEquals(specLength, spec.getSpecLength());
        assertEquals(pathDepth, spec.getPathDepth());
    }

    /** declaration, expected part of the message */
    @ParameterizedTest(name = "[{index}] ''{0}''")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            /a*                | path spec '/a*' has '*' at index 2; '*' is only allowed as a final '/*' or a leading '*.'
            /a/*/b             | path spec '/a/*/b' has '*' at index 3
            /a/**              | path spec '/a/**' has '*' at index 3
            /*.jsp             | path spec '/*.jsp' has '*' at index 1
            */x                | servlet path spec '*/x' must start with '/' or '*.', or be empty
            a/b                | servlet path spec 'a/b' must start with '/' or '*.', or be empty
            *                  | servlet path spec '*' must start with '/' or '*.', or be empty
            *.                 | suffix path spec '*.' has an empty suffix
            *.a/b              | suffix path spec '*.a/b' has a '/' in its suffix
            *.j*               | suffix path spec '*.j*' has a second '*'
            ^                  | regex path spec '^' has no pattern
            ^/a(b              | regex path spec '^/a(b' is not a valid regular expression: Unclosed group
            ^/a[               | regex path spec '^/a[' is not a valid regular expression: Unclosed character class
            /users/{}          | URI template '/users/{}' has an empty variable '{}' at index 7
            /users/{a{b}}      | URI template '/users/{a{b}}' has nested '{' at index 9
            /users/{id}/x/{id} | URI template '/users/{id}/x/{id}' declares variable 'id' twice
            /file.{ext}        | URI template '/file.{ext}' has variable '{ext}' that is not a whole segment
            /x/{id}.json       | URI template '/x/{id}.json' has variable '{id}' that is not a whole segment
            /x/{a}{b}          | URI template '/x/{a}{b}' has a second variable in one segment at index 6
            /x/{id             | URI template '/x/{id' has '{' at index 3 without a closing '}'
            /x/{a}/b}          | URI template '/x/{a}/b}' has '}' without '{' at index 8
            /x/{+path}         | URI template '/x/{+path}' has variable name '+path' with illegal character '+'
            /x/{a..b}          | URI template '/x/{a..b}' has variable name 'a..b' with illegal character '.'
            /x/{a.}            | URI template '/x/{a.}' has variable name 'a.' with illegal character '.'
            users/{id}         | URI template 'users/{id}' must start with '/'
            /x/{a}/*           | URI template '/x/{a}/*' has '*' at index 7
            """)
    void rejectsInvalidDeclarations(String declaration, String message) {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> PathSpec.from(declaration));
        assertTrue(thrown.getMessage().contains(message), () -> "message: " + thrown.getMessage());
    }

    @Test
    void constructorsCheckTheirComponents() {
        assertEquals("'/' declares the default spec, not an exact one; use \"\" (the root spec) to match only '/'",
                assertThrows(IllegalArgumentException.class, () -> new ExactPathSpec("/")).getMessage());
        assertEquals("exact path spec 'a' must start with '/'",
                assertThrows(IllegalArgumentException.class, () -> new ExactPathSpec("a")).getMessage());
        assertEquals("prefix path spec 'a/*' must start with '/'",
                assertThrows(IllegalArgumentException.class, () -> new PrefixPathSpec("a")).getMessage());
        assertEquals("regex path spec '/a' : steps per character must be at least 1, not 0".replace(" :", ":"),
                assertThrows(IllegalArgumentException.class, () -> new RegexPathSpec("/a", 0)).getMessage());
    }

    @Test
    void specsOfTheSameKindAndDeclarationAreEqual() {
        assertEquals(new PrefixPathSpec("/a"), PathSpec.from("/a/*"));
        assertEquals(new SuffixPathSpec("jsp"), PathSpec.from("*.jsp"));
        assertEquals(new ExactPathSpec("/a"), PathSpec.from("/a"));
        assertEquals(new RootPathSpec(), PathSpec.from(""));
        assertEquals(new DefaultPathSpec(), PathSpec.from("/"));
        assertEquals(new RegexPathSpec("^/a.*"), PathSpec.from("^/a.*"));
        assertEquals(new RegexPathSpec("^/a.*").hashCode(), PathSpec.from("^/a.*").hashCode());
        assertEquals(new UriTemplatePathSpec("/a/{b}"), PathSpec.from("/a/{b}"));
        assertNotEquals(PathSpec.from("/a/*"), PathSpec.from("/a"));
        assertNotEquals(new RegexPathSpec("/a"), new ExactPathSpec("/a"));
        assertNotEquals(new RegexPathSpec("^/a"), new RegexPathSpec("/a"));
        assertNotEquals(new RegexPathSpec("^/a", 5), new RegexPathSpec("^/a"));
    }

    @Test
    void regexSpecWithoutCaretComesFromItsConstructor() {
        RegexPathSpec spec = new RegexPathSpec("/api/.*");
        assertEquals("/api/.*", spec.getDeclaration());
        assertEquals(PathSpecGroup.PREFIX_GLOB, spec.getGroup());
        assertEquals(new MatchedPath("/api/x", null), spec.matched("/api/x"));
        assertNull(spec.matched("/apix"));
    }

    @Test
    void templateListsItsVariablesInOrder() {
        assertEquals(List.of("id", "post"), new UriTemplatePathSpec("/users/{id}/posts/{post}").getVariables());
        assertEquals(List.of(), new UriTemplatePathSpec("/users").getVariables());
        assertEquals(PathSpecGroup.EXACT, new UriTemplatePathSpec("/users").getGroup());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a/b", "/a/*", "*.jsp", "", "/", "^/a.*", "/a/{b}"})
    void pathsMustStartWithSlash(String declaration) {
        PathSpec spec = PathSpec.from(declaration);
        for (String path : new String[] {"", "evil<script>", "*", "http://host/a"}) {
            IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> spec.matched(path));
            assertFalse(!path.isEmpty() && thrown.getMessage().contains(path), "the message must not echo the path");
        }
    }

    @Test
    void backtrackingRegexGivesUpWithinItsBudget() {
        // Without a budget this takes minutes: (.*a){12} backtracks polynomially with degree 12.
        RegexPathSpec spec = new RegexPathSpec("^/(.*a){12}$");
        String path = "/" + "a".repeat(40) + "!";
        BadMessageException thrown = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(BadMessageException.class, () -> spec.matched(path)));
        assertEquals(400, thrown.getStatus());
        assertEquals("path of length 42 needs too many steps to match a regex path spec", thrown.getReason());
        // The budget is the spec's to set: a generous one lets the same pattern decide a short path.
        assertEquals("a", new RegexPathSpec("^/(.*a){12}$", 100_000).matched("/aaaaaaaaaaaa").getParameters().get("1"));
    }

    @Test
    void linearRegexOnLongPathStaysWithinBudget() {
        RegexPathSpec spec = new RegexPathSpec("^/files/(?<name>.*)\\.txt$", 4);
        String name = "x/".repeat(4000);
        assertEquals(name, spec.matched("/files/" + name + ".txt").getParameters().get("name"));
        assertNull(spec.matched("/files/" + name + ".txx"));
    }

    @Test
    void hostileLongPathsAreMatchedInLinearTime() {
        LinearTime.assertLinear("paths of 200,000 segments or dots", 200_000, size -> {
            String manySegments = "/x".repeat(size);
            String longSegment = "/" + ".a".repeat(size);
            return () -> {
                for (String declaration : new String[] {"/a/{b}/c/{d}", "/x/x/{b}", "*.jsp", "/x/*", "/a"}) {
                    PathSpec spec = PathSpec.from(declaration);
                    spec.matched(manySegments);
                    spec.matched(longSegment);
                }
                assertEquals("/x", PathSpec.from("/x/*").matched(manySegments).getPathMatch());
                assertNull(PathSpec.from("/x/x/{b}").matched(manySegments));
            };
        });
    }
}
