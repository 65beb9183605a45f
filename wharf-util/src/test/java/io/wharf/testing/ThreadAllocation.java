package io.wharf.testing;

import java.lang.reflect.Method;

/**
 * Test helper shared with the modules above: the JVM's count of bytes the current thread has
 * allocated, for tests that bound what a fast path allocates. Read by reflection, because the
 * modules under test do not read {@code jdk.management}; the tests run on the class path.
 */
public final class ThreadAllocation {

    private static final Object THREADS;
    private static final Method ALLOCATED;

    static {
        try {
            THREADS = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            ALLOCATED = Class.forName("com.sun.management.ThreadMXBean").getMethod("getThreadAllocatedBytes", long.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private ThreadAllocation() {
    }

    /**
     * Runs {@code run} {@code warmUps} times for the JIT, then {@code runs} times counting.
     *
     * @return the bytes the counted runs allocated, on average
     */
    public static long perRun(int warmUps, int runs, Runnable run) {
        for (int i = 0; i < warmUps; i++) {
            run.run();
        }
        long before = allocatedBytes();
        for (int i = 0; i < runs; i++) {
            run.run();
        }
        return (allocatedBytes() - before) / runs;
    }

    /** @return the bytes the current thread has allocated since it started */
    public static long allocatedBytes() {
        try {
            return (long) ALLOCATED.invoke(THREADS, Thread.currentThread().threadId());
        } catch (ReflectiveOperationException x) {
            throw new IllegalStateException("cannot read the thread's allocated bytes", x);
        }
    }
}
