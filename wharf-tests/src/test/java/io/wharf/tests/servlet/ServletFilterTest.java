package io.wharf.tests.servlet;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Filter chains (Servlet 6.1 chapter 6) compared between the containers: which filters run,
 * in which order, for which dispatcher type, for requests to each servlet of
 * {@link FilterApplication}, forwarded and included ones among them.
 */
class ServletFilterTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new FilterApplication());

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
        "/ctx/f", "/ctx/f/", "/ctx/f/one", "/ctx/f/a/b", "/ctx/f/page.x", "/ctx/page.x", "/ctx/other", "/ctx/other/more",
        "/ctx/forward/1", "/ctx/include/1", "/ctx/nowhere",
    })
    void chains(String target) {
        containers.get(target);
    }
}
