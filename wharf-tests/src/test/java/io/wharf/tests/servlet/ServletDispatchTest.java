package io.wharf.tests.servlet;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The request dispatcher (Servlet 6.1 chapter 9) compared between the containers: forward and
 * include by path, relative path and name, the paths and attributes the target sees, the
 * parameters it gets (the dispatch's query first, section 9.1.1), and what an include may not
 * change.
 */
class ServletDispatchTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new DispatchApplication());

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
        "/ctx/d/forward?q=original&o=1", "/ctx/d/forward-relative", "/ctx/d/forward-extension", "/ctx/d/forward-context",
        "/ctx/d/forward-name?q=named", "/ctx/d/forward-nowhere", "/ctx/d/forward-after-write", "/ctx/d/forward-after-commit",
        "/ctx/d/forward-twice?q=twice", "/ctx/d/include?q=original&o=1", "/ctx/d/include-name?q=named", "/ctx/d/include-relative",
        "/ctx/d/include-nowhere", "/ctx/missing", "/ctx/target/direct?q=1",
    })
    void dispatches(String target) {
        containers.get(target);
    }
}
