package io.wharf.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.util.thread.TimerScheduler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client's total timeouts on one scheduled check: each deadline expires once, not before
 * its time, and never after it was removed; an early deadline added after a late one is not
 * kept waiting for the late one's check; a stop forgets the scheduled check, so a restart
 * schedules anew; many threads adding and removing at once.
 */
@Timeout(60)
class DeadlinesTest {

    private final TimerScheduler scheduler = new TimerScheduler("deadlines-test");
    private final Deadlines deadlines = new Deadlines();

    @BeforeEach
    void start() throws Exception {
        scheduler.start();
    }

    @AfterEach
    void stop() throws Exception {
        scheduler.stop();
    }

    /** A deadline that records when, and how often, it expired. */
    private static final class Counted implements Deadlines.Expirable {
        final long deadline;
        final AtomicInteger expired = new AtomicInteger();
        final AtomicLong expiredAt = new AtomicLong();
        final CountDownLatch done;

        Counted(long delayMillis, CountDownLatch done) {
            this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis);
            this.done = done;
        }

        @Override
        public long deadlineNanos() {
            return deadline;
        }

        @Override
        public void expire() {
            expiredAt.set(System.nanoTime());
            expired.incrementAndGet();
            done.countDown();
        }
    }

    @Test
    void eachDeadlineExpiresOnceNotBeforeItsTimeAndNotOnceRemoved() throws Exception {
        CountDownLatch due = new CountDownLatch(100);
        List<Counted> kept = new ArrayList<>();
        List<Counted> removed = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Counted counted = new Counted(ThreadLocalRandom.current().nextLong(0, 300), i % 2 == 0 ? due : new CountDownLatch(1));
            deadlines.add(counted, scheduler);
            (i % 2 == 0 ? kept : removed).add(counted);
        }
        // Removed at once: well before any of them could be due but the shortest, which may have expired already.
        for (Counted counted : removed) {
            deadlines.remove(counted);
        }
        assertTrue(due.await(10, TimeUnit.SECONDS), "every kept deadline expired");
        Thread.sleep(400);
        for (Counted counted : kept) {
            assertEquals(1, counted.expired.get(), "expired once");
            assertTrue(counted.expiredAt.get() - counted.deadline >= 0, "not before its deadline");
        }
        for (Counted counted : removed) {
            assertTrue(counted.expired.get() == 0 || counted.expiredAt.get() - counted.deadline >= 0 && counted.expired.get() == 1,
                "removed: never expired, or expired once at its time before the removal");
        }
        assertTrue(deadlines.toString().contains("0 pending"), deadlines.toString());
    }

    @Test
    void anEarlyDeadlineAfterALateOneIsCheckedOnTime() throws Exception {
        CountDownLatch late = new CountDownLatch(1);
        CountDownLatch early = new CountDownLatch(1);
        Counted lateOne = new Counted(TimeUnit.MINUTES.toMillis(5), late);
        deadlines.add(lateOne, scheduler);
        long start = System.nanoTime();
        deadlines.add(new Counted(50, early), scheduler);
        assertTrue(early.await(5, TimeUnit.SECONDS), "the early deadline did not wait for the late one's check");
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50));
        assertEquals(0, lateOne.expired.get());
        deadlines.remove(lateOne);
    }

    @Test
    void afterAStopTheNextDeadlineSchedulesItsOwnCheck() throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        deadlines.add(new Counted(TimeUnit.MINUTES.toMillis(5), first), scheduler);
        // The client stops: its scheduler drops the check for five minutes from now.
        scheduler.stop();
        deadlines.clear();
        scheduler.start();
        CountDownLatch second = new CountDownLatch(1);
        deadlines.add(new Counted(20, second), scheduler);
        assertTrue(second.await(5, TimeUnit.SECONDS), "checked after the restart");
    }

    @Test
    void manyThreadsAddingAndRemovingAtOnce() throws Exception {
        int threads = 8;
        int each = 5_000;
        CountDownLatch due = new CountDownLatch(threads * each / 10);
        List<List<Counted>> keptPerThread = new ArrayList<>();
        List<List<Counted>> removedPerThread = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Counted> kept = new ArrayList<>();
            List<Counted> removed = new ArrayList<>();
            keptPerThread.add(kept);
            removedPerThread.add(removed);
            workers.add(Thread.ofPlatform().start(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int i = 0; i < each; i++) {
                    if (i % 10 == 0) {
                        // Left to expire, soon.
                        Counted counted = new Counted(random.nextLong(0, 50), due);
                        deadlines.add(counted, scheduler);
                        kept.add(counted);
                    } else {
                        // Ended long before its deadline, as nearly every request does.
                        Counted counted = new Counted(TimeUnit.MINUTES.toMillis(1), new CountDownLatch(1));
                        deadlines.add(counted, scheduler);
                        deadlines.remove(counted);
                        removed.add(counted);
                    }
                }
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }
        assertTrue(due.await(20, TimeUnit.SECONDS), "every kept deadline expired: " + due.getCount() + " left, " + deadlines);
        for (List<Counted> kept : keptPerThread) {
            for (Counted counted : kept) {
                assertEquals(1, counted.expired.get());
                assertTrue(counted.expiredAt.get() - counted.deadline >= 0);
            }
        }
        for (List<Counted> removed : removedPerThread) {
            for (Counted counted : removed) {
                assertEquals(0, counted.expired.get());
            }
        }
        assertTrue(deadlines.toString().contains("0 pending"), deadlines.toString());
    }
}
