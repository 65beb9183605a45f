package io.wharf.util.thread;

import java.util.concurrent.Executor;

/**
 * An {@link Executor} with a bounded number of threads that can be asked about its load.
 * Any thread may call {@link #execute(Runnable)}; a task that cannot be queued is rejected
 * with {@link java.util.concurrent.RejectedExecutionException}.
 */
public interface ThreadPool extends Executor {

    /**
     * A job that runs on a platform thread even when the pool starts virtual threads for
     * blocking jobs: a production loop that waits in a selector. On a virtual thread that
     * wait would hold its carrier thread and add a park and an unpark to every wake-up.
     */
    @FunctionalInterface
    interface PlatformJob extends Runnable {
    }


    /** @return the number of threads alive */
    int getThreads();

    /** @return the number of threads waiting for work */
    int getIdleThreads();

    /** @return whether every thread is busy and the queue holds work that waits */
    boolean isLowOnThreads();

    /** Waits until the pool has stopped and every thread has ended. */
    void join() throws InterruptedException;
}
