package io.wharf.util.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class LeakTrackingByteBufferPoolTest {

    private final BucketedByteBufferPool bucketed = BucketedByteBufferPool.builder().factor(1024).maxCapacity(8192).build();
    private final LeakTrackingByteBufferPool pool = new LeakTrackingByteBufferPool(bucketed);

    @Test
    void leakedBufferIsReportedWithTheAcquiringTestMethod() {
        RetainableByteBuffer kept = pool.acquire(100, true);
        RetainableByteBuffer returned = pool.acquire(50, false);
        returned.release();
        assertEquals(1, pool.outstanding());
        assertEquals(1, pool.getInUseCount());

        List<LeakTrackingByteBufferPool.Leak> leaks = pool.leaks();
        assertEquals(1, leaks.size());
        LeakTrackingByteBufferPool.Leak leak = leaks.get(0);
        assertEquals(100, leak.size());
        assertEquals(1024, leak.capacity());
        assertTrue(leak.direct());
        assertEquals(Thread.currentThread().getName(), leak.thread());
        StackTraceElement top = leak.acquiredAt().get(0);
        assertEquals(getClass().getName(), top.getClassName(), "the pool's own frames are left out");
        assertEquals("leakedBufferIsReportedWithTheAcquiringTestMethod", top.getMethodName());

        AssertionError failure = assertThrows(AssertionError.class, pool::assertNoLeaks);
        String report = failure.getMessage();
        assertTrue(report.startsWith("1 leaked buffer(s) and 0 misuse(s)"), report);
        assertTrue(report.contains("direct buffer of 100 bytes (capacity 1024)"), report);
        assertTrue(report.contains("leakedBufferIsReportedWithTheAcquiringTestMethod"), report);
        assertFalse(report.contains("buffer of 50 bytes"), report);

        kept.release();
        assertEquals(0, pool.outstanding());
        pool.assertNoLeaks();
        assertEquals(0, bucketed.getInUseCount());
    }

    @Test
    void everyLeakIsListedInAcquireOrder() {
        RetainableByteBuffer first = pool.acquire(1, false);
        RetainableByteBuffer second = pool.acquire(2000, false);
        RetainableByteBuffer third = pool.acquire(3, true);
        second.release();
        List<LeakTrackingByteBufferPool.Leak> leaks = pool.leaks();
        assertEquals(List.of(1, 3), leaks.stream().map(LeakTrackingByteBufferPool.Leak::size).toList());
        assertTrue(leaks.get(0).id() < leaks.get(1).id());
        String report = assertThrows(AssertionError.class, pool::assertNoLeaks).getMessage();
        assertTrue(report.indexOf("heap buffer of 1 bytes") < report.indexOf("direct buffer of 3 bytes"), report);
        first.release();
        third.release();
    }

    private RetainableByteBuffer acquireHere() {
        return pool.acquire(64, false);
    }

    private void freeHere(RetainableByteBuffer buffer) {
        assertTrue(buffer.release());
    }

    @Test
    void overReleaseThrowsNamingWhereTheBufferWasAcquiredAndFirstFreed() {
        RetainableByteBuffer buffer = acquireHere();
        freeHere(buffer);
        IllegalStateException overRelease = assertThrows(IllegalStateException.class, buffer::release);
        String message = overRelease.getMessage();
        assertTrue(message.startsWith("over-release: #"), message);
        assertTrue(message.indexOf("acquireHere") > 0, message);
        assertTrue(message.indexOf("freeHere") > message.indexOf("acquireHere"), message);
        assertTrue(message.contains("first freed by '" + Thread.currentThread().getName() + "'"), message);

        // The code under test might swallow the exception: the check still fails.
        List<LeakTrackingByteBufferPool.Misuse> misuses = pool.misuses();
        assertEquals(1, misuses.size());
        LeakTrackingByteBufferPool.Misuse misuse = misuses.get(0);
        assertEquals(LeakTrackingByteBufferPool.Misuse.Kind.OVER_RELEASE, misuse.kind());
        assertEquals("acquireHere", misuse.acquiredAt().get(0).getMethodName());
        assertEquals("freeHere", misuse.freedAt().get(0).getMethodName());
        assertTrue(misuse.misusedAt().stream()
            .anyMatch(frame -> frame.getMethodName().equals("overReleaseThrowsNamingWhereTheBufferWasAcquiredAndFirstFreed")),
            misuse.misusedAt().toString());
        assertEquals(0, pool.outstanding());
        String report = assertThrows(AssertionError.class, pool::assertNoLeaks).getMessage();
        assertTrue(report.startsWith("0 leaked buffer(s) and 1 misuse(s)"), report);
        assertTrue(report.contains("released again by"), report);

        assertEquals(1, bucketed.getIdleCount(false), "the buffer went back to its pool once");
        pool.reset();
        pool.assertNoLeaks();
    }

    @Test
    void retainOrAccessAfterFreeThrowsAndIsReported() {
        RetainableByteBuffer buffer = pool.acquire(10, false);
        buffer.retain();
        assertTrue(buffer.isRetained());
        assertFalse(buffer.release());
        assertTrue(buffer.release());
        IllegalStateException retain = assertThrows(IllegalStateException.class, buffer::retain);
        assertTrue(retain.getMessage().startsWith("retain-after-free"), retain.getMessage());
        IllegalStateException access = assertThrows(IllegalStateException.class, buffer::byteBuffer);
        assertTrue(access.getMessage().startsWith("access-after-free"), access.getMessage());
        assertEquals(List.of(LeakTrackingByteBufferPool.Misuse.Kind.RETAIN_AFTER_FREE, LeakTrackingByteBufferPool.Misuse.Kind.ACCESS_AFTER_FREE),
            pool.misuses().stream().map(LeakTrackingByteBufferPool.Misuse::kind).toList());
    }

    @Test
    void staleReferenceStaysDeadAfterItsMemoryServesANewOwner() {
        RetainableByteBuffer stale = pool.acquire(10, false);
        ByteBuffer memory = stale.byteBuffer();
        stale.release();
        RetainableByteBuffer current = pool.acquire(10, false);
        assertSame(memory, current.byteBuffer(), "the wrapped pool reuses the memory");

        assertThrows(IllegalStateException.class, stale::release);
        assertEquals(1, pool.outstanding(), "the new owner still holds it");
        assertEquals(1, bucketed.getInUseCount());
        assertTrue(current.release());
        assertEquals(0, bucketed.getInUseCount());
        assertEquals(1, pool.misuses().size());
    }

    @Test
    void historyRecordsRetainsAndReleasesWhenAskedFor() {
        LeakTrackingByteBufferPool recording = new LeakTrackingByteBufferPool(bucketed, true);
        RetainableByteBuffer buffer = recording.acquire(10, false);
        buffer.retain();
        buffer.retain();
        buffer.release();
        List<String> history = recording.leaks().get(0).history();
        assertEquals(3, history.size(), history.toString());
        assertTrue(history.get(0).startsWith("retained by"), history.get(0));
        assertTrue(history.get(2).startsWith("released by"), history.get(2));
        assertTrue(history.get(2).contains("historyRecordsRetainsAndReleasesWhenAskedFor"), history.get(2));
        String report = assertThrows(AssertionError.class, recording::assertNoLeaks).getMessage();
        assertTrue(report.contains("retained by"), report);
        buffer.release();
        buffer.release();
        recording.assertNoLeaks();
    }

    @Test
    void awaitNoLeaksWaitsForReleasesFromOtherThreads() throws Exception {
        RetainableByteBuffer buffer = pool.acquire(10, false);
        assertFalse(pool.awaitNoLeaks(Duration.ofMillis(20)));
        Thread releaser = new Thread(() -> {
            try {
                TimeUnit.MILLISECONDS.sleep(100);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
            buffer.release();
        });
        releaser.start();
        assertTrue(pool.awaitNoLeaks(Duration.ofSeconds(10)));
        releaser.join();
        pool.assertNoLeaks();
    }

    @Test
    void resetForgetsLeaksAndMisuses() {
        RetainableByteBuffer leaked = pool.acquire(10, false);
        RetainableByteBuffer freed = pool.acquire(10, false);
        freed.release();
        assertThrows(IllegalStateException.class, freed::release);
        pool.reset();
        assertEquals(0, pool.outstanding());
        assertEquals(List.of(), pool.misuses());
        pool.assertNoLeaks();
        assertTrue(leaked.release(), "a buffer forgotten by reset still works");
        assertEquals(2, pool.getAcquireCount());
        assertEquals(2, pool.getFreeCount());
    }

    @Test
    void worksOverAnyPoolAndDumpsOutstandingBuffers() {
        LeakTrackingByteBufferPool overNonPooling = new LeakTrackingByteBufferPool(ByteBufferPool.NON_POOLING);
        RetainableByteBuffer buffer = overNonPooling.acquire(33, false);
        assertEquals(33, buffer.capacity());
        assertEquals(0, buffer.remaining());
        String dump = overNonPooling.dump();
        assertTrue(dump.contains("1 outstanding"), dump);
        assertTrue(dump.contains("ByteBufferPool.NON_POOLING"), dump);
        assertTrue(dump.contains("heap buffer of 33 bytes (capacity 33) acquired by"), dump);
        assertTrue(dump.contains("worksOverAnyPoolAndDumpsOutstandingBuffers"), dump);
        buffer.release();
        assertFalse(overNonPooling.toString().contains("\n"));
        assertSame(ByteBufferPool.NON_POOLING, overNonPooling.getDelegate());
    }

    @Test
    void manyThreadsSharingBuffersLeaveNothingOutstanding() throws Exception {
        int threads = 8;
        int iterations = 20_000;
        List<LinkedBlockingQueue<RetainableByteBuffer>> inboxes = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            inboxes.add(new LinkedBlockingQueue<>());
        }
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int self = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < iterations; i++) {
                        for (RetainableByteBuffer shared = inboxes.get(self).poll(); shared != null; shared = inboxes.get(self).poll()) {
                            shared.release();
                        }
                        RetainableByteBuffer buffer = pool.acquire(random.nextInt(10_000), random.nextBoolean());
                        if (random.nextBoolean()) {
                            buffer.retain();
                            inboxes.get(random.nextInt(threads)).add(buffer);
                        }
                        buffer.release();
                    }
                } catch (Throwable x) {
                    failures.add(x);
                }
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        for (LinkedBlockingQueue<RetainableByteBuffer> inbox : inboxes) {
            for (RetainableByteBuffer shared = inbox.poll(); shared != null; shared = inbox.poll()) {
                shared.release();
            }
        }
        assertEquals(List.of(), List.copyOf(failures));
        pool.assertNoLeaks();
        assertEquals((long) threads * iterations, pool.getAcquireCount());
        assertEquals(pool.getAcquireCount(), pool.getFreeCount());
        assertEquals(0, bucketed.getInUseCount());
    }
}
