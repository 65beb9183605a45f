package io.wharf.server.internal;

import java.util.concurrent.TimeUnit;

import io.wharf.http.DateField;
import io.wharf.util.component.AbstractLifeCycle;
import io.wharf.util.thread.Scheduler;

/**
 * Ticks a {@link DateField} at each turn of the second on a scheduler while started, so that
 * the responses of a running server take the cached {@code Date} field without reading the
 * clock each (see {@link DateField#startTicking()}). Started after the scheduler and stopped
 * before it, as the server's bean.
 *
 * <p>Threads: started and stopped by the server's lifecycle; each tick runs on the scheduler
 * thread and schedules the next. A tick racing the stop finds its start no longer current
 * and does nothing, even when the ticker was started again meanwhile.
 */
public final class DateTicker extends AbstractLifeCycle {

    private final DateField dates;
    private final Scheduler scheduler;
    /** The ticks of the current start, null while stopped. */
    private volatile Ticks ticks;

    public DateTicker(DateField dates, Scheduler scheduler) {
        this.dates = dates;
        this.scheduler = scheduler;
    }

    @Override
    protected void doStart() throws Exception {
        Ticks started = new Ticks();
        ticks = started;
        started.schedule(dates.startTicking());
    }

    @Override
    protected void doStop() throws Exception {
        Ticks stopped = ticks;
        ticks = null;
        if (stopped != null) {
            stopped.cancel();
        }
        dates.stopTicking();
    }

    @Override
    public String toString() {
        return "DateTicker[" + (ticks != null ? "ticking" : "stopped") + "]";
    }

    /**
     * The chain of ticks of one start: each tick schedules the next while its start is the
     * current one, so a tick racing a stop (and a restart) ends its own chain.
     */
    private final class Ticks implements Runnable {
        private volatile Scheduler.Task next;

        void schedule(long delayMillis) {
            next = scheduler.schedule(this, delayMillis, TimeUnit.MILLISECONDS);
        }

        void cancel() {
            Scheduler.Task task = next;
            if (task != null) {
                task.cancel();
            }
        }

        @Override
        public void run() {
            if (ticks == this) {
                schedule(dates.tick());
            }
        }
    }
}
