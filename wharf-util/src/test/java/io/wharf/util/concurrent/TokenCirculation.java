package io.wharf.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A concurrency check for the slot stacks: tokens 0..N-1 circulate between a stack and many
 * threads, each holding a few at a time. Every token is marked held while a thread has it;
 * a token popped while another thread holds it, or pushed twice, breaks the marks, and at the
 * end every token must be back exactly once.
 */
final class TokenCirculation {

    private TokenCirculation() {
    }

    /**
     * @param push the stack's push; false sends the token to an overflow queue, as a pool would drop it
     * @param pop the stack's pop
     * @param size the stack's size, 0 at the end
     */
    static void run(int threads, int tokens, int iterations, Predicate<Integer> push, Supplier<Integer> pop, IntSupplier size)
        throws InterruptedException {
        AtomicIntegerArray held = new AtomicIntegerArray(tokens);
        ConcurrentLinkedQueue<Integer> overflow = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        for (int token = 0; token < tokens; token++) {
            if (!push.test(token)) {
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
                            Integer token = pop.get();
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
                            if (!push.test(token)) {
                                overflow.add(token);
                            }
                        }
                    }
                    for (Integer token : mine) {
                        held.set(token, 0);
                        if (!push.test(token)) {
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
        for (Integer token = pop.get(); token != null; token = pop.get()) {
            assertTrue(all.add(token), "token " + token + " present twice");
            fromStack++;
        }
        assertEquals(tokens, all.size());
        assertEquals(tokens, fromStack + overflow.size());
        assertEquals(0, size.getAsInt());
    }
}
