package io.wharf.servlet;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The base of the container's tests: each test runs under the leak-tracking pool, and the
 * {@link ServletTester} it makes (one at a time, in {@link #tester}) is stopped after it, before
 * the leak check.
 */
abstract class ServletTestCase {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    /** The tester of the test, or null; a test that makes a second one closes the first itself. */
    ServletTester tester;

    /** @return a new tester for a context at {@code contextPath}, kept in {@link #tester} */
    ServletTester tester(String contextPath) {
        tester = new ServletTester(leaks.pool(), contextPath);
        return tester;
    }

    @AfterEach
    void stopTester() throws Exception {
        if (tester != null) {
            tester.close();
        }
    }
}
