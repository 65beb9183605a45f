package io.wharf.tests.servlet;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Asynchronous processing (Servlet 6.1 section 2.3.3.3) compared between the containers:
 * complete from another thread, dispatch back and to another path with the
 * {@code jakarta.servlet.async.*} attributes, timeouts with and without a listener that
 * answers, a second {@code startAsync} in the async dispatch, and servlets and filters that
 * do not support async.
 */
class ServletAsyncTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new AsyncApplication());

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
        "/ctx/async/complete", "/ctx/async/dispatch?q=1", "/ctx/async/dispatch-path?q=original", "/ctx/async/dispatch-at-once",
        "/ctx/async/timeout-answered", "/ctx/async/timeout-unanswered", "/ctx/async/restart", "/ctx/async/behind-plain-filter",
        "/ctx/plain/x",
    })
    void async(String target) {
        containers.get(target);
    }
}
