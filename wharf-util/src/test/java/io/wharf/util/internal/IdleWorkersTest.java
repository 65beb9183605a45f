package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/**
 * The wake-up rules of {@link IdleWorkers} against a pool that records what it is asked
 * instead of starting threads; the test thread plays the workers. The pool-level behaviour
 * (liveness, growth under blocking jobs) is in {@code QueuedThreadPoolGrowthTest}.
 */
class IdleWorkersTest {

    private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long LONG = TimeUnit.MINUTES.toNanos(1);

    /** Records the starts it is asked for; grants them only when told to. */
    private static final class RecordingPool implements IdleWorkers.Pool {
        final List<Boolean> startsAsked = new CopyOnWriteArrayList<>();
        volatile boolean running = true;
        volatile boolean grantStarts;

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public boolean startWorker(boolean watching) {
            startsAsked.add(watching);
            return grantStarts;
        }
    }

    private final RecordingPool pool = new RecordingPool();
    private final ThreadCount threads = new ThreadCount();
    private final IdleWorkers idle = new IdleWorkers(pool, threads, PERIOD);
    private final JobQueue<Runnable> jobs = new JobQueue<>();

    private static Runnable job(String name) {
        return new Runnable() {
            @Override
            public void run() {
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    @Test
    void aJobInAnEmptyQueueWithNobodyIdleAsksForAThread() {
        idle.jobMadeQueueNonEmpty();
        assertEquals(List.of(false), pool.startsAsked);
    }

    @Test
    void aJobInAnEmptyQueueWakesTheIdleWorker() throws Exception {
        threads.incrementBelow(1);
        AtomicReference<Runnable> taken = new AtomicReference<>();
        Thread worker = Thread.ofPlatform().start(() -> taken.set(idle.awaitJob(jobs, 1, 1, LONG)));
        awaitIdle(1);
        Runnable first = job("first");
        jobs.offer(first);
        idle.jobMadeQueueNonEmpty();
        worker.join(TimeUnit.SECONDS.toMillis(10));
        assertSame(first, taken.get());
        assertEquals(List.of(), pool.startsAsked, "an idle worker was there: no thread to start");
        assertEquals(0, idle.count());
    }

    @Test
    void jobsLeftBehindAskForAWatcherOnceUntilTheWatchEnds() {
        jobs.offer(job("a"));
        idle.jobsLeftBehind(jobs, 4);
        assertEquals(List.of(true), pool.startsAsked, "nobody idle: a new thread to watch");
        // Not granted: the claim was given back, so the next worker that sees jobs left claims again.
        idle.jobsLeftBehind(jobs, 4);
        assertEquals(List.of(true, true), pool.startsAsked);
        pool.grantStarts = true;
        idle.jobsLeftBehind(jobs, 4);
        idle.jobsLeftBehind(jobs, 4);
        assertEquals(List.of(true, true, true), pool.startsAsked, "the backlog is watched already");
    }

    @Test
    void nobodyIsAskedToWatchWhenEveryThreadIsBusyAndThePoolIsFull() {
        threads.incrementBelow(1);
        jobs.offer(job("a"));
        idle.jobsLeftBehind(jobs, 1);
        assertEquals(List.of(), pool.startsAsked);
    }

    @Test
    void theWatcherTakesAJobThatStayedQueuedAndGivesTheWatchBack() {
        pool.grantStarts = true;
        Runnable stuck = job("stuck");
        jobs.offer(stuck);
        idle.jobsLeftBehind(jobs, 4);
        // The test thread is the worker started to watch: nobody takes the job, so it stalls.
        assertSame(stuck, idle.watch(jobs));
        assertNull(idle.watcher());
        assertEquals(0, idle.count());
        jobs.offer(job("next"));
        idle.jobsLeftBehind(jobs, 4);
        assertEquals(List.of(true, true), pool.startsAsked, "the watch was given back and claimed again");
    }

    @Test
    void theWatchEndsWithoutAJobWhenTheQueueEmpties() {
        pool.grantStarts = true;
        jobs.offer(job("a"));
        idle.jobsLeftBehind(jobs, 4);
        jobs.poll();
        assertNull(idle.watch(jobs));
        jobs.offer(job("b"));
        idle.jobsLeftBehind(jobs, 4);
        assertEquals(List.of(true, true), pool.startsAsked);
    }

    @Test
    void aStalledWatcherJoinsAndAsksForAsManyMoreWorkersAsWereRunningBesideIt() throws Exception {
        // 4 threads: 3 running jobs (not played), 1 idle, which gets the watch.
        for (int i = 0; i < 4; i++) {
            threads.incrementBelow(4);
        }
        AtomicReference<Runnable> taken = new AtomicReference<>();
        Thread watcher = Thread.ofPlatform().start(() -> taken.set(idle.awaitJob(jobs, 0, 4, LONG)));
        awaitIdle(1);
        for (int i = 0; i < 3; i++) {
            jobs.offer(job("backlog" + i));
        }
        pool.grantStarts = true;
        idle.jobsLeftBehind(jobs, 4);
        watcher.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals("backlog0", String.valueOf(taken.get()), "the watcher took the oldest stalled job");
        // 3 running, so 3 more: the watcher and 2 started ones (nobody else idle), capped by the 2 jobs left.
        assertEquals(List.of(false, false), pool.startsAsked);
    }

    @Test
    void wakeAllEndsTheWaitsOfAStoppedPool() throws Exception {
        AtomicReference<Runnable> taken = new AtomicReference<>(job("not yet"));
        Thread worker = Thread.ofPlatform().start(() -> taken.set(idle.awaitJob(jobs, 0, 1, LONG)));
        awaitIdle(1);
        pool.running = false;
        idle.wakeAll();
        worker.join(TimeUnit.SECONDS.toMillis(10));
        assertNull(taken.get());
        assertEquals(0, idle.count());
    }

    @Test
    void aWatcherTakesNoJobOnceThePoolStopped() throws Exception {
        IdleWorkers slowWatch = new IdleWorkers(pool, threads, LONG);
        pool.grantStarts = true;
        jobs.offer(job("queued at the stop"));
        slowWatch.jobsLeftBehind(jobs, 4);
        AtomicReference<Runnable> taken = new AtomicReference<>(job("not yet"));
        Thread watcher = Thread.ofPlatform().start(() -> taken.set(slowWatch.watch(jobs)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (slowWatch.watcher() == null) {
            assertTrue(System.nanoTime() < deadline, "never watched");
            Thread.sleep(1);
        }
        pool.running = false;
        slowWatch.wakeAll();
        watcher.join(TimeUnit.SECONDS.toMillis(10));
        assertNull(taken.get());
        assertEquals(1, jobs.size(), "left for the pool to report");
    }

    @Test
    void anIdleWorkerAboveTheMinimumShrinksAfterTheIdleTimeout() throws Exception {
        threads.incrementBelow(2);
        threads.incrementBelow(2);
        threads.restartShrinkClock();
        long idleTimeout = TimeUnit.MILLISECONDS.toNanos(50);
        assertSame(IdleWorkers.SHRUNK, idle.awaitJob(jobs, 1, 2, idleTimeout));
        assertEquals(1, threads.get(), "the shrink counted the worker out");
    }

    private void awaitIdle(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (idle.count() < count) {
            assertTrue(System.nanoTime() < deadline, "no worker went idle: " + idle);
            Thread.sleep(1);
        }
    }
}
