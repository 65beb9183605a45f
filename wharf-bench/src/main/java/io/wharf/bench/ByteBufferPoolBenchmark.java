package io.wharf.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import io.wharf.util.buffer.BucketedByteBufferPool;

/**
 * Acquire+release throughput of Wharf's {@link BucketedByteBufferPool} against Jetty 12.1's
 * {@code org.eclipse.jetty.io.ArrayByteBufferPool}, both with 1 KiB steps up to 64 KiB,
 * 1024 buffers per bucket and the same memory caps.
 *
 * <ul>
 *   <li>{@code single*}: acquire one buffer of {@code size} bytes, write a byte, release it —
 *       the pattern of a connection reading into a fresh buffer.</li>
 *   <li>{@code burst*}: acquire eight buffers of eight sizes spread over the buckets, then
 *       release them all — several buffers out at once, as when a response is aggregated.
 *       Scores are per buffer.</li>
 * </ul>
 * The {@code *1} methods run one thread, the {@code *4} methods four threads on the same pool
 * (on a 2-core machine that measures contention under preemption, not parallel speed). One
 * point is reproduced by
 * <pre>
 * java -jar wharf-bench/target/wharf-bench.jar 'ByteBufferPoolBenchmark.single4' -p impl=wharf,jetty -p direct=true
 * </pre>
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ByteBufferPoolBenchmark {

    private static final int[] BURST_SIZES = {100, 1500, 4096, 8000, 16393, 20000, 32768, 65000};

    /** wharf: BucketedByteBufferPool; jetty: Jetty 12.1's ArrayByteBufferPool. */
    @Param({"wharf", "jetty"})
    public String impl;

    @Param({"false", "true"})
    public boolean direct;

    /** The size of the {@code single*} buffers. */
    @Param("4096")
    public int size;

    private Contender pool;

    /** The two pools behind one interface; each fork uses one implementation, so the call stays monomorphic. */
    interface Contender {
        /** Acquires, touches and releases one buffer; @return a byte to sink */
        int single(int size, boolean direct);

        /** Acquires one buffer of each of {@code sizes}, then releases them all; @return a value to sink */
        int burst(int[] sizes, boolean direct);
    }

    @Setup
    public void setUp() {
        pool = switch (impl) {
            case "wharf" -> new WharfContender();
            case "jetty" -> new JettyContender();
            default -> throw new IllegalArgumentException("Unknown impl: " + impl);
        };
        // Fill the buckets once so that the measurement is of reuse, not of allocation.
        pool.burst(BURST_SIZES, direct);
        pool.single(size, direct);
    }

    @Benchmark
    @Threads(1)
    public int single1() {
        return pool.single(size, direct);
    }

    @Benchmark
    @Threads(4)
    public int single4() {
        return pool.single(size, direct);
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(8)
    public int burst1() {
        return pool.burst(BURST_SIZES, direct);
    }

    @Benchmark
    @Threads(4)
    @OperationsPerInvocation(8)
    public int burst4() {
        return pool.burst(BURST_SIZES, direct);
    }

    static final class WharfContender implements Contender {
        private final BucketedByteBufferPool pool = BucketedByteBufferPool.builder()
            .factor(1024).maxCapacity(65536).maxBucketEntries(1024)
            .maxHeapMemory(256L * 1024 * 1024).maxDirectMemory(64L * 1024 * 1024).build();

        @Override
        public int single(int size, boolean direct) {
            io.wharf.util.buffer.RetainableByteBuffer buffer = pool.acquire(size, direct);
            buffer.byteBuffer().limit(1).put(0, (byte) size);
            int value = buffer.byteBuffer().get(0);
            buffer.release();
            return value;
        }

        @Override
        public int burst(int[] sizes, boolean direct) {
            io.wharf.util.buffer.RetainableByteBuffer[] buffers = new io.wharf.util.buffer.RetainableByteBuffer[sizes.length];
            int total = 0;
            for (int i = 0; i < sizes.length; i++) {
                buffers[i] = pool.acquire(sizes[i], direct);
                total += buffers[i].capacity();
            }
            for (io.wharf.util.buffer.RetainableByteBuffer buffer : buffers) {
                buffer.release();
            }
            return total;
        }
    }

    static final class JettyContender implements Contender {
        private final org.eclipse.jetty.io.ArrayByteBufferPool pool =
            new org.eclipse.jetty.io.ArrayByteBufferPool(0, 1024, 65536, 1024, 256L * 1024 * 1024, 64L * 1024 * 1024);

        @Override
        public int single(int size, boolean direct) {
            org.eclipse.jetty.io.RetainableByteBuffer buffer = pool.acquire(size, direct);
            buffer.getByteBuffer().limit(1).put(0, (byte) size);
            int value = buffer.getByteBuffer().get(0);
            buffer.release();
            return value;
        }

        @Override
        public int burst(int[] sizes, boolean direct) {
            org.eclipse.jetty.io.RetainableByteBuffer[] buffers = new org.eclipse.jetty.io.RetainableByteBuffer[sizes.length];
            int total = 0;
            for (int i = 0; i < sizes.length; i++) {
                buffers[i] = pool.acquire(sizes[i], direct);
                total += buffers[i].capacity();
            }
            for (org.eclipse.jetty.io.RetainableByteBuffer buffer : buffers) {
                buffer.release();
            }
            return total;
        }
    }
}
