package io.wharf.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * The grid shared by the pool benchmarks ({@link PoolBenchmark}, {@link ConnectionPoolBenchmark}):
 * one acquire+release {@link #cycle()} per operation at 1, 2, 8 and 64 threads, each thread
 * counting the cycles that got something (hits) and those that found nothing (misses) as
 * secondary results. A subclass holds its state and parameters and says what a cycle is.
 */
public abstract class PoolCycles {

    /** Per thread: operations that acquired (and released) something, and those that found nothing. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Outcomes {
        public long hits;
        public long misses;

        @Setup(Level.Iteration)
        public void reset() {
            hits = 0;
            misses = 0;
        }
    }

    /** @return whether the cycle acquired (and released) something */
    protected abstract boolean cycle();

    private void count(Outcomes outcomes) {
        if (cycle()) {
            outcomes.hits++;
        } else {
            outcomes.misses++;
        }
    }

    @Benchmark
    @Threads(1)
    public void threads1(Outcomes outcomes) {
        count(outcomes);
    }

    @Benchmark
    @Threads(2)
    public void threads2(Outcomes outcomes) {
        count(outcomes);
    }

    @Benchmark
    @Threads(8)
    public void threads8(Outcomes outcomes) {
        count(outcomes);
    }

    @Benchmark
    @Threads(64)
    public void threads64(Outcomes outcomes) {
        count(outcomes);
    }
}
