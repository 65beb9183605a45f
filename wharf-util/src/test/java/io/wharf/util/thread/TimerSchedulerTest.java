package io.wharf.util.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TimerSchedulerTest {

    private TimerScheduler scheduler;

    @BeforeEach
    void start() throws Exception {
        scheduler = new TimerScheduler("test-scheduler");
        scheduler.start();
    }

    @AfterEach
    void stop() throws Exception {
        scheduler.stop();
    }

    @Test
    void runsTheTaskAfterTheDelayOnItsThread() throws Exception {
        AtomicReference<String> thread = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        long start = System.nanoTime();
        AtomicReference<Long> elapsed = new AtomicReference<>();
        scheduler.schedule(() -> {
            elapsed.set(System.nanoTime() - start);
            thread.set(Thread.currentThread().getName());
            ran.countDown();
        }, 50, TimeUnit.MILLISECONDS);

        assertTrue(ran.await(5, TimeUnit.SECONDS), "the task did not run within 5 s");
        assertTrue(elapsed.get() >= TimeUnit.MILLISECONDS.toNanos(50), "ran after " + elapsed.get() + " ns");
        assertEquals("test-scheduler", thread.get());
    }

    @Test
    void cancelBeforeTheRunReturnsTrueAndTheTaskNeverRuns() throws Exception {
        AtomicBoolean cancelledRan = new AtomicBoolean();
        // Due far later than the test lasts, so a busy machine cannot run it before the cancel (50 ms did, once).
        Scheduler.Task task = scheduler.schedule(() -> cancelledRan.set(true), 1, TimeUnit.HOURS);
        assertTrue(task.cancel());
        assertFalse(task.cancel(), "a second cancel");
        assertTrue(scheduler.toString().contains("queued=0"), "the cancelled task left the queue: " + scheduler);

        // The scheduler goes on with the others.
        CountDownLatch later = new CountDownLatch(1);
        scheduler.schedule(later::countDown, 100, TimeUnit.MILLISECONDS);
        assertTrue(later.await(5, TimeUnit.SECONDS));
        assertFalse(cancelledRan.get());
    }

    @Test
    void cancelAfterTheRunReturnsFalse() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        Scheduler.Task task = scheduler.schedule(ran::countDown, 0, TimeUnit.MILLISECONDS);
        assertTrue(ran.await(5, TimeUnit.SECONDS));
        assertFalse(task.cancel());
    }

    @Test
    void cancelWhileTheTaskRunsReturnsFalse() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Scheduler.Task task = scheduler.schedule(() -> {
            running.countDown();
            awaitQuietly(release);
        }, 0, TimeUnit.MILLISECONDS);
        assertTrue(running.await(5, TimeUnit.SECONDS));
        try {
            assertFalse(task.cancel(), "cancel() of a task that already runs");
        } finally {
            release.countDown();
        }
    }

    @Test
    void cancelRacingTheRunReportsExactlyWhatHappened() throws Exception {
        int tasks = 20_000;
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger cancelled = new AtomicInteger();
        List<Scheduler.Task> handles = new ArrayList<>(tasks);
        List<AtomicBoolean> runs = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++) {
            AtomicBoolean run = new AtomicBoolean();
            runs.add(run);
            handles.add(scheduler.schedule(() -> {
                run.set(true);
                ran.incrementAndGet();
            }, 0, TimeUnit.MILLISECONDS));
            if (i % 2 == 1) {
                // Cancel the previous task, which is likely running right now.
                if (handles.get(i - 1).cancel()) {
                    cancelled.incrementAndGet();
                    assertFalse(runs.get(i - 1).get(), "cancel() returned true for a task that ran");
                }
            }
        }
        CountDownLatch last = new CountDownLatch(1);
        scheduler.schedule(last::countDown, 0, TimeUnit.MILLISECONDS);
        assertTrue(last.await(10, TimeUnit.SECONDS));
        assertEquals(tasks, ran.get() + cancelled.get(), "every task either ran or was cancelled, not both");
    }

    @Test
    void aThrowingTaskDoesNotStopTheScheduler() throws Exception {
        CountDownLatch threw = new CountDownLatch(1);
        scheduler.schedule(() -> {
            threw.countDown();
            throw new IllegalStateException("expected by the test");
        }, 0, TimeUnit.MILLISECONDS);
        assertTrue(threw.await(5, TimeUnit.SECONDS));

        CountDownLatch ran = new CountDownLatch(1);
        scheduler.schedule(ran::countDown, 10, TimeUnit.MILLISECONDS);
        assertTrue(ran.await(5, TimeUnit.SECONDS));
    }

    @Test
    void scheduleOnAStoppedSchedulerIsRejected() throws Exception {
        TimerScheduler neverStarted = new TimerScheduler("never-started");
        RejectedExecutionException before = assertThrows(RejectedExecutionException.class,
            () -> neverStarted.schedule(() -> { }, 1, TimeUnit.SECONDS));
        assertTrue(before.getMessage().contains("is not running"), before.getMessage());

        scheduler.stop();
        RejectedExecutionException after = assertThrows(RejectedExecutionException.class,
            () -> scheduler.schedule(() -> { }, 1, TimeUnit.SECONDS));
        assertTrue(after.getMessage().contains("TimerScheduler") && after.getMessage().contains("is not running"), after.getMessage());
    }

    @Test
    void stopDropsPendingTasksAndARestartWorks() throws Exception {
        AtomicBoolean ran = new AtomicBoolean();
        scheduler.schedule(() -> ran.set(true), 100, TimeUnit.MILLISECONDS);
        scheduler.stop();
        scheduler.start();

        CountDownLatch later = new CountDownLatch(1);
        scheduler.schedule(later::countDown, 200, TimeUnit.MILLISECONDS);
        assertTrue(later.await(5, TimeUnit.SECONDS));
        assertFalse(ran.get(), "a task scheduled before stop() ran");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }
}
