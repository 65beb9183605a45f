package io.wharf.tests;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.wharf.examples.Demo;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Test fixture: the demo as {@code ./wharf demo} starts it ({@link Demo#start}), HTTP on a free
 * port unless told otherwise and HTTPS on a free port, its certificate kept in the directory the
 * test names. Registered with {@code @RegisterExtension}; after each test (after the test's own
 * {@code @AfterEach} methods, so a browser closed there goes before the server), every demo it
 * started that the test did not stop itself is stopped. Used on the test's thread.
 */
final class TestDemo implements AfterEachCallback {

    private final List<Demo.Running> started = new ArrayList<>();

    /** @return the demo started on free ports, its certificate in {@code certificates} (made there when missing) */
    Demo.Running start(Path certificates) throws Exception {
        return start(0, certificates);
    }

    /** @return the demo started with HTTP on {@code port} (0: a free one) and HTTPS on a free port */
    Demo.Running start(int port, Path certificates) throws Exception {
        Demo.Running demo = Demo.start(port, 0, certificates);
        started.add(demo);
        return demo;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        for (Demo.Running demo : started) {
            if (!demo.server().isStopped()) {
                demo.server().stop();
            }
        }
        started.clear();
    }
}
