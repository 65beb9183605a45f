package io.wharf.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import io.wharf.util.ConcurrentPool;
import io.wharf.util.Pool;

/**
 * Acquire+release throughput of a pre-filled object pool: Wharf's {@link ConcurrentPool}
 * (without and with its thread-local cache) against Jetty 12.1's
 * {@code org.eclipse.jetty.util.ConcurrentPool}, for each acquire strategy, at 1, 2, 8 and 64
 * threads. Each operation acquires an entry, optionally burns {@code holdTokens} of CPU while
 * holding it, and releases it. An acquire that finds nothing still counts as an operation of
 * the primary score; the secondary results {@code hits} and {@code misses} split the operations
 * into completed acquire+release cycles and empty-handed acquires: compare {@code hits} when
 * misses are not negligible (64 threads on 16 entries).
 *
 * <p>The pool has {@code size} entries (16), multiplex 1, no usage limit, all enabled before the
 * run. Each thread count is its own method, so one point of the grid is reproduced by
 * <pre>
 * java -jar wharf-bench/target/wharf-bench.jar 'PoolBenchmark.threads8' -p impl=wharf,jetty -p strategy=ROUND_ROBIN
 * </pre>
 * and the whole grid (4 thread counts x 3 implementations x 4 strategies) by
 * {@code java -jar wharf-bench/target/wharf-bench.jar PoolBenchmark}. Compare Wharf and Jetty
 * within one run; on a 2-core machine the 8- and 64-thread points measure contention under
 * preemption, not parallel speed.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PoolBenchmark extends PoolCycles {

    /** wharf: ConcurrentPool without cache; wharf-cache: with a one-entry thread-local cache; jetty: Jetty 12.1's ConcurrentPool. */
    @Param({"wharf", "wharf-cache", "jetty"})
    public String impl;

    @Param({"FIRST", "RANDOM", "THREAD_ID", "ROUND_ROBIN"})
    public String strategy;

    @Param("16")
    public int size;

    /** CPU work (JMH tokens) done while holding an entry; 0 measures the pool alone. */
    @Param("0")
    public int holdTokens;

    private Contender pool;

    /** The two pools behind one interface; each fork uses one implementation, so the call stays monomorphic. */
    interface Contender {
        /** @return whether an entry was acquired (and released) */
        boolean cycle(int holdTokens);

        void terminate();
    }

    @Setup
    public void setUp() {
        pool = switch (impl) {
            case "wharf" -> new WharfContender(Pool.Strategy.valueOf(strategy), size, 0);
            case "wharf-cache" -> new WharfContender(Pool.Strategy.valueOf(strategy), size, 1);
            case "jetty" -> new JettyContender(org.eclipse.jetty.util.ConcurrentPool.StrategyType.valueOf(strategy), size);
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
    }

    @TearDown
    public void tearDown() {
        pool.terminate();
    }

    @Override
    protected boolean cycle() {
        return pool.cycle(holdTokens);
    }

    static final class WharfContender implements Contender {
        private final ConcurrentPool<Object> pool;

        WharfContender(Pool.Strategy strategy, int size, int cacheSize) {
            pool = ConcurrentPool.builder(size).strategy(strategy).threadLocalCache(cacheSize).build();
            for (int i = 0; i < size; i++) {
                pool.reserve().enable("pooled-" + i, false);
            }
        }

        @Override
        public boolean cycle(int holdTokens) {
            Pool.Entry<Object> entry = pool.acquire();
            if (entry == null) {
                return false;
            }
            if (holdTokens > 0) {
                Blackhole.consumeCPU(holdTokens);
            }
            entry.release();
            return true;
        }

        @Override
        public void terminate() {
            pool.terminate();
        }
    }

    static final class JettyContender implements Contender {
        private final org.eclipse.jetty.util.ConcurrentPool<Object> pool;

        JettyContender(org.eclipse.jetty.util.ConcurrentPool.StrategyType strategy, int size) {
            pool = new org.eclipse.jetty.util.ConcurrentPool<>(strategy, size);
            for (int i = 0; i < size; i++) {
                pool.reserve().enable("pooled-" + i, false);
            }
        }

        @Override
        public boolean cycle(int holdTokens) {
            org.eclipse.jetty.util.Pool.Entry<Object> entry = pool.acquire();
            if (entry == null) {
                return false;
            }
            if (holdTokens > 0) {
                Blackhole.consumeCPU(holdTokens);
            }
            entry.release();
            return true;
        }

        @Override
        public void terminate() {
            pool.terminate();
        }
    }
}
