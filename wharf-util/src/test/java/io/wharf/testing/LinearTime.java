package io.wharf.testing;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
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
 * <p>Both measure on a {@link Clock}: by default the CPU time of the thread that runs the
 * work, which other processes on the machine do not inflate (a short run can slip between
 * two of their time slices where a long one cannot, which on wall time makes linear work
 * look super-linear on a loaded machine); work done on other threads, such as a server's,
 * needs {@link Clock#ALL_THREADS_CPU}.
 *
 * <p>Each run happens on a thread of its own, which the test's thread watches: a run at the
 * larger size that has already taken {@value #LIMIT} times the smaller one, a run over the
 * budget, and any run over the {@link #CAP} are not waited for to their end, so that a
 * regression to quadratic work on a large input fails the test in seconds instead of running
 * for hours. Such a run goes on unobserved on its daemon thread until it ends (it is
 * interrupted, which I/O may heed).
 *
 * <p>Shared with the other modules through wharf-util's test-jar. Called on the test's
 * thread; the work runs on threads named {@code linear-time}, one run at a time.
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

    /**
     * The most any one run may take, hundreds of times what the tests' linear work takes: a run
     * past it is stopped and fails the test at once, so that work gone quadratic at the smaller
     * size too cannot keep a test running for minutes.
     */
    public static final Duration CAP = Duration.ofSeconds(10);

    /** What the times are measured on. */
    public enum Clock {
        /** The CPU time of the thread that runs the work (wall time where the JVM cannot tell it). */
        THREAD_CPU {
            @Override
            LongSupplier since(Thread thread) {
                if (!CpuTimes.SUPPORTED) {
                    return WALL.since(thread);
                }
                long begin = CpuTimes.of(thread.threadId());
                return () -> CpuTimes.of(thread.threadId()) - begin;
            }
        },
        /**
         * The CPU time of all live threads of the JVM, for work that other threads share, such
         * as a server's; a thread that ends during a run takes its time with it.
         */
        ALL_THREADS_CPU {
            @Override
            LongSupplier since(Thread thread) {
                if (!CpuTimes.SUPPORTED) {
                    return WALL.since(thread);
                }
                Map<Long, Long> begin = new HashMap<>();
                for (long id : CpuTimes.threadIds()) {
                    begin.put(id, CpuTimes.of(id));
                }
                return () -> {
                    long sum = 0;
                    for (long id : CpuTimes.threadIds()) {
                        long now = CpuTimes.of(id);
                        if (now >= 0) {
                            sum += now - Math.max(0, begin.getOrDefault(id, 0L));
                        }
                    }
                    return sum;
                };
            }
        },
        /** Elapsed time, which other processes on the machine inflate. */
        WALL {
            @Override
            LongSupplier since(Thread thread) {
                long begin = System.nanoTime();
                return () -> System.nanoTime() - begin;
            }
        };

        /**
         * @param thread the live thread that runs the work
         * @return the time on this clock from now to each call, while {@code thread} lives
         */
        abstract LongSupplier since(Thread thread);
    }

    /**
     * The JVM's CPU times of threads, read by reflection because the modules under test, into
     * which the tests are compiled, do not read {@code java.management}; the tests run on the
     * class path (as {@link ThreadAllocation} does).
     */
    private static final class CpuTimes {
        private static final Object THREADS;
        private static final Method CPU_TIME;
        private static final Method THREAD_IDS;
        static final boolean SUPPORTED;

        static {
            try {
                THREADS = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
                Class<?> type = Class.forName("java.lang.management.ThreadMXBean");
                CPU_TIME = type.getMethod("getThreadCpuTime", long.class);
                THREAD_IDS = type.getMethod("getAllThreadIds");
                SUPPORTED = (Boolean) type.getMethod("isThreadCpuTimeSupported").invoke(THREADS)
                        && (Boolean) type.getMethod("isThreadCpuTimeEnabled").invoke(THREADS);
            } catch (ReflectiveOperationException x) {
                throw new ExceptionInInitializerError(x);
            }
        }

        /** @return the CPU time of the thread in nanoseconds, -1 when it is not alive */
        static long of(long threadId) {
            try {
                return (Long) CPU_TIME.invoke(THREADS, threadId);
            } catch (ReflectiveOperationException x) {
                throw new IllegalStateException(x);
            }
        }

        static long[] threadIds() {
            try {
                return (long[]) THREAD_IDS.invoke(THREADS);
            } catch (ReflectiveOperationException x) {
                throw new IllegalStateException(x);
            }
        }
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
        assertLinear(clock, CAP, what, size, work);
    }

    /** {@link #assertLinear(Clock, String, int, IntFunction)} with another cap, for the helper's own test. */
    static void assertLinear(Clock clock, Duration cap, String what, int size, IntFunction<Work> work) {
        if (size <= 0 || size > Integer.MAX_VALUE / FACTOR) {
            throw new IllegalArgumentException("size " + size);
        }
        Work small = Objects.requireNonNull(work.apply(size));
        Work large = Objects.requireNonNull(work.apply(size * FACTOR));
        // Warm up at the small size, so that the first timed run is compiled code too.
        capped(what, size, cap, time(clock, small, cap.toNanos()));
        capped(what, size, cap, time(clock, small, cap.toNanos()));
        long[] smallNanos = new long[ROUNDS];
        long[] largeNanos = new long[ROUNDS];
        int stopped = 0;
        for (int round = 0; round < ROUNDS; round++) {
            smallNanos[round] = capped(what, size, cap, time(clock, small, cap.toNanos()));
            // A large run past the limit is super-linear whatever it would end at: stop waiting there,
            // so that quadratic work on a large input fails in seconds instead of running for hours.
            long cutoff = LIMIT * Math.max(Arrays.stream(smallNanos, 0, round + 1).min().orElseThrow(), FLOOR.toNanos());
            largeNanos[round] = capped(what, size * FACTOR, cap, time(clock, large, Math.min(cutoff, cap.toNanos())));
            if (largeNanos[round] > cutoff) {
                stopped++;
            }
        }
        Growth growth = new Growth(smallNanos, largeNanos);
        if (growth.superLinear()) {
            throw new AssertionError(what + " is super-linear: " + growth.describe(size)
                    + (stopped == 0 ? "" : "; " + stopped + " of the runs at " + size * FACTOR + " were stopped there"));
        }
    }

    private static long capped(String what, int size, Duration cap, long nanos) {
        if (nanos > cap.toNanos()) {
            throw new AssertionError(what + " at size " + size + " ran for more than " + cap.toMillis()
                    + " ms, the most a run may take; it was stopped there");
        }
        return nanos;
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
            nanos[round] = time(clock, work, Math.min(budget.toNanos(), CAP.toNanos()));
            if (nanos[round] < budget.toNanos()) {
                return;
            }
        }
        throw new AssertionError(what + " took " + millis(nanos) + " ms in " + ROUNDS
                + " runs, each over the budget of " + budget.toMillis() + " ms (a run is stopped soon after it)");
    }

    /**
     * Runs the work once on a thread of its own and answers the time it took on the clock, or,
     * once it has taken more than {@code cutoffNanos}, the time so far: the thread, a daemon, is
     * then interrupted and left to finish the work unobserved.
     */
    private static long time(Clock clock, Work work, long cutoffNanos) {
        TimedRun run = new TimedRun(clock, work);
        Thread thread = new Thread(run, "linear-time");
        thread.setDaemon(true);
        thread.start();
        try {
            while (!thread.join(Duration.ofMillis(5))) {
                long sofar = run.sofar();
                if (sofar > cutoffNanos) {
                    thread.interrupt();
                    return sofar;
                }
            }
        } catch (InterruptedException x) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", x);
        }
        Throwable failure = run.failure;
        if (failure instanceof RuntimeException x) {
            throw x;
        }
        if (failure instanceof Error x) {
            throw x;
        }
        if (failure != null) {
            throw new AssertionError("the timed work failed", failure);
        }
        return run.elapsed;
    }

    /** One run of the work, on its own thread, which records its own start and end on the clock. */
    private static final class TimedRun implements Runnable {
        private final Clock clock;
        private final Work work;
        private volatile LongSupplier sinceStart;
        private volatile long elapsed;
        private volatile Throwable failure;

        TimedRun(Clock clock, Work work) {
            this.clock = clock;
            this.work = work;
        }

        @Override
        public void run() {
            LongSupplier since = clock.since(Thread.currentThread());
            sinceStart = since;
            try {
                work.run();
            } catch (Throwable x) {
                failure = x;
            } finally {
                elapsed = since.getAsLong();
            }
        }

        /** @return the time the live run has taken so far, 0 before it began */
        long sofar() {
            LongSupplier since = sinceStart;
            return since == null ? 0 : since.getAsLong();
        }
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
