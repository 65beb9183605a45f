package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

class JobQueueTest {

    @Test
    void isFirstInFirstOut() {
        JobQueue<String> queue = new JobQueue<>();
        assertTrue(queue.isEmpty());
        assertNull(queue.poll());
        for (int i = 0; i < 10; i++) {
            assertTrue(queue.offer("job" + i));
        }
        assertEquals(10, queue.size());
        assertFalse(queue.isEmpty());
        for (int i = 0; i < 10; i++) {
            assertEquals("job" + i, queue.poll());
            assertEquals(9 - i, queue.size());
        }
        assertNull(queue.poll());
        assertTrue(queue.isEmpty());
        assertThrows(NullPointerException.class, () -> queue.offer(null));
    }

    @Test
    void appendSaysWhetherTheQueueWasEmpty() {
        JobQueue<String> queue = new JobQueue<>();
        assertEquals(JobQueue.Appended.FIRST, queue.append("a"));
        assertEquals(JobQueue.Appended.BEHIND, queue.append("b"));
        assertEquals("a", queue.poll());
        assertEquals(JobQueue.Appended.BEHIND, queue.append("c"));
        assertEquals("b", queue.poll());
        assertEquals("c", queue.poll());
        assertEquals(JobQueue.Appended.FIRST, queue.append("d"));
        JobQueue<String> bounded = new JobQueue<>(1);
        assertEquals(JobQueue.Appended.FIRST, bounded.append("a"));
        assertEquals(JobQueue.Appended.REFUSED, bounded.append("b"));
    }

    @Test
    void countsWhatWasEverAppendedAndTaken() {
        JobQueue<String> queue = new JobQueue<>();
        assertEquals(0, queue.appended());
        assertEquals(0, queue.taken());
        queue.offer("a");
        queue.offer("b");
        queue.offer("c");
        assertEquals(3, queue.appended());
        assertEquals(0, queue.taken());
        queue.poll();
        queue.poll();
        assertEquals(3, queue.appended());
        assertEquals(2, queue.taken());
        assertEquals(1, queue.size());
        queue.poll();
        assertNull(queue.poll(), "an empty poll takes nothing");
        assertEquals(3, queue.taken());
        assertEquals(3, queue.appended(), "positions go on after the queue empties");
        queue.offer("d");
        assertEquals(4, queue.appended());
    }

    @Test
    void boundedQueueRefusesBeyondItsBound() {
        JobQueue<Integer> queue = new JobQueue<>(3);
        assertEquals(3, queue.maxSize());
        assertTrue(queue.offer(1));
        assertTrue(queue.offer(2));
        assertTrue(queue.offer(3));
        assertFalse(queue.offer(4));
        assertEquals(3, queue.size());
        assertEquals(1, queue.poll());
        assertTrue(queue.offer(5));
        assertFalse(queue.offer(6));
        assertEquals(List.of(2, 3, 5), List.of(queue.poll(), queue.poll(), queue.poll()));
        assertThrows(IllegalArgumentException.class, () -> new JobQueue<>(0));
    }

    /** The claim of the class comment: head and tail sit at least 128 bytes apart, whatever the header size. */
    @Test
    void headAndTailAreOnDifferentCacheLines() throws Exception {
        // sun.misc.Unsafe through reflection: the test classes compile inside the module, which does not read jdk.unsupported.
        Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
        Field unsafeField = unsafeClass.getDeclaredField("theUnsafe");
        unsafeField.setAccessible(true);
        Object unsafe = unsafeField.get(null);
        Method offsetOf = unsafeClass.getMethod("objectFieldOffset", Field.class);
        long head = (long) offsetOf.invoke(unsafe, JobQueueHead.class.getDeclaredField("head"));
        long tail = (long) offsetOf.invoke(unsafe, JobQueueTail.class.getDeclaredField("tail"));
        long maxSize = (long) offsetOf.invoke(unsafe, JobQueue.class.getDeclaredField("maxSize"));
        assertTrue(tail - head >= 128, "head at " + head + ", tail at " + tail);
        assertTrue(head >= 128 - 16, "head at " + head + " is too close to the object's start");
        assertTrue(maxSize - tail >= 128, "tail at " + tail + ", maxSize at " + maxSize);
    }

    /**
     * Producers and consumers at once: every element comes out exactly once, and each consumer
     * sees the elements of one producer in the order that producer offered them (FIFO).
     */
    @Test
    void manyProducersAndConsumersLoseNothingAndKeepOrder() throws Exception {
        int producers = 4;
        int consumers = 4;
        int perProducer = 100_000;
        JobQueue<Integer> queue = new JobQueue<>();
        AtomicIntegerArray seen = new AtomicIntegerArray(producers * perProducer);
        AtomicInteger consumed = new AtomicInteger();
        AtomicInteger orderViolations = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(producers + consumers);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                futures.add(threads.submit(() -> {
                    start.await();
                    for (int i = 0; i < perProducer; i++) {
                        assertTrue(queue.offer(producer * perProducer + i));
                    }
                    return null;
                }));
            }
            for (int c = 0; c < consumers; c++) {
                futures.add(threads.submit(() -> {
                    int[] last = new int[producers];
                    java.util.Arrays.fill(last, -1);
                    start.await();
                    while (consumed.get() < producers * perProducer) {
                        Integer element = queue.poll();
                        if (element == null) {
                            Thread.onSpinWait();
                            continue;
                        }
                        consumed.incrementAndGet();
                        seen.incrementAndGet(element);
                        int producer = element / perProducer;
                        if (element <= last[producer]) {
                            orderViolations.incrementAndGet();
                        }
                        last[producer] = element;
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
        for (int i = 0; i < seen.length(); i++) {
            assertEquals(1, seen.get(i), "element " + i);
        }
        assertEquals(0, orderViolations.get());
        assertNull(queue.poll());
        assertEquals(0, queue.size());
        // The tail caught up: an offer does not have to walk the queue from the head.
        assertEquals(0, queue.tailLag());
        assertTrue(queue.offer(-1));
        assertEquals(0, queue.tailLag());
    }

    /**
     * The state a race leaves now and then: consumers overtook an offer that had linked its
     * node but not yet moved the tail, so the tail is a dead node behind the head. The next
     * offer must move the tail up; were it only to walk from the head, the tail would stay
     * dead and every later offer would walk the whole queue (quadratic offers: a 2-producer
     * pool benchmark ran 20 times slower before this was fixed).
     */
    @Test
    void anOfferRepairsATailLeftBehindTheHead() {
        JobQueue<Integer> queue = new JobQueue<>();
        queue.offer(1);
        queue.offer(2);
        JobQueue.Node<Integer> sentinel = queue.head();
        assertEquals(1, queue.poll());
        assertTrue(queue.casTail(queue.tail(), sentinel), "put the tail on the dead node");
        assertEquals(-1, queue.tailLag());
        assertTrue(queue.offer(3));
        assertEquals(0, queue.tailLag());
        assertEquals(2, queue.size());
        assertEquals(List.of(2, 3), List.of(queue.poll(), queue.poll()));
        assertNull(queue.poll());
    }

    /** The same under real races: two producers and one spinning consumer, the tail checked after every round. */
    @Test
    void theTailNeverStaysBehindTheHead() throws Exception {
        JobQueue<Integer> queue = new JobQueue<>();
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            for (int round = 0; round < 500; round++) {
                CountDownLatch start = new CountDownLatch(1);
                AtomicInteger polled = new AtomicInteger();
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    futures.add(threads.submit(() -> {
                        start.await();
                        for (int i = 0; i < 100; i++) {
                            queue.offer(i);
                        }
                        return null;
                    }));
                }
                futures.add(threads.submit(() -> {
                    start.await();
                    while (polled.get() < 200) {
                        if (queue.poll() != null) {
                            polled.incrementAndGet();
                        }
                    }
                    return null;
                }));
                start.countDown();
                for (Future<?> future : futures) {
                    future.get(20, TimeUnit.SECONDS);
                }
                assertTrue(queue.offer(-1));
                assertEquals(0, queue.tailLag(), "round " + round);
                assertEquals(-1, queue.poll());
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** Concurrent producers against a bound: exactly the bound is accepted, then exactly what consumers freed. */
    @Test
    void concurrentOffersNeverExceedTheBound() throws Exception {
        int bound = 1_000;
        int threadCount = 8;
        ExecutorService threads = Executors.newFixedThreadPool(threadCount);
        try {
            for (int round = 0; round < 20; round++) {
                JobQueue<Integer> queue = new JobQueue<>(bound);
                assertEquals(bound, offerConcurrently(threads, queue, threadCount, bound));
                int freed = 137 + round;
                for (int i = 0; i < freed; i++) {
                    assertTrue(queue.poll() != null, "element " + i + " of the full queue");
                }
                assertEquals(freed, offerConcurrently(threads, queue, threadCount, bound));
                assertEquals(bound, queue.size());
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static int offerConcurrently(ExecutorService threads, JobQueue<Integer> queue, int threadCount, int attemptsPerThread) throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            futures.add(threads.submit(() -> {
                start.await();
                for (int i = 0; i < attemptsPerThread; i++) {
                    if (queue.offer(i)) {
                        accepted.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> future : futures) {
            future.get(20, TimeUnit.SECONDS);
        }
        return accepted.get();
    }
}
