package io.wharf.webapp.internal;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Runs a step that calls an application's code — preparing it (its initializers and listeners
 * are made), starting it, stopping it — on a new thread that ends with the step, and waits for
 * it. What the application leaves on that thread (a thread-local it never removes, holding one of
 * its objects) then dies with the thread instead of pinning its class loader on a thread that
 * lives on, such as the deployer's. The new thread's context class loader is the container's,
 * not inherited. Called by the deployer on its thread; the wait ignores interrupts (a step is
 * never abandoned half done) and restores the interrupt flag after.
 */
public final class ApplicationThread {

    private ApplicationThread() {
    }

    /** @return what {@code step} returned, on a new thread named {@code name}; its exception, rethrown */
    public static <T> T call(String name, Callable<T> step) throws Exception {
        FutureTask<T> future = new FutureTask<>(step);
        Thread thread = Thread.ofPlatform().name(name).daemon().unstarted(future);
        thread.setContextClassLoader(ApplicationThread.class.getClassLoader());
        thread.start();
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
