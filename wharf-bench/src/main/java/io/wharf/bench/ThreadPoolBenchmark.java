package io.wharf.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.wharf.util.thread.QueuedThreadPool;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Dispatch throughput of a thread pool: each benchmark thread (a producer; choose how many
 * with JMH's {@code -t}) executes a batch of small tasks that count down a latch, then waits
 * for the batch to complete. One operation is one batch, so operations per second times the
 * batch size is tasks per second, dispatch and hand-off to a pool thread included.
 *
 * <p>Compared, with the same number of pool threads: Wharf's {@link QueuedThreadPool}, the
 * JDK's {@link ThreadPoolExecutor} (fixed size, {@link LinkedBlockingQueue}) and Jetty 12.1's
 * {@code org.eclipse.jetty.util.thread.QueuedThreadPool}.
 *
 * <pre>
 *   java -jar wharf-bench/target/wharf-bench.jar ThreadPoolBenchmark -t 4
 * </pre>
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ThreadPoolBenchmark {

    @Param({"wharf", "jdk", "jetty"})
    public String impl;

    @Param({"8"})
    public int poolThreads;

    @Param({"1000"})
    public int batch;

    private Executor executor;
    private AutoCloseable shutdown;

    @Setup(Level.Trial)
    public void startPool() throws Exception {
        switch (impl) {
            case "wharf" -> {
                QueuedThreadPool pool = new QueuedThreadPool(poolThreads, poolThreads);
                pool.setName("bench-wharf");
                pool.start();
                executor = pool;
                shutdown = pool::stop;
            }
            case "jdk" -> {
                ThreadPoolExecutor pool = new ThreadPoolExecutor(poolThreads, poolThreads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
                pool.prestartAllCoreThreads();
                executor = pool;
                shutdown = () -> {
                    pool.shutdown();
                    pool.awaitTermination(10, TimeUnit.SECONDS);
                };
            }
            case "jetty" -> {
                org.eclipse.jetty.util.thread.QueuedThreadPool pool = new org.eclipse.jetty.util.thread.QueuedThreadPool(poolThreads, poolThreads);
                pool.setName("bench-jetty");
                pool.start();
                executor = pool;
                shutdown = pool::stop;
            }
            default -> throw new IllegalArgumentException("Unknown thread pool implementation: " + impl);
        }
    }

    @TearDown(Level.Trial)
    public void stopPool() throws Exception {
        shutdown.close();
    }

    /** One producer's batch: the latch of the batch in progress and the task that counts it down. */
    @State(Scope.Thread)
    public static class Batch {
        private volatile CountDownLatch latch;
        private final Runnable task = () -> latch.countDown();
    }

    @Benchmark
    public void executeBatch(Batch producer) throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(batch);
        producer.latch = latch;
        for (int i = 0; i < batch; i++) {
            executor.execute(producer.task);
        }
        if (!latch.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(impl + " did not complete a batch of " + batch + " in 30 s: " + latch.getCount() + " left");
        }
    }
}
