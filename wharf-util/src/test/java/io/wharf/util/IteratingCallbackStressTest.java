package io.wharf.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * Many jobs driven at once from many threads: work is offered (and iterate() called) from
 * driver threads and from an executor, steps complete synchronously or on the executor,
 * some steps fail, and some jobs are aborted at a random moment. Every job must complete
 * exactly once, never while process() runs, never while its step is in flight, and a job
 * that succeeded must have run every planned step.
 */
class IteratingCallbackStressTest {

    private static final int DRIVERS = 8;
    private static final int JOBS_PER_DRIVER = 10_000;
    private static final int MAX_STEPS = 8;

    /** A job whose work is "tokens" offered from any thread; each token is one step. */
    private static final class Job extends IteratingCallback {
        final int planned;
        final ExecutorService executor;
        final CountDownLatch done;
        final ConcurrentLinkedQueue<String> violations;
        final AtomicInteger offered = new AtomicInteger();
        final AtomicBoolean inProcess = new AtomicBoolean();
        final AtomicBoolean stepInFlight = new AtomicBoolean();
        final AtomicInteger completeSuccesses = new AtomicInteger();
        final AtomicInteger completeFailures = new AtomicInteger();
        final AtomicInteger failures = new AtomicInteger();
        final AtomicInteger successes = new AtomicInteger();
        final AtomicInteger abortWins = new AtomicInteger();
        final Exception abortCause = new Exception("abort");
        volatile Throwable completeCause;
        // Only touched by process(), which the callback serialises.
        int consumed;

        Job(int planned, ExecutorService executor, CountDownLatch done, ConcurrentLinkedQueue<String> violations) {
            this.planned = planned;
            this.executor = executor;
            this.done = done;
            this.violations = violations;
        }

        void offer() {
            offered.incrementAndGet();
            iterate();
        }

        void abortNow() {
            if (abort(abortCause)) {
                abortWins.incrementAndGet();
            }
        }

        @Override
        protected Action process() {
            if (!inProcess.compareAndSet(false, true)) {
                violations.add("process() entered twice: " + this);
            }
            try {
                if (stepInFlight.get()) {
                    violations.add("process() while the previous step is in flight: " + this);
                }
                if (consumed == planned) {
                    return Action.SUCCEEDED;
                }
                if (offered.get() == consumed) {
                    // Widen the window in which an offer arrives after the check.
                    Thread.yield();
                    return Action.IDLE;
                }
                consumed++;
                int dice = ThreadLocalRandom.current().nextInt(100);
                if (dice < 2) {
                    failed(new Exception("step failed"));
                } else if (dice < 4) {
                    stepInFlight.set(true);
                    executor.execute(() -> {
                        stepInFlight.set(false);
                        failed(new Exception("step failed"));
                    });
                } else if (dice < 50) {
                    succeeded();
                    if (dice < 20) {
                        // Widen the window in which an abort lands after the step completed.
                        Thread.yield();
                    }
                } else {
                    stepInFlight.set(true);
                    executor.execute(() -> {
                        stepInFlight.set(false);
                        succeeded();
                    });
                    if (dice < 60) {
                        // Widen the window in which the step completes, or an abort lands,
                        // before process() returns.
                        Thread.yield();
                    }
                }
                return Action.SCHEDULED;
            } finally {
                inProcess.set(false);
            }
        }

        @Override
        protected void onSuccess() {
            if (inProcess.get()) {
                violations.add("onSuccess() during process(): " + this);
            }
            successes.incrementAndGet();
        }

        @Override
        protected void onFailure(Throwable cause) {
            failures.incrementAndGet();
        }

        @Override
        protected void onCompleteSuccess() {
            if (inProcess.get()) {
                violations.add("onCompleteSuccess() during process(): " + this);
            }
            completeSuccesses.incrementAndGet();
            done.countDown();
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            if (inProcess.get()) {
                violations.add("onCompleteFailure() during process(): " + this);
            }
            if (stepInFlight.get()) {
                violations.add("onCompleteFailure() while a step is in flight: " + this);
            }
            if (failures.get() != 1) {
                violations.add("onCompleteFailure() before onFailure(): " + this);
            }
            completeCause = cause;
            completeFailures.incrementAndGet();
            done.countDown();
        }
    }

    @Test
    void everyJobCompletesExactlyOnce() throws Exception {
        int total = DRIVERS * JOBS_PER_DRIVER;
        ExecutorService executor = Executors.newFixedThreadPool(4);
        CountDownLatch done = new CountDownLatch(total);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        Job[] jobs = new Job[total];
        List<Thread> drivers = new ArrayList<>();
        for (int d = 0; d < DRIVERS; d++) {
            int first = d * JOBS_PER_DRIVER;
            drivers.add(new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int j = first; j < first + JOBS_PER_DRIVER; j++) {
                    Job job = new Job(1 + random.nextInt(MAX_STEPS), executor, done, violations);
                    jobs[j] = job;
                    int abortAt = random.nextInt(100) < 15 ? random.nextInt(job.planned + 1) : -1;
                    for (int step = 0; step <= job.planned; step++) {
                        if (step == abortAt) {
                            if (random.nextBoolean()) {
                                job.abortNow();
                            } else {
                                executor.execute(job::abortNow);
                            }
                        }
                        if (step < job.planned) {
                            if (random.nextBoolean()) {
                                job.offer();
                            } else {
                                executor.execute(job::offer);
                            }
                        }
                    }
                    // No extra iterate() here: it could hide a lost wake-up of the last offer.
                }
            }, "driver-" + d));
        }
        drivers.forEach(Thread::start);
        for (Thread driver : drivers) {
            driver.join();
        }

        boolean completed = done.await(10, TimeUnit.SECONDS);
        // Let late step completions, offers and aborts run before counting.
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        if (!completed) {
            StringBuilder stuck = new StringBuilder();
            int shown = 0;
            for (Job job : jobs) {
                if (job.completeSuccesses.get() + job.completeFailures.get() == 0 && shown++ < 5) {
                    stuck.append(job).append(" consumed=").append(job.consumed).append(" offered=").append(job.offered).append('\n');
                }
            }
            fail(done.getCount() + " jobs never completed, for example:\n" + stuck);
        }
        assertEquals(List.of(), List.copyOf(violations));

        int succeeded = 0;
        int aborted = 0;
        for (Job job : jobs) {
            int successes = job.completeSuccesses.get();
            int failures = job.completeFailures.get();
            assertEquals(1, successes + failures, () -> "completions of " + job);
            assertTrue(job.abortWins.get() <= 1, () -> "abort() won twice: " + job);
            if (successes == 1) {
                succeeded++;
                assertTrue(job.isSucceeded(), job::toString);
                assertEquals(job.planned, job.consumed, () -> "steps of " + job);
                assertEquals(job.planned, job.successes.get(), () -> "onSuccess() calls of " + job);
                assertEquals(0, job.abortWins.get(), () -> "abort() won on a succeeded job " + job);
                assertEquals(0, job.failures.get(), () -> "onFailure() on a succeeded job " + job);
            } else {
                assertEquals(1, job.failures.get(), () -> "onFailure() calls of " + job);
                if (job.abortWins.get() == 1) {
                    aborted++;
                    assertTrue(job.isAborted(), job::toString);
                    assertTrue(job.completeCause == job.abortCause, () -> "cause of " + job);
                } else {
                    assertTrue(job.isFailed(), job::toString);
                    assertEquals("step failed", job.completeCause.getMessage(), () -> "cause of " + job);
                }
            }
        }
        // The mix must really exercise every outcome.
        assertTrue(succeeded > total / 2, "succeeded " + succeeded);
        assertTrue(aborted > total / 50, "aborted " + aborted);
        assertTrue(total - succeeded - aborted > total / 50, "failed " + (total - succeeded - aborted));
    }
}
