package io.wharf.util.thread;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.wharf.util.component.AbstractLifeCycle;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Scheduler} on one daemon thread of a {@link ScheduledThreadPoolExecutor}.
 * Cancelled tasks are removed from its queue at once, so that timeouts that are set and
 * cancelled per operation do not pile up.
 */
public class TimerScheduler extends AbstractLifeCycle implements Scheduler {

    private static final Logger LOG = LoggerFactory.getLogger(TimerScheduler.class);

    private final String name;
    private volatile ScheduledThreadPoolExecutor executor;

    public TimerScheduler() {
        this("wharf-scheduler");
    }

    /** @param name the name of the scheduler's thread */
    public TimerScheduler(String name) {
        this.name = name;
    }

    @Override
    protected void doStart() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.executor = executor;
    }

    @Override
    protected void doStop() {
        ScheduledThreadPoolExecutor executor = this.executor;
        this.executor = null;
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    @Override
    public Task schedule(Runnable task, long delay, TimeUnit unit) {
        ScheduledThreadPoolExecutor executor = this.executor;
        if (executor == null) {
            throw new RejectedExecutionException(this + " is not running");
        }
        ScheduledFuture<?> future = executor.schedule(() -> {
            try {
                task.run();
            } catch (Throwable x) {
                LOG.warn("Scheduled task {} failed", task, x);
            }
        }, delay, unit);
        return () -> future.cancel(false);
    }

    @Override
    public String toString() {
        ScheduledThreadPoolExecutor executor = this.executor;
        return "TimerScheduler@" + Integer.toHexString(hashCode()) + "{" + state() + ",queued=" + (executor == null ? 0 : executor.getQueue().size()) + "}";
    }
}
