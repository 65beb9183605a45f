package io.wharf.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

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
import org.openjdk.jmh.infra.Blackhole;

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
 * <p>What a task does ({@code task}): {@code tiny} only counts down (the default: dispatch
 * cost alone, where waking threads the work does not need is what hurts); {@code cpu} first
 * burns {@value #CPU_TOKENS} JMH tokens of CPU (about 50 µs on the 2-core bench machine), so
 * that the pool should keep every core busy; {@code sleep} first parks for 1 ms, like a
 * blocking call, so that the pool should put all its threads to work: the ceiling is then
 * {@code poolThreads} tasks per millisecond.
 *
 * <pre>
 *   java -jar wharf-bench/target/wharf-bench.jar ThreadPoolBenchmark -t 4
 *   java -jar wharf-bench/target/wharf-bench.jar ThreadPoolBenchmark -t 1 -p task=cpu,sleep
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

    /** tiny, cpu (about 50 µs of CPU per task) or sleep (1 ms blocked per task); see the class comment. */
    @Param({"tiny"})
    public String task;

    static final long CPU_TOKENS = 33_000;
    private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private Executor executor;
    private AutoCloseable shutdown;

    @Setup(Level.Trial)
    public void startPool() throws Exception {
        if (!task.equals("tiny") && !task.equals("cpu") && !task.equals("sleep")) {
            throw new IllegalArgumentException("Unknown task kind: " + task + " (tiny, cpu or sleep)");
        }
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
        private Runnable task;

        @Setup(Level.Trial)
        public void chooseTask(ThreadPoolBenchmark benchmark) {
            task = switch (benchmark.task) {
                case "cpu" -> () -> {
                    Blackhole.consumeCPU(CPU_TOKENS);
                    latch.countDown();
                };
                case "sleep" -> () -> {
                    long deadline = System.nanoTime() + SLEEP_NANOS;
                    for (long left = SLEEP_NANOS; left > 0; left = deadline - System.nanoTime()) {
                        LockSupport.parkNanos(left);
                    }
                    latch.countDown();
                };
                default -> () -> latch.countDown();
            };
        }
    }

    @Benchmark
    public void executeBatch(Batch producer) throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(batch);
        producer.latch = latch;
        Runnable task = producer.task;
        for (int i = 0; i < batch; i++) {
            executor.execute(task);
        }
        if (!latch.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(impl + " did not complete a batch of " + batch + " in 30 s: " + latch.getCount() + " left");
        }
    }
}
