package io.wharf.loadgen.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One sending thread of the open model. With {@code threads} sending threads, thread {@code k}
 * starts iterations {@code k, k + threads, k + 2·threads...} of the {@link RateSchedule}, each
 * at its due time (or at once, when it is already past: the schedule is never shifted, so a
 * late generator catches up and its lateness shows in the latencies and the
 * {@link Statistics}), handing them to its users in turn.
 *
 * <p><b>Threads.</b> {@link #run()} runs on its own platform thread; it only parks between due
 * times, and sends without waiting for any response.
 */
final class OpenLoop implements Runnable {

    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final RunPlan plan;
    private final IterationStarter starter;
    private final int thread;
    private final BooleanSupplier stopped;

    OpenLoop(RunPlan plan, int thread, IterationStarter starter, BooleanSupplier stopped) {
        this.plan = plan;
        this.thread = thread;
        this.starter = starter;
        this.stopped = stopped;
    }

    @Override
    public void run() {
        int threads = plan.threads();
        int users = plan.usersPerThread();
        long turn = 0;
        for (long n = thread; plan.isDue(n); n += threads, turn++) {
            long intended = plan.intendedNanos(n);
            if (!waitUntil(intended)) {
                return;
            }
            int user = thread * users + (int) (turn % users);
            starter.start(user, intended, System.nanoTime(), n >= plan.warmupIterations(), () -> {
            });
        }
    }

    /** @return false when the run was stopped while waiting */
    private boolean waitUntil(long deadline) {
        while (true) {
            if (stopped.getAsBoolean()) {
                return false;
            }
            long wait = deadline - System.nanoTime();
            if (wait <= 0) {
                return true;
            }
            LockSupport.parkNanos(Math.min(wait, MAX_PARK_NANOS));
        }
    }
}
