package io.wharf.util.thread;

import static io.wharf.util.thread.Eventually.assertEventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReservedThreadsTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicInteger jobsStarted = new AtomicInteger();
    private ReservedThreads reserved;

    @AfterEach
    void stop() throws Exception {
        if (reserved != null) {
            reserved.stop();
        }
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS), "every reserved thread left after stop");
    }

    private ReservedThreads start(int capacity) throws Exception {
        reserved = new ReservedThreads(job -> {
            jobsStarted.incrementAndGet();
            executor.execute(job);
        }, capacity);
        reserved.start();
        return reserved;
    }

    @Test
    void tryExecuteIsFalseUntilAThreadIsParkedThenRunsTheTaskAtOnce() throws Exception {
        start(2);
        assertFalse(reserved.tryExecute(() -> {
        }));
        assertEquals(1, reserved.getMissedCount());
        assertEventually(() -> reserved.getAvailable() == 1, reserved::toString);
        assertEquals(1, reserved.getThreads());
        assertEquals(0, reserved.getPending());

        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        assertTrue(reserved.tryExecute(() -> {
            ranOn.set(Thread.currentThread());
            ran.countDown();
        }));
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        assertNotSame(Thread.currentThread(), ranOn.get());
        assertEquals(1, reserved.getHandedCount());
        // After its task the thread parks again, ready for the next one.
        assertEventually(() -> reserved.getAvailable() == 1, reserved::toString);
    }

    /** @return a task that counts itself running, then waits for {@code release} (at most 20 s) */
    private static Runnable blockedUntil(CountDownLatch release, AtomicInteger running) {
        return () -> {
            running.incrementAndGet();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        };
    }

    @Test
    void neverMoreParkedThanCapacityAndOneStartAtATime() throws Exception {
        start(3);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        Runnable blocked = blockedUntil(release, running);
        // Each handed task lends its thread out: it no longer counts, so the set refills behind it.
        assertEventually(() -> {
            reserved.tryExecute(blocked);
            return running.get() == 5;
        }, reserved::toString);
        // Every thread started is lent out (five) or counted, and the counted ones never exceed the capacity.
        assertTrue(reserved.getThreads() <= 3, reserved::toString);
        assertTrue(jobsStarted.get() <= 5 + 3, "started " + jobsStarted.get());
        // Back from their tasks, lent threads rejoin only while the set is below capacity; the others leave.
        release.countDown();
        assertEventually(() -> reserved.dump().lines().filter(line -> line.contains("ReservedThread@")).count() == 3, reserved::dump);
        assertEquals(3, reserved.getThreads());
        assertEquals(3, reserved.getAvailable());
    }

    @Test
    void aThreadRunningAHandedTaskLeavesRoomForAnother() throws Exception {
        start(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        Runnable blocked = blockedUntil(release, running);
        assertEventually(() -> {
            reserved.tryExecute(blocked);
            return running.get() == 1;
        }, reserved::toString);
        // The one reserved thread runs a long task (production, in EPC): the next hand-off must still find a thread.
        assertEventually(() -> reserved.tryExecute(() -> {
        }), reserved::toString);
        assertEquals(1, running.get());
        release.countDown();
        assertEventually(() -> reserved.getAvailable() == 1, reserved::toString);
        assertEquals(1, reserved.getThreads());
    }

    @Test
    void idleReservedThreadsLeave() throws Exception {
        ReservedThreads threads = new ReservedThreads(executor, 2);
        threads.setIdleTimeout(Duration.ofMillis(100));
        reserved = threads;
        reserved.start();
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        assertEventually(() -> {
            reserved.tryExecute(() -> {
                running.incrementAndGet();
                try {
                    release.await();
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                }
            });
            return running.get() == 2;
        }, reserved::toString);
        release.countDown();
        assertEventually(() -> reserved.getAvailable() == 2, reserved::toString);
        assertEventually(() -> reserved.getThreads() == 0, reserved::toString);
        assertEquals(0, reserved.getAvailable());
        // The set grows again on demand.
        assertFalse(reserved.tryExecute(() -> {
        }));
        assertEventually(() -> reserved.getAvailable() == 1, reserved::toString);
    }

    @Test
    void zeroCapacityNeverReserves() throws Exception {
        start(0);
        for (int i = 0; i < 10; i++) {
            assertFalse(reserved.tryExecute(() -> {
            }));
        }
        assertEquals(0, jobsStarted.get());
    }

    @Test
    void stopSendsParkedThreadsAwayAndRefusesTasks() throws Exception {
        start(2);
        assertFalse(reserved.tryExecute(() -> {
        }));
        assertEventually(() -> reserved.getAvailable() == 1, reserved::toString);
        reserved.stop();
        assertEventually(() -> reserved.getThreads() == 0, reserved::toString);
        AtomicInteger ran = new AtomicInteger();
        assertFalse(reserved.tryExecute(ran::incrementAndGet));
        assertEquals(1, jobsStarted.get(), "no thread is started once stopped");
        assertEquals(0, ran.get());
    }

    @Test
    void dumpShowsTheThreads() throws Exception {
        start(1);
        assertFalse(reserved.tryExecute(() -> {
        }));
        assertEventually(() -> reserved.getAvailable() == 1, reserved::toString);
        String dump = reserved.dump();
        assertTrue(dump.contains("threads=1/1,available=1"), dump);
        assertTrue(dump.contains("ReservedThread@"), dump);
        assertTrue(dump.contains("PARKED"), dump);
    }

    /**
     * 16 threads make 50,000 tryExecute attempts each against a pool's reserved threads: every
     * task accepted runs exactly once, and no task refused runs.
     */
    @Test
    void noTaskLostOrRunTwiceUnderContention() throws Exception {
        int callers = 16;
        int attempts = 50_000;
        QueuedThreadPool pool = new QueuedThreadPool(4, 32);
        pool.setReservedThreads(4);
        pool.start();
        try {
            AtomicIntegerArray runs = new AtomicIntegerArray(callers * attempts);
            AtomicIntegerArray accepted = new AtomicIntegerArray(callers * attempts);
            AtomicInteger acceptedCount = new AtomicInteger();
            AtomicInteger runCount = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService threads = Executors.newFixedThreadPool(callers);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int c = 0; c < callers; c++) {
                    int caller = c;
                    futures.add(threads.submit(() -> {
                        start.await();
                        for (int i = 0; i < attempts; i++) {
                            int id = caller * attempts + i;
                            if (pool.tryExecute(() -> {
                                runs.incrementAndGet(id);
                                runCount.incrementAndGet();
                            })) {
                                accepted.set(id, 1);
                                acceptedCount.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> future : futures) {
                    future.get(20, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
            }
            assertEventually(() -> runCount.get() >= acceptedCount.get(), () -> runCount + " runs of " + acceptedCount + " accepted");
            for (int id = 0; id < runs.length(); id++) {
                assertEquals(accepted.get(id), runs.get(id), "task " + id);
            }
            assertEquals(acceptedCount.get(), runCount.get());
            assertTrue(acceptedCount.get() > 1_000, "only " + acceptedCount + " hand-offs: the test did not exercise them");
        } finally {
            pool.stop();
        }
    }
}
