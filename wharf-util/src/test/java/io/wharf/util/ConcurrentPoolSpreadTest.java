package io.wharf.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.wharf.util.Pool.Entry;
import io.wharf.util.Pool.Strategy;

/**
 * How ROUND_ROBIN spreads acquisitions over the entries when many threads acquire at once,
 * each like a client that takes a connection, uses it a little, then waits a little before its
 * next request: every entry's usage count ends within a tolerance of the mean, with fewer or
 * more threads than cursor stripes. FIRST on the same load is the control that shows the
 * measure tells uneven from even.
 *
 * <p>The waits between acquisitions matter: threads spinning through acquire and release
 * back to back fall into step with each other (the cache lines they share time them), and then
 * keep meeting at the same entries, whatever the strategy; the old single shared counter
 * showed the same. Real users of a pool do not run in lock step.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConcurrentPoolSpreadTest {

    private static final int ENTRIES = 16;
    private static final int CYCLES_PER_THREAD = 3_000;
    /** Largest allowed distance of an entry's usage count from the mean, as a fraction of the mean. */
    private static final double TOLERANCE = 0.10;

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {2, 8, 40})
    void roundRobinGivesEveryEntryAnEvenShare(int threads) throws Exception {
        long[] usage = run(Strategy.ROUND_ROBIN, threads);
        long total = Arrays.stream(usage).sum();
        double mean = (double) total / ENTRIES;
        for (int index = 0; index < ENTRIES; index++) {
            double distance = Math.abs(usage[index] - mean) / mean;
            int entry = index;
            assertTrue(distance <= TOLERANCE, () -> "entry " + entry + " got " + usage[entry] + ", mean " + mean + ": " + Arrays.toString(usage));
        }
    }

    /** The control: FIRST keeps the low entries busy and the last ones nearly idle. */
    @Test
    void firstIsFarFromEvenOnTheSameLoad() throws Exception {
        long[] usage = run(Strategy.FIRST, 8);
        double mean = (double) Arrays.stream(usage).sum() / ENTRIES;
        assertTrue(usage[0] > 2 * mean, () -> Arrays.toString(usage));
        assertTrue(usage[ENTRIES - 1] < mean * (1 - TOLERANCE), () -> Arrays.toString(usage));
    }

    /**
     * {@code threads} threads each complete {@value #CYCLES_PER_THREAD} acquire/release cycles,
     * holding the entry for a random few hundred nanoseconds, then parking for up to 20 µs.
     *
     * @return each entry's usage count, by slot
     */
    private static long[] run(Strategy strategy, int threads) throws Exception {
        ConcurrentPool<Integer> pool = ConcurrentPool.<Integer>builder(ENTRIES).strategy(strategy).build();
        List<Entry<Integer>> entries = new ArrayList<>();
        for (int i = 0; i < ENTRIES; i++) {
            Entry<Integer> entry = pool.reserve();
            assertTrue(entry.enable(i, false));
            entries.add(entry);
        }
        AtomicLong cycles = new AtomicLong();
        AtomicLong sink = new AtomicLong();
        ConcurrentPoolStressTest.runThreads(threads, thread -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            long work = 0;
            for (int done = 0; done < CYCLES_PER_THREAD; ) {
                Entry<Integer> entry = pool.acquire();
                if (entry == null) {
                    Thread.yield();
                    continue;
                }
                for (int spin = random.nextInt(256); spin > 0; spin--) {
                    work += spin * entry.getPooled();
                }
                entry.release();
                done++;
                LockSupport.parkNanos(random.nextLong(20_000));
            }
            cycles.addAndGet(CYCLES_PER_THREAD);
            sink.addAndGet(work);
        });
        long[] usage = new long[ENTRIES];
        for (Entry<Integer> entry : entries) {
            usage[entry.getPooled()] = entry.getUsageCount();
        }
        assertEquals(cycles.get(), Arrays.stream(usage).sum(), "every cycle used exactly one entry once");
        return usage;
    }
}
