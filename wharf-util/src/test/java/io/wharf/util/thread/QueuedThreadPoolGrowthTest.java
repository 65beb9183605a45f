package io.wharf.util.thread;

import static io.wharf.util.thread.Eventually.assertEventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How {@link QueuedThreadPool} puts more threads to work when jobs queue up behind slow or
 * blocking ones: workers do not wake each other for every job left behind, a watcher joins in
 * when a job stays queued, so these prove that the pool still grows and that nothing is
 * stranded behind a job that waits for a job queued after it.
 */
class QueuedThreadPoolGrowthTest {

    private QueuedThreadPool pool;

    @AfterEach
    void stopPool() throws Exception {
        if (pool != null) {
            pool.setStopTimeout(Duration.ofSeconds(1));
            pool.stop();
        }
    }

    private QueuedThreadPool start(int minThreads, int maxThreads) throws Exception {
        pool = new QueuedThreadPool(minThreads, maxThreads);
        pool.start();
        return pool;
    }

    /**
     * Job A waits for job B, queued right behind it, while the pool's other thread is idle:
     * nobody wakes that thread for B at once, but the watcher must see B stay queued and take it.
     */
    @Test
    void aJobQueuedBehindOneThatWaitsForItStillRuns() throws Exception {
        start(2, 2);
        AtomicInteger completed = new AtomicInteger();
        for (int round = 1; round <= 200; round++) {
            CountDownLatch bRan = new CountDownLatch(1);
            CountDownLatch aDone = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    if (bRan.await(10, TimeUnit.SECONDS)) {
                        completed.incrementAndGet();
                    }
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                } finally {
                    aDone.countDown();
                }
            });
            pool.execute(bRan::countDown);
            assertTrue(aDone.await(20, TimeUnit.SECONDS), "round " + round + ": " + pool);
            assertEquals(round, completed.get(), () -> "B was stranded behind A: " + pool);
        }
    }

    /**
     * 16 jobs that can only finish together, executed at once into a pool of one thread that
     * may grow to 16: every thread has to be started (or woken, the second round) and put to
     * work while the others block, or none finishes.
     */
    @Test
    void blockingJobsPutEveryThreadToWork() throws Exception {
        int threads = 16;
        start(1, threads);
        for (int round = 1; round <= 2; round++) {
            CountDownLatch allRunning = new CountDownLatch(threads);
            CountDownLatch done = new CountDownLatch(threads);
            AtomicInteger timedOut = new AtomicInteger();
            for (int i = 0; i < threads; i++) {
                pool.execute(() -> {
                    allRunning.countDown();
                    try {
                        if (!allRunning.await(15, TimeUnit.SECONDS)) {
                            timedOut.incrementAndGet();
                        }
                    } catch (InterruptedException x) {
                        Thread.currentThread().interrupt();
                    } finally {
                        done.countDown();
                    }
                });
            }
            assertTrue(done.await(20, TimeUnit.SECONDS), "round " + round + ": " + pool);
            assertEquals(0, timedOut.get(), "round " + round + ": jobs waited in vain for the others: " + pool);
            assertEquals(threads, pool.getThreads(), pool::toString);
            int round1 = round;
            assertEventually(() -> pool.getIdleThreads() == threads, () -> "round " + round1 + ": " + pool);
        }
    }

    /** Jobs that each burn about 2 ms of CPU: the backlog makes a second thread join in. */
    @Test
    void slowJobsRunOnMoreThanOneThread() throws Exception {
        start(4, 4);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(40);
        for (int i = 0; i < 40; i++) {
            pool.execute(() -> {
                mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                while (System.nanoTime() - end < 0) {
                    Thread.onSpinWait();
                }
                running.decrementAndGet();
                done.countDown();
            });
        }
        assertTrue(done.await(20, TimeUnit.SECONDS), pool::toString);
        assertTrue(mostRunning.get() >= 2, () -> "at most " + mostRunning + " jobs ran at once: " + pool);
    }
}
