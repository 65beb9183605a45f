package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlotStackTest {

    @Test
    void popsInReverseOrderOfPushWhenAlone() {
        SlotStack<String> stack = new SlotStack<>(3);
        assertNull(stack.pop());
        assertTrue(stack.push("a"));
        assertTrue(stack.push("b"));
        assertTrue(stack.push("c"));
        assertEquals(3, stack.size());
        assertEquals("c", stack.pop());
        assertEquals("b", stack.pop());
        assertTrue(stack.push("d"));
        assertEquals("d", stack.pop());
        assertEquals("a", stack.pop());
        assertNull(stack.pop());
        assertEquals(0, stack.size());
    }

    @Test
    void refusesPushWhenFull() {
        SlotStack<Integer> stack = new SlotStack<>(2);
        assertTrue(stack.push(1));
        assertTrue(stack.push(2));
        assertFalse(stack.push(3));
        assertEquals(2, stack.size());
        assertEquals(2, stack.capacity());
    }

    @Test
    void zeroCapacityHoldsNothing() {
        SlotStack<Integer> stack = new SlotStack<>(0);
        assertFalse(stack.push(1));
        assertNull(stack.pop());
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new SlotStack<>(-1));
        SlotStack<Integer> stack = new SlotStack<>(1);
        assertThrows(IllegalArgumentException.class, () -> stack.push(null));
    }

    /**
     * Items are tokens 0..N-1 circulating between a stack and the threads. A token popped
     * while another thread holds it, or pushed twice, breaks the mark array.
     */
    @ParameterizedTest(name = "{0} tokens, {1} slots")
    @CsvSource({"48, 32", "3, 4", "2, 1", "8, 2"})
    void concurrentPushAndPopNeverHandsOneItemToTwoThreads(int tokens, int slots) throws Exception {
        int threads = 8;
        int iterations = 200_000;
        SlotStack<Integer> stack = new SlotStack<>(slots);
        AtomicIntegerArray held = new AtomicIntegerArray(tokens);
        ConcurrentLinkedQueue<Integer> overflow = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        for (int token = 0; token < tokens; token++) {
            if (!stack.push(token)) {
                overflow.add(token);
            }
        }
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                List<Integer> mine = new ArrayList<>();
                try {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < iterations; i++) {
                        if (mine.size() < 4 && random.nextBoolean()) {
                            Integer token = stack.pop();
                            if (token == null) {
                                token = overflow.poll();
                            }
                            if (token != null) {
                                if (!held.compareAndSet(token, 0, 1)) {
                                    failures.add("token " + token + " handed out while held");
                                }
                                mine.add(token);
                            }
                        } else if (!mine.isEmpty()) {
                            Integer token = mine.remove(mine.size() - 1);
                            if (!held.compareAndSet(token, 1, 0)) {
                                failures.add("token " + token + " was not marked held");
                            }
                            if (!stack.push(token)) {
                                overflow.add(token);
                            }
                        }
                    }
                    for (Integer token : mine) {
                        held.set(token, 0);
                        if (!stack.push(token)) {
                            overflow.add(token);
                        }
                    }
                } catch (Exception x) {
                    failures.add(x + " at " + x.getStackTrace()[0]);
                }
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        assertTrue(failures.isEmpty(), failures.size() + " failures, the first: " + failures.stream().limit(20).toList());
        Set<Integer> all = new HashSet<>(overflow);
        int fromStack = 0;
        for (Integer token = stack.pop(); token != null; token = stack.pop()) {
            assertTrue(all.add(token), "token " + token + " present twice");
            fromStack++;
        }
        assertEquals(tokens, all.size());
        assertEquals(tokens, fromStack + overflow.size());
        assertEquals(0, stack.size());
    }
}
