package io.wharf.util.thread;

import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pool's threads, platform and virtual, start with the pool's class loader as their context
 * class loader, not the loader of the thread that made them start: a web application's code that
 * hands work to the pool must not leave its loader pinned in a pool thread.
 */
class ThreadContextLoaderTest {

    @ParameterizedTest(name = "virtual threads: {0}")
    @ValueSource(booleans = {false, true})
    void aNewThreadDoesNotTakeTheStartersContextLoader(boolean virtual) throws Exception {
        QueuedThreadPool pool = new QueuedThreadPool();
        pool.setUseVirtualThreads(virtual);
        pool.start();
        ClassLoader application = new URLClassLoader("application", new URL[0], null);
        CompletableFuture<ClassLoader> seen = new CompletableFuture<>();
        Thread starter = new Thread(() -> pool.execute(() -> seen.complete(Thread.currentThread().getContextClassLoader())));
        starter.setContextClassLoader(application);
        try {
            starter.start();
            assertSame(QueuedThreadPool.class.getClassLoader(), seen.get(10, TimeUnit.SECONDS));
        } finally {
            pool.stop();
        }
    }
}
