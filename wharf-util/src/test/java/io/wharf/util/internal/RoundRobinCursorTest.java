package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

class RoundRobinCursorTest {

    @Test
    void oneThreadRotatesStrictlyAndWraps() {
        RoundRobinCursor cursor = new RoundRobinCursor(4);
        int previous = cursor.next(5);
        for (int i = 0; i < 23; i++) {
            int index = cursor.next(5);
            assertEquals((previous + 1) % 5, index, "call " + i);
            previous = index;
        }
    }

    @Test
    void aGrowingLimitExtendsTheRotationAndAShrunkOneStaysInRange() {
        RoundRobinCursor cursor = new RoundRobinCursor(1);
        assertEquals(0, cursor.next(2));
        assertEquals(1, cursor.next(2));
        assertEquals(0, cursor.next(2));
        assertEquals(1, cursor.next(4));
        assertEquals(2, cursor.next(4));
        assertEquals(3, cursor.next(4));
        assertEquals(0, cursor.next(4));
        assertEquals(1, cursor.next(4));
        assertEquals(2, cursor.next(4));
        int index = cursor.next(2);
        assertTrue(index >= 0 && index < 2, "index " + index);
    }

    /** Threads on different stripes start a quarter of the way apart, for 4 stripes. */
    @Test
    void stripesStartAtEvenlySpreadOffsets() throws Exception {
        RoundRobinCursor cursor = new RoundRobinCursor(4);
        Map<Integer, Integer> firstIndexByStripe = new ConcurrentHashMap<>();
        // Consecutive thread ids cover every stripe; each thread takes its stripe's first index.
        for (int attempt = 0; attempt < 64 && firstIndexByStripe.size() < 4; attempt++) {
            Thread thread = new Thread(() -> {
                int stripe = cursor.stripeOfCurrentThread();
                if (!firstIndexByStripe.containsKey(stripe)) {
                    firstIndexByStripe.put(stripe, cursor.next(16));
                }
            });
            thread.start();
            thread.join();
        }
        assertEquals(Map.of(0, 0, 1, 4, 2, 8, 3, 12), new TreeMap<>(firstIndexByStripe));
    }

    @Test
    void everyIndexStaysInRangeUnderConcurrency() throws Exception {
        RoundRobinCursor cursor = new RoundRobinCursor(2);
        int limit = 7;
        AtomicIntegerArray counts = new AtomicIntegerArray(limit);
        Thread[] threads = new Thread[6];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 70_000; i++) {
                    counts.incrementAndGet(cursor.next(limit));
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        long total = 0;
        for (int index = 0; index < limit; index++) {
            total += counts.get(index);
            // Lost updates of a shared stripe only repeat a position: no index is starved.
            assertTrue(counts.get(index) > 70_000 * threads.length / limit / 2, counts::toString);
        }
        assertEquals(70_000L * threads.length, total);
    }

    @Test
    void stripesMustBeAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new RoundRobinCursor(0));
        assertThrows(IllegalArgumentException.class, () -> new RoundRobinCursor(3));
        assertTrue(new RoundRobinCursor().stripes() >= 1);
    }
}
