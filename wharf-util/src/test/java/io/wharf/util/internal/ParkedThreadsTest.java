package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

class ParkedThreadsTest {

    @Test
    void handOffFindsNoWaiterInAnEmptyStack() {
        ParkedThreads parked = new ParkedThreads();
        assertTrue(parked.isEmpty());
        assertFalse(parked.handOff("value"));
        assertNull(parked.pop());
    }

    @Test
    void handOffWakesTheLastParkedThreadFirst() throws Exception {
        ParkedThreads parked = new ParkedThreads();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch firstPushed = new CountDownLatch(1);
            CountDownLatch secondPushed = new CountDownLatch(1);
            Future<Object> first = threads.submit(() -> {
                ParkedThreads.Waiter waiter = new ParkedThreads.Waiter();
                parked.push(waiter);
                firstPushed.countDown();
                return waiter.await(TimeUnit.SECONDS.toNanos(10));
            });
            firstPushed.await();
            Future<Object> second = threads.submit(() -> {
                ParkedThreads.Waiter waiter = new ParkedThreads.Waiter();
                parked.push(waiter);
                secondPushed.countDown();
                return waiter.await(TimeUnit.SECONDS.toNanos(10));
            });
            secondPushed.await();
            assertEquals(2, parked.waitingThreads().size());
            assertTrue(parked.handOff("to the second"));
            assertEquals("to the second", second.get(5, TimeUnit.SECONDS));
            assertFalse(first.isDone());
            assertTrue(parked.handOff("to the first"));
            assertEquals("to the first", first.get(5, TimeUnit.SECONDS));
            assertFalse(parked.handOff("to nobody"));
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void awaitReturnsNullOnTimeoutAndOnInterruptAndCancelWinsOnlyOnce() {
        ParkedThreads.Waiter waiter = new ParkedThreads.Waiter();
        assertNull(waiter.await(TimeUnit.MILLISECONDS.toNanos(20)));
        Thread.currentThread().interrupt();
        assertNull(waiter.await(TimeUnit.SECONDS.toNanos(10)));
        assertTrue(Thread.interrupted(), "the interrupt status stays set");
        assertTrue(waiter.cancel());
        assertSame(ParkedThreads.CANCELLED, waiter.value());
        assertFalse(waiter.give("late"));
        assertFalse(waiter.cancel());

        ParkedThreads.Waiter given = new ParkedThreads.Waiter();
        assertTrue(given.give("value"));
        assertFalse(given.cancel());
        assertEquals("value", given.await(0));
    }

    @Test
    void cancelledWaitersAreSkipped() {
        ParkedThreads parked = new ParkedThreads();
        ParkedThreads.Waiter waiting = new ParkedThreads.Waiter();
        ParkedThreads.Waiter cancelled = new ParkedThreads.Waiter();
        parked.push(waiting);
        parked.push(cancelled);
        assertTrue(cancelled.cancel());
        assertTrue(parked.handOff("value"));
        assertEquals("value", waiting.value());
        assertTrue(parked.isEmpty());
    }

    /**
     * Waiters that give up after random short waits race with givers: every token a giver
     * handed off is received exactly once, and no token that was not handed off is received.
     */
    @Test
    void tokensHandedOffAreReceivedExactlyOnceUnderRaces() throws Exception {
        int waiterThreads = 6;
        int giverThreads = 6;
        int tokensPerGiver = 20_000;
        ParkedThreads parked = new ParkedThreads();
        AtomicIntegerArray handed = new AtomicIntegerArray(giverThreads * tokensPerGiver);
        AtomicIntegerArray received = new AtomicIntegerArray(giverThreads * tokensPerGiver);
        AtomicBoolean giving = new AtomicBoolean(true);
        ExecutorService threads = Executors.newFixedThreadPool(waiterThreads + giverThreads);
        try {
            List<Future<?>> waiters = new ArrayList<>();
            for (int w = 0; w < waiterThreads; w++) {
                waiters.add(threads.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    // Each wait is short, so a waiter sees the end of the giving soon.
                    while (giving.get()) {
                        ParkedThreads.Waiter waiter = new ParkedThreads.Waiter();
                        parked.push(waiter);
                        Object value = waiter.await(random.nextInt(3) == 0 ? 0 : random.nextLong(1_000, 200_000));
                        if (value == null && !waiter.cancel()) {
                            value = waiter.value();
                        }
                        if (value instanceof Integer token) {
                            received.incrementAndGet(token);
                        }
                    }
                    return null;
                }));
            }
            List<Future<?>> givers = new ArrayList<>();
            for (int g = 0; g < giverThreads; g++) {
                int giver = g;
                givers.add(threads.submit(() -> {
                    for (int i = 0; i < tokensPerGiver; i++) {
                        int token = giver * tokensPerGiver + i;
                        if (parked.handOff(token)) {
                            handed.incrementAndGet(token);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : givers) {
                future.get(20, TimeUnit.SECONDS);
            }
            giving.set(false);
            for (Future<?> future : waiters) {
                future.get(20, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        int handedCount = 0;
        for (int i = 0; i < handed.length(); i++) {
            assertEquals(handed.get(i), received.get(i), "token " + i);
            handedCount += handed.get(i);
        }
        assertTrue(handedCount > 0, "the race exercised hand-offs");
    }
}
