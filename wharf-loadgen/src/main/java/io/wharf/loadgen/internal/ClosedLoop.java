package io.wharf.loadgen.internal;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The closed model: every user runs its iterations back to back — the next one starts when the
 * last one ended and the think time passed — so the rate is whatever the server allows. The
 * first {@code warmupIterations} started (by all users together) are not measured; the measured
 * part ends after its count of iterations, or once its duration passed since the first measured
 * iteration started.
 *
 * <p><b>Threads.</b> {@link #start()} runs on the running thread; the users' next iterations start
 * on the client's executor (never inline in a response listener), after the think time on the
 * generator's timer thread. {@link #await()} blocks until every user stopped.
 */
final class ClosedLoop {

    private final Settings settings;
    private final Statistics statistics;
    private final IterationStarter starter;
    private final Executor executor;
    private final ScheduledExecutorService timer;
    private final BooleanSupplier stopped;
    private final AtomicLong started = new AtomicLong();
    private final CountDownLatch users;

    ClosedLoop(Settings settings, Statistics statistics, IterationStarter starter, Executor executor,
            ScheduledExecutorService timer, BooleanSupplier stopped) {
        this.settings = settings;
        this.statistics = statistics;
        this.starter = starter;
        this.executor = executor;
        this.timer = timer;
        this.stopped = stopped;
        this.users = new CountDownLatch(settings.users());
    }

    void start() {
        for (int user = 0; user < settings.users(); user++) {
            int which = user;
            executor.execute(() -> next(which));
        }
    }

    /** Waits until every user stopped starting iterations (their last ones ended). */
    void await() throws InterruptedException {
        users.await();
    }

    private void next(int user) {
        long n = started.getAndIncrement();
        long warmup = settings.warmupIterations();
        boolean measured = n >= warmup;
        long now = System.nanoTime();
        if (stopped.getAsBoolean() || (settings.iterations() > 0 && n >= warmup + settings.iterations())) {
            users.countDown();
            return;
        }
        if (measured) {
            statistics.measuredStart(now);
            if (settings.iterations() == 0 && now - statistics.measuredStart() >= settings.duration().toNanos()) {
                users.countDown();
                return;
            }
        }
        starter.start(user, now, now, measured, () -> after(user));
    }

    private void after(int user) {
        long think = settings.thinkTime().toNanos();
        if (think > 0) {
            timer.schedule(() -> executor.execute(() -> next(user)), think, TimeUnit.NANOSECONDS);
        } else {
            executor.execute(() -> next(user));
        }
    }
}
