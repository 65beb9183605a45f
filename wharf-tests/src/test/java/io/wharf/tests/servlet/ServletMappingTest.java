package io.wharf.tests.servlet;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Servlet mapping (Servlet 6.1 chapter 12) compared between the containers: which servlet a
 * path reaches and the servlet path, path info, request URI and {@code HttpServletMapping}
 * it is given, for exact, prefix, extension, default and context-root patterns, and for
 * paths that need decoding or normalizing first (section 3.5).
 */
class ServletMappingTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new MappingApplication());

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
        "/ctx", "/ctx/", "/ctx/?q=1", "/ctx/exact", "/ctx/exact/", "/ctx/exact?x=y", "/ctx/a/exact", "/ctx/a/exact/more",
        "/ctx/a", "/ctx/a/", "/ctx/a/x", "/ctx/a/x/y", "/ctx/ab", "/ctx/a/b", "/ctx/a/b/", "/ctx/a/b/c", "/ctx/a/bc",
        "/ctx/x.do", "/ctx/dir/x.do", "/ctx/a/x.do", "/ctx/x.do/y", "/ctx/.do", "/ctx/x.DO", "/ctx/x.do.txt",
        "/ctx/two/x", "/ctx/x.two", "/ctx/two/x.do", "/ctx/other", "/ctx/other/x.txt",
        "/ctx/a/%61", "/ctx/a/x%20y", "/ctx/%65xact", "/ctx/a/x;p=1", "/ctx/a;p=1/x", "/ctx/exact;jsessionid=1",
        "/ctx/a/./x", "/ctx/a/../exact", "/ctx/a/x/..", "/ctx/a/%2e/x", "/ctx/a/%2F/x", "/ctx/a//x", "/ctx/a/%C3%A9",
        "/ctxa", "/CTX/exact", "/", "/ctx/..", "/ctx/a/..%2F..%2Fexact",
    })
    void paths(String target) {
        containers.get(target);
    }
}
