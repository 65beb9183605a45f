package io.wharf.util.thread;

import java.util.concurrent.TimeUnit;

import io.wharf.util.component.LifeCycle;

/**
 * Runs tasks after a delay, for timeouts. Scheduled tasks run on the scheduler's own
 * thread and must be short and non-blocking: a timeout task typically fails a callback or
 * hands work to a thread pool.
 */
public interface Scheduler extends LifeCycle {

    /** A scheduled task that can be cancelled. */
    interface Task {
        /** @return true when the task was cancelled before it ran */
        boolean cancel();
    }

    /**
     * @param task what to run
     * @param delay how long to wait
     * @param unit the unit of {@code delay}
     * @return a handle to cancel the task
     * @throws java.util.concurrent.RejectedExecutionException when the scheduler is not running
     */
    Task schedule(Runnable task, long delay, TimeUnit unit);
}
