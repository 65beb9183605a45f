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
 * thread and schedules the next. A tick racing the stop finds the ticker stopped and does
 * nothing.
 */
public final class DateTicker extends AbstractLifeCycle implements Runnable {

    private final DateField dates;
    private final Scheduler scheduler;
    private volatile Scheduler.Task next;
    private volatile boolean ticking;

    public DateTicker(DateField dates, Scheduler scheduler) {
        this.dates = dates;
        this.scheduler = scheduler;
    }

    @Override
    protected void doStart() throws Exception {
        long due = dates.startTicking();
        ticking = true;
        next = scheduler.schedule(this, due, TimeUnit.MILLISECONDS);
    }

    @Override
    public void run() {
        if (ticking) {
            next = scheduler.schedule(this, dates.tick(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    protected void doStop() throws Exception {
        ticking = false;
        Scheduler.Task task = next;
        if (task != null) {
            task.cancel();
        }
        dates.stopTicking();
    }

    @Override
    public String toString() {
        return "DateTicker[" + (ticking ? "ticking" : "stopped") + "]";
    }
}
