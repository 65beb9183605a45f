package io.wharf.util.thread;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.wharf.util.component.AbstractLifeCycle;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Scheduler} on one daemon thread of a {@link ScheduledThreadPoolExecutor}.
 * Cancelled tasks are removed from its queue at once, so that timeouts that are set and
 * cancelled per operation do not pile up. {@link Task#cancel()} returns true exactly when the
 * task will never run (false once it started). A task that throws is logged; the scheduler
 * goes on. Stopping drops the tasks not yet run; the scheduler can be started again.
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
        Timeout timeout = new Timeout(task);
        try {
            timeout.future = executor.schedule(timeout, delay, unit);
        } catch (RejectedExecutionException x) {
            // stop() ran between the read of the executor and the schedule.
            throw new RejectedExecutionException(this + " is not running", x);
        }
        return timeout;
    }

    /**
     * One scheduled task. Running and cancelling race for one claim, so that cancel()
     * returns true exactly when the task will never run: the executor's own future cannot
     * tell, as it still counts as cancellable while the task runs.
     */
    private static final class Timeout implements Runnable, Task {
        private final Runnable task;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private volatile ScheduledFuture<?> future;

        private Timeout(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            if (!claimed.compareAndSet(false, true)) {
                return;
            }
            try {
                task.run();
            } catch (Throwable x) {
                LOG.warn("Scheduled task {} failed", task, x);
            }
        }

        @Override
        public boolean cancel() {
            if (!claimed.compareAndSet(false, true)) {
                return false;
            }
            // Drop it from the queue at once (the executor removes cancelled tasks).
            ScheduledFuture<?> future = this.future;
            if (future != null) {
                future.cancel(false);
            }
            return true;
        }

        @Override
        public String toString() {
            return "Timeout@" + Integer.toHexString(hashCode()) + "[" + (claimed.get() ? "done" : "scheduled") + "," + task + "]";
        }
    }

    @Override
    public String toString() {
        ScheduledThreadPoolExecutor executor = this.executor;
        return "TimerScheduler@" + Integer.toHexString(hashCode()) + "{" + state() + ",queued=" + (executor == null ? 0 : executor.getQueue().size()) + "}";
    }
}
