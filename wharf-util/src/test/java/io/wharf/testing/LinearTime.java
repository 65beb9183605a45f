package io.wharf.testing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * Test helper: asserts that a piece of work grows linearly with the size of its input, the
 * guard of the tests that feed hostile input (megabytes of near misses, thousands of
 * parameters) to a parser that an attacker could otherwise make quadratic.
 *
 * <p>{@link #assertLinear} checks growth rather than one absolute time, so a machine loaded
 * by other work slows both sizes alike and does not fail the test: it runs the work at a
 * size {@code n} and at {@code 8 n}, {@value #ROUNDS} times each, interleaved, and compares
 * the fastest run of each size (a load spike hits one run, never all of them). Linear work
 * grows by about 8, quadratic work by about 64; the work fails above {@value #LIMIT}. Times
 * under {@link #FLOOR} count as the floor, so that sub-millisecond noise cannot fail it; the
 * caller picks {@code n} so that the work at {@code n} takes at least a few milliseconds,
 * else growth hides under the floor. The failure message gives every time measured.
 *
 * <p>{@link #assertWithin} is for work whose input cannot be scaled by a parameter: it keeps
 * an absolute budget but takes the best of {@value #ROUNDS} runs.
 *
 * <p>Both measure with a {@link Clock}: by default the CPU time of the calling thread, which
 * other processes on the machine do not inflate (a short run can slip between two of their
 * time slices where a long one cannot, which on wall time would make linear work look
 * super-linear on a loaded machine); work done on other threads, such as a server's, needs
 * {@link Clock#WALL}.
 *
 * <p>Shared with the other modules through wharf-util's test-jar. Called on the test's
 * thread; the work runs on that thread.
 */
public final class LinearTime {

    /** How much larger the second size is than the first. */
    public static final int FACTOR = 8;

    /** The growth above which work counts as super-linear: linear ≈ 8, quadratic ≈ 64. */
    public static final int LIMIT = 24;

    /** How many times each size runs; the fastest run counts. */
    public static final int ROUNDS = 3;

    /** Times below this count as this, so that noise on tiny times cannot fail a test. */
    public static final Duration FLOOR = Duration.ofMillis(1);

    /** What the times are measured on. */
    public enum Clock {
        /** The CPU time of the calling thread (wall time where the JVM cannot tell it). */
        THREAD_CPU {
            @Override
            long nanos() {
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : System.nanoTime();
            }
        },
        /** Elapsed time, for work that other threads do. */
        WALL {
            @Override
            long nanos() {
                return System.nanoTime();
            }
        };

        abstract long nanos();
    }

    /** Work to time, prepared for one size; it may run several times. */
    @FunctionalInterface
    public interface Work {
        void run() throws Exception;
    }

    private LinearTime() {
    }

    /**
     * Asserts that the work grows linearly from {@code size} to {@code FACTOR * size}.
     *
     * @param what names the work in the failure message
     * @param size the smaller size; the work at it should take a few milliseconds
     * @param work prepares the work for a size (not timed) and returns it (timed); the work may
     *             make its own assertions, which then hold at both sizes
     * @throws AssertionError when the work grows by more than {@link #LIMIT}, or the work fails
     */
    public static void assertLinear(String what, int size, IntFunction<Work> work) {
        assertLinear(Clock.THREAD_CPU, what, size, work);
    }

    /** {@link #assertLinear(String, int, IntFunction)} measured on the given clock. */
    public static void assertLinear(Clock clock, String what, int size, IntFunction<Work> work) {
        if (size <= 0 || size > Integer.MAX_VALUE / FACTOR) {
            throw new IllegalArgumentException("size " + size);
        }
        Work small = Objects.requireNonNull(work.apply(size));
        Work large = Objects.requireNonNull(work.apply(size * FACTOR));
        // Warm up at the small size, so that the first timed run is compiled code too.
        time(clock, small);
        time(clock, small);
        long[] smallNanos = new long[ROUNDS];
        long[] largeNanos = new long[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            smallNanos[round] = time(clock, small);
            largeNanos[round] = time(clock, large);
        }
        Growth growth = new Growth(smallNanos, largeNanos);
        if (growth.superLinear()) {
            throw new AssertionError(what + " is super-linear: " + growth.describe(size));
        }
    }

    /**
     * Asserts that the fastest of {@value #ROUNDS} runs of the work takes less than the budget;
     * for work whose input cannot be scaled by a parameter. Stops at the first run within it.
     *
     * @throws AssertionError when every run takes the budget or longer, or the work fails
     */
    public static void assertWithin(String what, Duration budget, Work work) {
        assertWithin(Clock.THREAD_CPU, what, budget, work);
    }

    /** {@link #assertWithin(String, Duration, Work)} measured on the given clock. */
    public static void assertWithin(Clock clock, String what, Duration budget, Work work) {
        long[] nanos = new long[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            nanos[round] = time(clock, work);
            if (nanos[round] < budget.toNanos()) {
                return;
            }
        }
        throw new AssertionError(what + " took " + millis(nanos) + " ms in " + ROUNDS
                + " runs, each over the budget of " + budget.toMillis() + " ms");
    }

    private static long time(Clock clock, Work work) {
        long start = clock.nanos();
        try {
            work.run();
        } catch (RuntimeException | Error x) {
            throw x;
        } catch (Exception x) {
            throw new AssertionError("the timed work failed", x);
        }
        return clock.nanos() - start;
    }

    private static String millis(long... nanos) {
        return LongStream.of(nanos).mapToObj(n -> String.format(Locale.ROOT, "%.1f", n / 1e6)).collect(Collectors.joining(", "));
    }

    /**
     * The times of the runs at the two sizes and the verdict on them; a value, so that the
     * verdict can be tested without timing anything.
     */
    record Growth(long[] smallNanos, long[] largeNanos) {

        long bestSmall() {
            return Arrays.stream(smallNanos).min().orElseThrow();
        }

        long bestLarge() {
            return Arrays.stream(largeNanos).min().orElseThrow();
        }

        /** The growth from the best small run to the best large one, both taken as at least {@link #FLOOR}. */
        double ratio() {
            long floor = FLOOR.toNanos();
            return (double) Math.max(bestLarge(), floor) / Math.max(bestSmall(), floor);
        }

        boolean superLinear() {
            return ratio() > LIMIT;
        }

        String describe(int size) {
            return String.format(Locale.ROOT, "the best run took %.1f ms at size %d and %.1f ms at size %d, a growth of %.1f"
                    + " (linear work grows by about %d, quadratic by about %d; the limit is %d, times under %d ms"
                    + " count as %d ms); runs at %d: [%s] ms, at %d: [%s] ms",
                    bestSmall() / 1e6, size, bestLarge() / 1e6, size * FACTOR, ratio(), FACTOR, FACTOR * FACTOR, LIMIT,
                    FLOOR.toMillis(), FLOOR.toMillis(), size, millis(smallNanos), size * FACTOR, millis(largeNanos));
        }
    }
}
