package io.wharf.tests.servlet;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Filter chains (Servlet 6.1 chapter 6) compared between the containers: which filters run,
 * in which order, for which dispatcher type, for requests to each servlet of
 * {@link FilterApplication}, forwarded and included ones among them.
 */
class ServletFilterTest {

    @TempDir
    static Path directory;

    private static Differential containers;

    @BeforeAll
    static void start() throws Exception {
        containers = Differential.start(ServletFilterTest.class, directory, "/ctx", new FilterApplication());
    }

    @AfterAll
    static void stop() throws Exception {
        containers.close();
    }

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
        "/ctx/f", "/ctx/f/", "/ctx/f/one", "/ctx/f/a/b", "/ctx/f/page.x", "/ctx/page.x", "/ctx/other", "/ctx/other/more",
        "/ctx/forward/1", "/ctx/include/1", "/ctx/nowhere",
    })
    void chains(String target) {
        containers.get(target);
    }
}
