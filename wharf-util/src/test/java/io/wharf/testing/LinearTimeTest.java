package io.wharf.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Proves that {@link LinearTime} can fail: quadratic work must be reported as super-linear,
 * linear work must pass, and its verdict on given times (no timing) is the documented one.
 */
class LinearTimeTest {

    /** Keeps the results of the work alive, so that the JIT cannot drop the work. */
    private static volatile int sink;

    @Test
    void repeatedConcatenationIsReportedAsSuperLinear() {
        // s += c copies the whole string each time: n appends copy n²/2 characters. A run stopped
        // at the limit is interrupted and ends, rather than burn a core unobserved.
        AssertionError failure = assertThrows(AssertionError.class, () -> LinearTime.assertLinear(
                "repeated concatenation", 20_000, size -> () -> {
                    String s = "";
                    for (int i = 0; i < size && !Thread.currentThread().isInterrupted(); i++) {
                        s += (char) ('a' + i % 26);
                    }
                    sink = s.length();
                }));
        assertTrue(failure.getMessage().startsWith("repeated concatenation is super-linear: the best run took "),
                failure.getMessage());
        assertTrue(failure.getMessage().contains("at size 20000 and "), failure.getMessage());
        assertTrue(failure.getMessage().contains("at size 160000, a growth of "), failure.getMessage());
    }

    @Test
    void aNestedLoopIsReportedAsSuperLinearAndStoppedAtTheLimit() {
        // Pairs of 64,000 values would take seconds a run; a run is stopped at 24 times the run at 8,000.
        long start = System.nanoTime();
        AssertionError failure = assertThrows(AssertionError.class, () -> LinearTime.assertLinear(
                "counting inversions pair by pair", 8000, size -> inversions(scrambled(size))));
        assertTrue(failure.getMessage().startsWith("counting inversions pair by pair is super-linear: "), failure.getMessage());
        assertTrue(failure.getMessage().contains(" of the runs at 64000 were stopped there"), failure.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(60).toNanos(), "took " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    @Test
    void aRunPastTheCapFailsAtOnce() {
        // As work gone quadratic already at the smaller size: the first run is stopped at the cap
        // (10 s; 200 ms here).
        long start = System.nanoTime();
        AssertionError failure = assertThrows(AssertionError.class, () -> LinearTime.assertLinear(
                LinearTime.Clock.THREAD_CPU, Duration.ofMillis(200), "endless work", 1, size -> () -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        sink++;
                    }
                }));
        assertEquals("endless work at size 1 ran for more than 200 ms, the most a run may take; it was stopped there", failure.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(60).toNanos(), "took " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    @Test
    void aStringBuilderPasses() {
        LinearTime.assertLinear("appending to a StringBuilder", 500_000, size -> () -> {
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < size; i++) {
                s.append((char) ('a' + i % 26));
            }
            sink = s.length();
        });
    }

    @Test
    void aSingleLoopPasses() {
        LinearTime.assertLinear("hashing modulo a prime", 1 << 20, size -> {
            int[] values = scrambled(size);
            return () -> {
                long hash = 0;
                for (int value : values) {
                    hash = (hash * 31 + value) % 1_000_000_007L;
                }
                sink = (int) hash;
            };
        });
    }

    @Test
    void quadraticWorkOnAnotherThreadIsReportedOnAllThreadsCpuTime() throws InterruptedException {
        // A thread that lives through the runs, as a server's do: one that ended would take its time with it.
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            AssertionError failure = assertThrows(AssertionError.class, () -> LinearTime.assertLinear(
                    LinearTime.Clock.ALL_THREADS_CPU, "inversions counted by another thread", 8000, size -> {
                        int[] values = scrambled(size);
                        return () -> {
                            Future<?> counted = other.submit(() -> countInversions(values));
                            try {
                                counted.get();
                            } finally {
                                // A run stopped at the limit stops the count too, so that it does not run into the next runs.
                                counted.cancel(true);
                            }
                        };
                    }));
            assertTrue(failure.getMessage().contains("is super-linear"), failure.getMessage());
        } finally {
            other.shutdownNow();
            assertTrue(other.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void theThreadsCpuTimeLeavesOutWaiting() {
        // 50 ms asleep take next to no CPU time; on the wall clock they are over the budget.
        LinearTime.assertWithin("sleeping", Duration.ofMillis(20), () -> Thread.sleep(50));
        assertThrows(AssertionError.class, () -> LinearTime.assertWithin(LinearTime.Clock.WALL, "sleeping", Duration.ofMillis(20),
                () -> Thread.sleep(50)));
    }

    @Test
    void theWorksAssertionsAndExceptionsReachTheTest() {
        AssertionError wrong = assertThrows(AssertionError.class, () -> LinearTime.assertLinear("work", 10, size -> () -> {
            assertEquals(10, size);
        }));
        assertTrue(wrong.getMessage().contains("expected: <10> but was: <80>"), wrong.getMessage());
        AssertionError checked = assertThrows(AssertionError.class, () -> LinearTime.assertLinear("work", 10, size -> () -> {
            throw new IOException("disk full");
        }));
        assertEquals("disk full", checked.getCause().getMessage());
        assertThrows(IllegalArgumentException.class, () -> LinearTime.assertLinear("work", 0, size -> () -> {
        }));
    }

    @Test
    void theVerdictComparesTheBestRunsAboveTheFloor() {
        long ms = 1_000_000;
        // Linear growth of 8, with a load spike in one run of each size.
        assertFalse(new LinearTime.Growth(new long[] {5 * ms, 90 * ms, 5 * ms}, new long[] {400 * ms, 40 * ms, 41 * ms}).superLinear());
        // Quadratic growth of 64, though one large run was lucky and one small run was slow.
        LinearTime.Growth quadratic = new LinearTime.Growth(new long[] {5 * ms, 6 * ms, 50 * ms}, new long[] {320 * ms, 330 * ms, 400 * ms});
        assertTrue(quadratic.superLinear());
        assertEquals(64.0, quadratic.ratio());
        assertEquals("the best run took 5.0 ms at size 100 and 320.0 ms at size 800, a growth of 64.0"
                + " (linear work grows by about 8, quadratic by about 64; the limit is 24, times under 1 ms count as 1 ms);"
                + " runs at 100: [5.0, 6.0, 50.0] ms, at 800: [320.0, 330.0, 400.0] ms", quadratic.describe(100));
        // Just above and at the limit.
        assertTrue(new LinearTime.Growth(new long[] {2 * ms}, new long[] {48 * ms + 1}).superLinear());
        assertFalse(new LinearTime.Growth(new long[] {2 * ms}, new long[] {48 * ms}).superLinear());
        // Sub-millisecond times count as a millisecond: 0.01 ms growing to 0.9 ms is noise, not growth.
        assertFalse(new LinearTime.Growth(new long[] {10_000}, new long[] {900_000}).superLinear());
        // But the floor does not hide real growth above it.
        assertTrue(new LinearTime.Growth(new long[] {10_000}, new long[] {25 * ms}).superLinear());
    }

    @Test
    void anAbsoluteBudgetTakesTheBestOfThreeRuns() {
        int[] runs = {0};
        LinearTime.assertWithin(LinearTime.Clock.WALL, "work that is slow once", Duration.ofMillis(20), () -> {
            if (runs[0]++ == 0) {
                Thread.sleep(50);
            }
        });
        assertTrue(runs[0] >= 2, "ran " + runs[0] + " times");
        int[] slow = {0};
        AssertionError failure = assertThrows(AssertionError.class, () -> LinearTime.assertWithin(
                LinearTime.Clock.WALL, "work that is always slow", Duration.ofMillis(5), () -> {
                    slow[0]++;
                    Thread.sleep(10);
                }));
        assertEquals(3, slow[0]);
        assertTrue(failure.getMessage().startsWith("work that is always slow took "), failure.getMessage());
        assertTrue(failure.getMessage().endsWith(" ms in 3 runs, each over the budget of 5 ms (a run is stopped soon after it)"),
                failure.getMessage());
    }

    @Test
    void aRunOverTheBudgetIsStoppedAndInterrupted() {
        // Work that would never end on its own: each run ends when the helper gives up on it.
        AssertionError failure = assertThrows(AssertionError.class, () -> LinearTime.assertWithin(
                "endless work", Duration.ofMillis(50), () -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        sink++;
                    }
                }));
        assertTrue(failure.getMessage().startsWith("endless work took "), failure.getMessage());
    }

    /** Counts the inversions of the values pair by pair: quadratic work. */
    private static LinearTime.Work inversions(int[] values) {
        return () -> countInversions(values);
    }

    /** Counts pair by pair, until done or interrupted. */
    private static void countInversions(int[] values) {
        int inversions = 0;
        for (int i = 0; i < values.length && !Thread.currentThread().isInterrupted(); i++) {
            for (int j = i + 1; j < values.length; j++) {
                if (values[i] > values[j]) {
                    inversions++;
                }
            }
        }
        sink = inversions;
    }

    private static int[] scrambled(int size) {
        int[] values = new int[size];
        for (int i = 0; i < size; i++) {
            values[i] = (int) ((i * 2654435761L) % 1_000_003);
        }
        return values;
    }
}
