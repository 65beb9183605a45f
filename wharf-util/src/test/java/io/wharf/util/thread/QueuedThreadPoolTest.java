package io.wharf.util.thread;

import static io.wharf.util.thread.Eventually.assertEventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class QueuedThreadPoolTest {

    private final List<CountDownLatch> toRelease = new ArrayList<>();
    private QueuedThreadPool pool;

    @AfterEach
    void stopPool() throws Exception {
        toRelease.forEach(CountDownLatch::countDown);
        if (pool != null) {
            pool.setStopTimeout(Duration.ofSeconds(1));
            pool.stop();
        }
    }

    private QueuedThreadPool start(QueuedThreadPool newPool) throws Exception {
        pool = newPool;
        pool.start();
        return pool;
    }

    private CountDownLatch latch() {
        CountDownLatch latch = new CountDownLatch(1);
        toRelease.add(latch);
        return latch;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("latch not released");
            }
        } catch (InterruptedException x) {
            throw new IllegalStateException("interrupted", x);
        }
    }

    @Test
    void startsMinThreadsAndRejectsBadSizes() throws Exception {
        start(new QueuedThreadPool(3, 5));
        assertEventually(() -> pool.getThreads() == 3 && pool.getIdleThreads() == 3, pool::toString);
        assertThrows(IllegalArgumentException.class, () -> new QueuedThreadPool(6, 5));
        assertThrows(IllegalArgumentException.class, () -> pool.setMaxThreads(2));
        assertThrows(IllegalStateException.class, () -> pool.setMaxQueued(10));
    }

    @Test
    void growsToMaxUnderLoadAndNoFurther() throws Exception {
        start(new QueuedThreadPool(2, 6));
        CountDownLatch release = latch();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        Runnable job = () -> {
            maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            await(release);
            running.decrementAndGet();
            done.incrementAndGet();
        };
        for (int i = 0; i < 20; i++) {
            pool.execute(job);
        }
        assertEventually(() -> running.get() == 6 && pool.getQueueSize() == 14, pool::toString);
        assertEquals(6, pool.getThreads());
        assertEquals(6, pool.getBusyThreads());
        assertEquals(0, pool.getIdleThreads());
        assertTrue(pool.isLowOnThreads());
        for (int i = 0; i < 5; i++) {
            pool.execute(job);
        }
        assertEquals(6, pool.getThreads(), pool::toString);
        assertEquals(19, pool.getQueueSize());
        release.countDown();
        assertEventually(() -> done.get() == 25, pool::toString);
        assertEquals(6, maxRunning.get());
        assertEquals(6, pool.getThreads());
        assertFalse(pool.isLowOnThreads());
    }

    /** After a burst the pool shrinks to min, but by at most one thread per idle timeout period. */
    @Test
    void shrinksAfterIdleTimeoutOneThreadPerPeriod() throws Exception {
        Duration idleTimeout = Duration.ofMillis(100);
        QueuedThreadPool newPool = new QueuedThreadPool(2, 10);
        newPool.setIdleTimeout(idleTimeout);
        start(newPool);
        CountDownLatch release = latch();
        CountDownLatch allRunning = new CountDownLatch(10);
        for (int i = 0; i < 10; i++) {
            pool.execute(() -> {
                allRunning.countDown();
                await(release);
            });
        }
        assertTrue(allRunning.await(10, TimeUnit.SECONDS), pool::toString);
        assertEquals(10, pool.getThreads());

        long released = System.nanoTime();
        release.countDown();
        long before = System.nanoTime();
        int previous = pool.getThreads();
        long deadline = released + TimeUnit.SECONDS.toNanos(10);
        while (previous > 2) {
            Thread.sleep(5);
            int count = pool.getThreads();
            long now = System.nanoTime();
            long periods = (now - before) / idleTimeout.toNanos();
            assertTrue(previous - count <= 1 + periods, "dropped from " + previous + " to " + count + " within " + (now - before) / 1_000_000 + " ms");
            before = now;
            previous = count;
            assertTrue(now - deadline < 0, pool::toString);
        }
        long elapsed = System.nanoTime() - released;
        // 8 shrinks: the first after one idle timeout, each next one a period later.
        assertTrue(elapsed >= 8 * idleTimeout.toNanos(), "shrank to min in " + elapsed / 1_000_000 + " ms");
        // And never below min.
        long watchUntil = System.nanoTime() + 3 * idleTimeout.toNanos();
        while (System.nanoTime() - watchUntil < 0) {
            assertEquals(2, pool.getThreads());
            Thread.sleep(5);
        }
    }

    /**
     * Submitters in bursts and pauses, with a short idle timeout so that workers park, shrink
     * and start all along: every job runs exactly once, none is stranded in the queue.
     */
    @Test
    void everyJobRunsExactlyOnceWhileThePoolGrowsAndShrinks() throws Exception {
        int submitters = 8;
        int jobsEach = 25_000;
        QueuedThreadPool newPool = new QueuedThreadPool(1, 4);
        newPool.setIdleTimeout(Duration.ofMillis(5));
        start(newPool);
        AtomicIntegerArray runs = new AtomicIntegerArray(submitters * jobsEach);
        AtomicInteger total = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(submitters);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int s = 0; s < submitters; s++) {
                int submitter = s;
                futures.add(threads.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < jobsEach; i++) {
                        int id = submitter * jobsEach + i;
                        pool.execute(() -> {
                            runs.incrementAndGet(id);
                            total.incrementAndGet();
                        });
                        if (random.nextInt(2_000) == 0) {
                            Thread.sleep(random.nextInt(1, 15));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(20, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertEventually(() -> total.get() == runs.length(), () -> total + " of " + runs.length() + " ran; " + pool);
        for (int id = 0; id < runs.length(); id++) {
            assertEquals(1, runs.get(id), "job " + id);
        }
        assertTrue(pool.getThreads() <= 4, pool::toString);
        assertEquals(0, pool.getQueueSize());
    }

    /**
     * One thread, one job at a time, the next one executed just as the thread goes idle: the
     * job must never be left in the queue behind a parked thread (a lost wake-up would strand
     * it for good, min and max being equal).
     */
    @Test
    void jobOfferedWhileTheThreadGoesIdleIsNeverStranded() throws Exception {
        start(new QueuedThreadPool(1, 1));
        AtomicInteger done = new AtomicInteger();
        for (int round = 1; round <= 200_000; round++) {
            pool.execute(done::incrementAndGet);
            // Spin rather than block, so that the next job comes while the thread is on its way to park.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (done.get() < round) {
                Thread.onSpinWait();
                assertTrue(System.nanoTime() - deadline < 0, "round " + round + " stranded: " + pool);
            }
        }
    }

    @Test
    void boundedQueueRejectsNamingThePoolAndTheLimit() throws Exception {
        QueuedThreadPool newPool = new QueuedThreadPool(1, 1);
        newPool.setName("bounded");
        newPool.setMaxQueued(2);
        start(newPool);
        CountDownLatch release = latch();
        CountDownLatch running = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            await(release);
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));
        AtomicInteger ran = new AtomicInteger();
        pool.execute(ran::incrementAndGet);
        pool.execute(ran::incrementAndGet);
        assertEquals(2, pool.getQueueSize());
        RejectedExecutionException rejected = assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> ran.addAndGet(100)));
        assertTrue(rejected.getMessage().contains("bounded"), rejected.getMessage());
        assertTrue(rejected.getMessage().contains("maxQueued=2"), rejected.getMessage());
        release.countDown();
        assertEventually(() -> ran.get() == 2 && pool.getQueueSize() == 0, pool::toString);
        pool.execute(ran::incrementAndGet);
        assertEventually(() -> ran.get() == 3, pool::toString);
    }

    @Test
    void stoppedPoolRejects() throws Exception {
        QueuedThreadPool newPool = new QueuedThreadPool(1, 2);
        newPool.setName("stopped");
        RejectedExecutionException notStarted = assertThrows(RejectedExecutionException.class, () -> newPool.execute(() -> {
        }));
        assertTrue(notStarted.getMessage().contains("stopped"), notStarted.getMessage());
        start(newPool);
        pool.stop();
        RejectedExecutionException afterStop = assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> {
        }));
        assertTrue(afterStop.getMessage().contains("STOPPED"), afterStop.getMessage());
        assertFalse(pool.tryExecute(() -> {
        }));
    }

    /** Running jobs get the stop timeout to finish; those that do not are interrupted; join returns when all ended. */
    @Test
    void stopWaitsForRunningJobsThenInterruptsThem() throws Exception {
        QueuedThreadPool newPool = new QueuedThreadPool(2, 4);
        Duration stopTimeout = Duration.ofMillis(300);
        newPool.setStopTimeout(stopTimeout);
        start(newPool);
        CountDownLatch started = new CountDownLatch(2);
        AtomicBoolean longJobInterrupted = new AtomicBoolean();
        AtomicBoolean shortJobCompleted = new AtomicBoolean();
        AtomicBoolean shortJobInterrupted = new AtomicBoolean();
        pool.execute(() -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException x) {
                longJobInterrupted.set(true);
            }
        });
        pool.execute(() -> {
            started.countDown();
            try {
                Thread.sleep(50);
                shortJobCompleted.set(true);
            } catch (InterruptedException x) {
                shortJobInterrupted.set(true);
            }
        });
        assertTrue(started.await(10, TimeUnit.SECONDS));
        AtomicBoolean joined = new AtomicBoolean();
        Thread joiner = Thread.ofPlatform().start(() -> {
            try {
                pool.join();
                joined.set(true);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        });
        long begin = System.nanoTime();
        pool.stop();
        long elapsed = System.nanoTime() - begin;
        assertTrue(shortJobCompleted.get());
        assertFalse(shortJobInterrupted.get());
        assertTrue(longJobInterrupted.get());
        assertTrue(elapsed >= stopTimeout.toNanos(), "stop waited " + elapsed / 1_000_000 + " ms before interrupting");
        joiner.join(10_000);
        assertTrue(joined.get());
        assertEquals(0, pool.getThreads());
        pool.join();
    }

    @Test
    void joinWaitsUntilStopped() throws Exception {
        start(new QueuedThreadPool(1, 2));
        CountDownLatch joined = new CountDownLatch(1);
        Thread joiner = Thread.ofPlatform().start(() -> {
            try {
                pool.join();
                joined.countDown();
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        });
        assertFalse(joined.await(100, TimeUnit.MILLISECONDS), "join returned while the pool runs");
        pool.stop();
        assertTrue(joined.await(10, TimeUnit.SECONDS));
        joiner.join();
    }

    @Test
    void stopReportsThreadsThatDoNotEnd() throws Exception {
        QueuedThreadPool newPool = new QueuedThreadPool(1, 2);
        newPool.setName("stubborn");
        newPool.setStopTimeout(Duration.ofMillis(100));
        start(newPool);
        AtomicBoolean mayEnd = new AtomicBoolean();
        CountDownLatch running = new CountDownLatch(1);
        pool.execute(new Runnable() {
            @Override
            public void run() {
                running.countDown();
                while (!mayEnd.get()) {
                    // Deaf to interrupts on purpose.
                    Thread.onSpinWait();
                }
            }

            @Override
            public String toString() {
                return "DeafJob";
            }
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));
        String log;
        try (CapturedErr err = new CapturedErr()) {
            pool.stop();
            log = err.text();
        } finally {
            mayEnd.set(true);
        }
        assertTrue(log.contains("did not end"), log);
        assertTrue(log.matches("(?s).*its thread stubborn-\\d+ did not end \\(RUNNABLE running DeafJob\\).*"), log);
        assertTrue(log.contains("at io.wharf.util.thread.QueuedThreadPoolTest"), log);
        pool.join();
        assertEquals(0, pool.getThreads());
    }

    /** Queued jobs that never ran are not lost silently: Closeables closed, Callbacks failed, the rest counted. */
    @Test
    void queuedJobsNotRunAreClosedFailedOrReportedAtStop() throws Exception {
        QueuedThreadPool newPool = new QueuedThreadPool(1, 1);
        newPool.setStopTimeout(Duration.ofMillis(100));
        start(newPool);
        CountDownLatch running = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException x) {
                // stop interrupts it
            }
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));
        AtomicBoolean closed = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger ran = new AtomicInteger();
        pool.execute(new ClosingJob(closed, ran));
        pool.execute(new CallbackJob(failure, ran));
        pool.execute(ran::incrementAndGet);
        assertEquals(3, pool.getQueueSize());
        String log;
        try (CapturedErr err = new CapturedErr()) {
            pool.stop();
            log = err.text();
        }
        assertEquals(0, ran.get());
        assertTrue(closed.get());
        assertInstanceOf(RejectedExecutionException.class, failure.get());
        assertTrue(log.contains("did not run 3 queued jobs: 1 closed, 1 failed, 1 dropped"), log);
        assertEquals(0, pool.getQueueSize());
    }

    @Test
    void failingJobsDoNotCostCapacity() throws Exception {
        start(new QueuedThreadPool(2, 2));
        AtomicInteger counted = new AtomicInteger();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        try (CapturedErr ignored = new CapturedErr()) {
            for (int i = 0; i < 100; i++) {
                int index = i;
                pool.execute(() -> {
                    threads.add(Thread.currentThread());
                    if (index % 10 == 3) {
                        throw new IllegalStateException("job " + index + " fails on purpose");
                    }
                    if (index % 10 == 7) {
                        throw new Error("job " + index + " fails with an Error on purpose");
                    }
                    counted.incrementAndGet();
                });
            }
            assertEventually(() -> counted.get() == 80, pool::toString);
        }
        assertEquals(2, pool.getThreads());
        assertTrue(threads.size() <= 2, "no thread was lost and replaced: " + threads);
        assertTrue(threads.stream().allMatch(Thread::isAlive));
    }

    @Test
    void virtualThreadsRunBlockingJobsOnly() throws Exception {
        QueuedThreadPool newPool = new QueuedThreadPool(2, 4);
        newPool.setName("mixed");
        newPool.setUseVirtualThreads(true);
        newPool.setPreferIdlePlatformThreads(false);
        start(newPool);
        AtomicReference<Thread> blocking = new AtomicReference<>();
        AtomicReference<Thread> nonBlocking = new AtomicReference<>();
        AtomicReference<Thread> either = new AtomicReference<>();
        AtomicReference<Thread> platformJob = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(4);
        pool.execute(() -> {
            blocking.set(Thread.currentThread());
            ran.countDown();
        });
        pool.execute(Invocable.task(InvocationType.NON_BLOCKING, () -> {
            nonBlocking.set(Thread.currentThread());
            ran.countDown();
        }));
        pool.execute(Invocable.task(InvocationType.EITHER, () -> {
            either.set(Thread.currentThread());
            ran.countDown();
        }));
        // A production loop may block (in a selector) yet asks for a platform thread.
        pool.execute((ThreadPool.PlatformJob) () -> {
            platformJob.set(Thread.currentThread());
            ran.countDown();
        });
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        assertFalse(platformJob.get().isVirtual(), platformJob.get().toString());
        assertTrue(blocking.get().isVirtual(), blocking.get().toString());
        assertTrue(blocking.get().getName().startsWith("mixed-virtual-"), blocking.get().getName());
        assertFalse(nonBlocking.get().isVirtual());
        assertTrue(nonBlocking.get().getName().startsWith("mixed-"), nonBlocking.get().getName());
        assertFalse(either.get().isVirtual());

        // A blocked virtual job holds no pool thread, shows in the counts, and is waited for at stop.
        CountDownLatch release = latch();
        CountDownLatch running = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            await(release);
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));
        // The first jobs may still be in their last instructions.
        assertEventually(() -> pool.getVirtualThreads() == 1 && pool.getBusyThreads() == 0, pool::toString);
        assertTrue(pool.dump().contains("virtual"));
        release.countDown();
        pool.stop();
        pool.join();
        assertEquals(0, pool.getVirtualThreads());
    }

    @Test
    void aBlockingJobTakesAnIdlePoolThreadFirstAndAVirtualOneWhenNoneIsIdle() throws Exception {
        QueuedThreadPool newPool = new QueuedThreadPool(1, 1);
        newPool.setName("prefer");
        newPool.setReservedThreads(0);
        newPool.setUseVirtualThreads(true);
        assertTrue(newPool.isPreferIdlePlatformThreads(), "the default");
        start(newPool);
        assertEventually(() -> pool.getIdleThreads() == 1, pool::toString);
        CountDownLatch firstRuns = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> first = new AtomicReference<>();
        AtomicReference<Thread> second = new AtomicReference<>();
        pool.execute(() -> {
            first.set(Thread.currentThread());
            firstRuns.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(firstRuns.await(10, TimeUnit.SECONDS));
        assertFalse(first.get().isVirtual(), "the idle pool thread took it: " + first.get());
        // The one pool thread blocks, and the pool is at its maximum: the next blocking job must not wait for it.
        CountDownLatch secondRan = new CountDownLatch(1);
        pool.execute(() -> {
            second.set(Thread.currentThread());
            secondRan.countDown();
        });
        assertTrue(secondRan.await(10, TimeUnit.SECONDS), "a blocking job waited behind a blocked pool thread");
        assertTrue(second.get().isVirtual(), second.get().toString());
        release.countDown();
    }

    @Test
    void tryExecuteHandsToAReservedThread() throws Exception {
        QueuedThreadPool newPool = new QueuedThreadPool(2, 8);
        newPool.setName("reserving");
        newPool.setReservedThreads(2);
        start(newPool);
        assertFalse(pool.tryExecute(() -> {
        }), "no reserved thread yet");
        assertEventually(() -> pool.getReservedAvailable() == 1, pool::toString);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        assertTrue(pool.tryExecute(() -> {
            ranOn.set(Thread.currentThread());
            ran.countDown();
        }));
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        assertTrue(ranOn.get().getName().startsWith("reserving-"), ranOn.get().getName());
        assertFalse(ranOn.get().isVirtual());
        // The reserved thread parks again after its task.
        assertEventually(() -> pool.getReservedAvailable() == 1, pool::toString);
        assertEquals(pool.getThreads(), pool.getIdleThreads() + pool.getBusyThreads() + pool.getReservedAvailable(), pool::toString);
    }

    @Test
    void dumpListsThreadsTheirJobsAndTheReservedThreads() throws Exception {
        QueuedThreadPool newPool = new QueuedThreadPool(3, 4);
        newPool.setName("dumped");
        start(newPool);
        // Let the min threads park first, so that the jobs below wake them instead of starting more.
        assertEventually(() -> pool.getIdleThreads() == 3, pool::toString);
        CountDownLatch release = latch();
        CountDownLatch running = new CountDownLatch(1);
        pool.execute(new Runnable() {
            @Override
            public void run() {
                running.countDown();
                await(release);
            }

            @Override
            public String toString() {
                return "BusyJob";
            }
        });
        assertTrue(running.await(10, TimeUnit.SECONDS));
        assertFalse(pool.tryExecute(() -> {
        }));
        assertEventually(() -> pool.getReservedAvailable() == 1, pool::toString);
        String dump = pool.dump();
        assertTrue(dump.startsWith("QueuedThreadPool[dumped]"), dump);
        assertTrue(dump.contains("busy: BusyJob at "), dump);
        assertTrue(dump.contains(" idle"), dump);
        assertTrue(dump.contains("ReservedThreads@"), dump);
        assertTrue(dump.contains("PARKED"), dump);
        assertTrue(dump.contains("JobQueue@"), dump);
        assertTrue(dump.contains("dumped-1"), dump);
        String line = pool.toString();
        assertFalse(line.contains("\n"), line);
        assertTrue(line.contains("threads=3 (min 3, max 4)"), line);
        assertTrue(line.contains("busy=1"), line);
        assertTrue(line.contains("reserved=1/1"), line);
    }

    @Test
    void restartsAfterStop() throws Exception {
        start(new QueuedThreadPool(1, 2));
        pool.stop();
        assertNull(pool.getBean(ReservedThreads.class));
        pool.start();
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown);
        assertTrue(ran.await(10, TimeUnit.SECONDS));
    }

    private record ClosingJob(AtomicBoolean closed, AtomicInteger ran) implements Runnable, Closeable {
        @Override
        public void run() {
            ran.incrementAndGet();
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    private record CallbackJob(AtomicReference<Throwable> failure, AtomicInteger ran) implements Runnable, Callback {
        @Override
        public void run() {
            ran.incrementAndGet();
        }

        @Override
        public void failed(Throwable cause) {
            failure.set(cause);
        }
    }
}
