package io.wharf.http.pathmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import io.wharf.http.BadMessageException;
import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class PathMappingsTest {

    private static PathMappings<String> mappings(String... declarationsAndResources) {
        PathMappings<String> mappings = new PathMappings<>();
        for (int i = 0; i < declarationsAndResources.length; i += 2) {
            mappings.put(declarationsAndResources[i], declarationsAndResources[i + 1]);
        }
        return mappings;
    }

    /** The example of the servlet specification, 12.2.2. */
    private static final PathMappings<String> SERVLET_EXAMPLE = mappings(
            "/foo/bar/*", "servlet1",
            "/baz/*", "servlet2",
            "/catalog", "servlet3",
            "*.bop", "servlet4",
            "/", "default");

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(nullValues = "null", textBlock = """
            /foo/bar/index.html,  servlet1, /foo/bar,             /index.html
            /foo/bar/index.bop,   servlet1, /foo/bar,             /index.bop
            /foo/bar,             servlet1, /foo/bar,             null
            /baz,                 servlet2, /baz,                 null
            /baz/index.html,      servlet2, /baz,                 /index.html
            /catalog,             servlet3, /catalog,             null
            /catalog/index.html,  default,  /catalog/index.html,  null
            /catalog/racecar.bop, servlet4, /catalog/racecar.bop, null
            /index.bop,           servlet4, /index.bop,           null
            /foo/barbaz,          default,  /foo/barbaz,          null
            /,                    default,  /,                    null
            """)
    void servletSpecificationExample(String path, String resource, String pathMatch, String pathInfo) {
        MatchedResource<String> matched = SERVLET_EXAMPLE.getMatched(path);
        assertEquals(resource, matched.resource());
        assertEquals(new MatchedPath(pathMatch, pathInfo), matched.matchedPath());
        assertEquals(matched, SERVLET_EXAMPLE.getMatches(path).get(0), "getMatches starts with getMatched");
    }

    /** mappings, path, every matching resource best first */
    static Stream<Arguments> allMatchesBestFirst() {
        PathMappings<String> servlet = mappings(
                "/", "default", "*.bop", "bop", "/*", "all", "/foo/*", "foo", "/foo/bar/*", "foobar",
                "", "root", "/foo/bar/index.bop", "exact", "*.index.bop", "index.bop");
        PathMappings<String> patterns = mappings(
                "/users/*", "users", "^/users/.*", "users-regex", "/users/{id}", "user", "^/users/[0-9]+$", "user-regex",
                "/{a}/{b}", "any-two", "*.json", "json", "^.*\\.json$", "json-regex", "/", "default");
        return Stream.of(
                Arguments.of(servlet, "/foo/bar/index.bop",
                        List.of("exact", "foobar", "foo", "all", "bop", "default")),
                // *.index.bop needs a '.' before "index": the extension spec matches after a dot only
                Arguments.of(servlet, "/foo/bar/x.index.bop", List.of("foobar", "foo", "all", "index.bop", "bop", "default")),
                Arguments.of(servlet, "/foo/bar/x.bop", List.of("foobar", "foo", "all", "bop", "default")),
                Arguments.of(servlet, "/", List.of("root", "all", "default")),
                Arguments.of(servlet, "/foo", List.of("foo", "all", "default")),
                // PREFIX_GLOB by declaration length: ^/users/[0-9]+$ (15), /users/{id} (11), ^/users/.* (10), /users/* (8), /{a}/{b} (8)
                Arguments.of(patterns, "/users/42",
                        List.of("user-regex", "user", "users-regex", "users", "any-two", "default")),
                Arguments.of(patterns, "/users/x.json",
                        List.of("user", "users-regex", "users", "any-two", "json-regex", "json", "default")),
                Arguments.of(patterns, "/users/x/y.json", List.of("users-regex", "users", "json-regex", "json", "default")),
                Arguments.of(patterns, "/users", List.of("users", "default")),
                Arguments.of(patterns, "/a.json", List.of("json-regex", "json", "default")));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource
    void allMatchesBestFirst(PathMappings<String> mappings, String path, List<String> resources) {
        List<MatchedResource<String>> matches = mappings.getMatches(path);
        assertEquals(resources, matches.stream().map(MatchedResource::resource).toList());
        assertEquals(matches.get(0), mappings.getMatched(path));
        for (MatchedResource<String> match : matches) {
            assertEquals(match.pathSpec().matched(path), match.matchedPath());
        }
    }

    private static final PathMappings<String> TEMPLATES_AND_REGEXES = mappings(
            "/users/*", "users-prefix",
            "/users/{id}", "user",
            "/users/{id}/posts/{post}", "post",
            "^/users/(?<id>[0-9]+)/posts/latest$", "latest-regex",
            "^/files/.*\\.txt$", "text-file-regex",
            "*.txt", "text-suffix",
            "/users/me", "me",
            "/users/{id}/posts", "posts-list",
            "/v/{a}", "first-of-equal-length",
            "^/v/.+", "second-of-equal-length",
            "/", "default");

    /** path, resource, parameters */
    static Stream<Arguments> templatesAndRegexes() {
        return Stream.of(
                Arguments.of("/users/me", "me", Map.of()),
                Arguments.of("/users/7", "user", Map.of("id", "7")),
                Arguments.of("/users/7/posts/3", "post", Map.of("id", "7", "post", "3")),
                Arguments.of("/users/7/posts/latest", "latest-regex", Map.of("1", "7", "id", "7")),
                Arguments.of("/users/x/posts/latest", "post", Map.of("id", "x", "post", "latest")),
                Arguments.of("/users/7/friends", "users-prefix", Map.of()),
                Arguments.of("/users/7/posts", "posts-list", Map.of("id", "7")),
                Arguments.of("/users/7/posts/", "users-prefix", Map.of()),
                Arguments.of("/users", "users-prefix", Map.of()),
                Arguments.of("/files/a/b.txt", "text-file-regex", Map.of()),
                Arguments.of("/docs/a/b.txt", "text-suffix", Map.of()),
                Arguments.of("/files/a/b.txz", "default", Map.of()),
                Arguments.of("/v/x", "first-of-equal-length", Map.of("a", "x")),
                Arguments.of("/v/x/y", "second-of-equal-length", Map.of()));
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @MethodSource
    void templatesAndRegexes(String path, String resource, Map<String, String> parameters) {
        MatchedResource<String> matched = TEMPLATES_AND_REGEXES.getMatched(path);
        assertEquals(resource, matched.resource());
        assertEquals(parameters, matched.matchedPath().getParameters());
        assertEquals(matched, TEMPLATES_AND_REGEXES.getMatches(path).get(0));
    }

    @Test
    void equalLengthTiesGoToTheFirstPutInEitherOrder() {
        PathMappings<String> templateFirst = mappings("/v/{a}", "template", "^/v/.+", "regex");
        PathMappings<String> regexFirst = mappings("^/v/.+", "regex", "/v/{a}", "template");
        assertEquals("template", templateFirst.getMatched("/v/x").resource());
        assertEquals("regex", regexFirst.getMatched("/v/x").resource());
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(textBlock = """
            /a.tar.gz,     tar.gz
            /a.gz,         gz
            /x.y/a.tar.gz, tar.gz
            /a.b.tar.gz,   tar.gz
            /tar.gz,       gz
            /a.tar.gz/x,   none
            """)
    void longestSuffixWins(String path, String resource) {
        PathMappings<String> mappings = mappings("*.gz", "gz", "*.tar.gz", "tar.gz");
        MatchedResource<String> matched = mappings.getMatched(path);
        assertEquals(resource, matched == null ? "none" : matched.resource());
    }

    @Test
    void thousandPrefixMappingsAreLookedUpCorrectly() {
        PathMappings<Integer> mappings = new PathMappings<>();
        mappings.put("/level/*", -1);
        for (int i = 0; i < 1000; i++) {
            // every tenth also has a deeper mapping, to check the longest prefix wins
            mappings.put("/level/" + i + "/*", i);
            if (i % 10 == 0) {
                mappings.put("/level/" + i + "/deeper/*", 10_000 + i);
            }
        }
        assertEquals(1101, mappings.size());
        for (int i = 0; i < 1000; i++) {
            MatchedResource<Integer> matched = mappings.getMatched("/level/" + i + "/page/x.html");
            assertEquals(i, matched.resource());
            assertEquals(new MatchedPath("/level/" + i, "/page/x.html"), matched.matchedPath());
            MatchedResource<Integer> deeper = mappings.getMatched("/level/" + i + "/deeper/y");
            assertEquals(i % 10 == 0 ? 10_000 + i : i, deeper.resource());
            assertEquals(i, mappings.getMatched("/level/" + i).resource());
        }
        assertEquals(-1, mappings.getMatched("/level/1000/page").resource());
        assertEquals(-1, mappings.getMatched("/level/").resource());
        assertNull(mappings.getMatched("/levels/1/page"));
        assertEquals(List.of(10_020, 20, -1),
                mappings.getMatches("/level/20/deeper/z").stream().map(MatchedResource::resource).toList());
    }

    @Test
    void hostilePathsAreLookedUpInLinearTime() {
        PathMappings<String> mappings = mappings("/a/*", "a", "/a/b/c/d/*", "d", "*.jsp", "jsp", "*.x.jsp", "xjsp",
                "/exact", "exact", "/users/{id}/posts/{post}", "template", "/", "default");
        LinearTime.assertLinear("paths of 500,000 slashes, dots or letters", 500_000, size -> {
            String manySlashes = "/a" + "/".repeat(size);
            String manyDots = "/q/" + ".".repeat(size) + "jsp";
            String longSegment = "/" + "b".repeat(size);
            return () -> {
                assertEquals("a", mappings.getMatched(manySlashes).resource());
                assertEquals("jsp", mappings.getMatched(manyDots).resource());
                assertEquals("default", mappings.getMatched(longSegment).resource());
                assertEquals(List.of("jsp", "default"),
                        mappings.getMatches(manyDots).stream().map(MatchedResource::resource).toList());
            };
        });
    }

    @Test
    void putReplacesRemoveForgetsAndIterationFollowsPrecedence() {
        PathMappings<String> mappings = new PathMappings<>();
        assertTrue(mappings.isEmpty());
        assertNull(mappings.getMatched("/x"));
        assertEquals(List.of(), mappings.getMatches("/x"));

        assertNull(mappings.put("/", "default"));
        assertNull(mappings.put("*.jsp", "jsp"));
        assertNull(mappings.put("/a/*", "a"));
        assertNull(mappings.put("/a/b/*", "ab"));
        assertNull(mappings.put("/exact", "exact"));
        assertNull(mappings.put("", "root"));
        assertNull(mappings.put("/m/{x}/n", "middle"));
        assertEquals("a", mappings.put(new PrefixPathSpec("/a"), "a2"));
        assertEquals(7, mappings.size());
        assertEquals("a2", mappings.get(PathSpec.from("/a/*")));
        assertEquals("a2", mappings.getMatched("/a/x").resource());

        List<String> declarations = new ArrayList<>();
        for (PathMappings.Mapping<String> mapping : mappings) {
            declarations.add(mapping.pathSpec().getDeclaration());
        }
        assertEquals(List.of("/exact", "", "/m/{x}/n", "/a/b/*", "/a/*", "*.jsp", "/"), declarations);
        assertEquals("PathMappings['/exact'->exact, ''->root, '/m/{x}/n'->middle, '/a/b/*'->ab, '/a/*'->a2, "
                + "'*.jsp'->jsp, '/'->default]", mappings.toString());
        Iterator<PathMappings.Mapping<String>> iterator = mappings.iterator();
        iterator.next();
        assertThrows(UnsupportedOperationException.class, iterator::remove);

        assertEquals("ab", mappings.remove(PathSpec.from("/a/b/*")));
        assertNull(mappings.remove(PathSpec.from("/a/b/*")));
        assertEquals("a2", mappings.getMatched("/a/b/c").resource());
        assertEquals("default", mappings.remove(new DefaultPathSpec()));
        assertNull(mappings.getMatched("/zzz"));
        assertEquals(5, mappings.size());
    }

    @Test
    void rejectsBadArguments() {
        PathMappings<String> mappings = new PathMappings<>();
        assertEquals("path spec '/a*' has '*' at index 2; '*' is only allowed as a final '/*' or a leading '*.'",
                assertThrows(IllegalArgumentException.class, () -> mappings.put("/a*", "x")).getMessage());
        assertThrows(NullPointerException.class, () -> mappings.put("/a", null));
        assertThrows(NullPointerException.class, () -> mappings.put((PathSpec) null, "x"));
        mappings.put("/", "default");
        assertThrows(IllegalArgumentException.class, () -> mappings.getMatched("a"));
        assertThrows(IllegalArgumentException.class, () -> mappings.getMatches(""));
    }

    @Test
    void regexBudgetSurfacesAsBadMessage() {
        PathMappings<String> mappings = mappings("^/(.*a){12}$", "slow", "/", "default");
        String path = "/" + "a".repeat(40) + "!";
        BadMessageException thrown = assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(BadMessageException.class, () -> mappings.getMatched(path)));
        assertEquals(400, thrown.getStatus());
    }

    @Test
    void readersSeeAConsistentTableWhileAWriterMutates() throws Exception {
        PathMappings<String> mappings = mappings("/stable/*", "stable", "/", "default");
        int readers = 3;
        CountDownLatch started = new CountDownLatch(readers);
        CountDownLatch writerDone = new CountDownLatch(1);
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < readers; r++) {
            Thread reader = new Thread(() -> {
                started.countDown();
                do {
                    String stable = mappings.getMatched("/stable/x").resource();
                    String other = mappings.getMatched("/other").resource();
                    if (!stable.equals("stable") || !(other.equals("default") || other.equals("other"))) {
                        wrong.add(stable + " " + other);
                    }
                } while (writerDone.getCount() > 0);
            });
            reader.start();
            threads.add(reader);
        }
        started.await();
        for (int i = 0; i < 2000; i++) {
            mappings.put("/other", "other");
            mappings.put("/churn/" + i + "/*", "churn");
            mappings.remove(PathSpec.from("/other"));
        }
        writerDone.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(List.of(), List.copyOf(wrong));
        assertEquals(2002, mappings.size());
        assertEquals("churn", mappings.getMatched("/churn/1999/x").resource());
    }
}
