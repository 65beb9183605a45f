package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A user's iterations: how many run at once, the order of those waiting, the bound, and no recursion. */
@Timeout(60)
class UserQueueTest {

    @Test
    void runsAtMostItsPlacesAndStartsTheWaitingInOrder() {
        UserQueue<Integer> queue = new UserQueue<>(2, 10);
        List<Integer> started = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            if (queue.offer(i)) {
                started.add(i);
            }
        }
        assertEquals(List.of(0, 1), started);
        assertEquals(3, queue.waiting());
        queue.ended(started::add);
        assertEquals(List.of(0, 1, 2), started);
        queue.ended(started::add);
        queue.ended(started::add);
        assertEquals(List.of(0, 1, 2, 3, 4), started);
        assertEquals(2, queue.running());
        queue.ended(started::add);
        queue.ended(started::add);
        assertEquals(0, queue.running());
        assertTrue(queue.offer(5), "a place is free again");
    }

    @Test
    void refusesOneMoreThanItsBound() {
        UserQueue<Integer> queue = new UserQueue<>(1, 2);
        assertTrue(queue.offer(0));
        assertFalse(queue.offer(1));
        assertFalse(queue.offer(2));
        RejectedExecutionException refused = assertThrows(RejectedExecutionException.class, () -> queue.offer(3));
        assertEquals("more than 2 iterations wait for their user's connections", refused.getMessage());
        assertEquals(2, queue.waiting());
    }

    /** Sends that fail at once end their iteration inside its start: the next ones start in a loop, not nested. */
    @Test
    void iterationsEndingAsTheyStartDoNotNest() {
        int count = 200_000;
        UserQueue<Integer> queue = new UserQueue<>(1, count);
        assertTrue(queue.offer(-1));
        for (int i = 0; i < count; i++) {
            assertFalse(queue.offer(i));
        }
        AtomicInteger started = new AtomicInteger();
        AtomicInteger depth = new AtomicInteger();
        AtomicInteger deepest = new AtomicInteger();
        Consumer<Integer>[] start = new Consumer[1];
        start[0] = element -> {
            deepest.accumulateAndGet(depth.incrementAndGet(), Math::max);
            started.incrementAndGet();
            queue.ended(start[0]);
            depth.decrementAndGet();
        };
        queue.ended(start[0]);
        assertEquals(count, started.get());
        assertEquals(1, deepest.get(), "starts nested in one another");
        assertEquals(0, queue.waiting());
        assertEquals(0, queue.running());
    }

    /** Many senders and many ending threads at once: never more running than the places, each element started once. */
    @Test
    void concurrentOffersAndEndsKeepTheBoundAndLoseNothing() throws Exception {
        int places = 3;
        int senders = 4;
        int perSender = 20_000;
        for (int round = 0; round < 5; round++) {
            UserQueue<Integer> queue = new UserQueue<>(places, senders * perSender);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger mostRunning = new AtomicInteger();
            AtomicIntegerArray starts = new AtomicIntegerArray(senders * perSender);
            ConcurrentLinkedQueue<Integer> toEnd = new ConcurrentLinkedQueue<>();
            Consumer<Integer> start = element -> {
                mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                starts.incrementAndGet(element);
                toEnd.add(element);
            };
            AtomicInteger ended = new AtomicInteger();
            int total = senders * perSender;
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                int base = s * perSender;
                threads.add(Thread.ofPlatform().start(() -> {
                    await(go);
                    for (int i = 0; i < perSender; i++) {
                        if (queue.offer(base + i)) {
                            start.accept(base + i);
                        }
                    }
                }));
            }
            for (int e = 0; e < 3; e++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    await(go);
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (ended.get() < total && System.nanoTime() < deadline) {
                        if (toEnd.poll() != null) {
                            running.decrementAndGet();
                            ended.incrementAndGet();
                            queue.ended(start);
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                }));
            }
            go.countDown();
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(40));
            }
            assertEquals(total, ended.get(), "every element started and ended");
            assertTrue(mostRunning.get() <= places, "ran " + mostRunning.get() + " at once");
            for (int i = 0; i < total; i++) {
                assertEquals(1, starts.get(i), "element " + i + " started once");
            }
            assertEquals(0, queue.waiting());
            assertEquals(0, queue.running());
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }
}
