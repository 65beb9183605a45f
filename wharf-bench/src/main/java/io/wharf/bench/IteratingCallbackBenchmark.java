package io.wharf.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of the IteratingCallback state machine itself, Wharf's (one atomic status word)
 * against Jetty 12.1's (a lock around a state enum), on one thread:
 * <ul>
 * <li>{@code synchronousSteps}: a job of {@code steps} steps, each completing inside
 *     process() (the common "the write went through at once" case);</li>
 * <li>{@code idleWakeUps}: {@code steps} iterate() calls that each find one item and go
 *     idle again (a flusher woken per frame).</li>
 * </ul>
 * Scores are jobs per microsecond; divide by {@code steps} for a per-step figure.
 */
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class IteratingCallbackBenchmark {

    @Param({"wharf", "jetty"})
    public String implementation;

    @Param({"100"})
    public int steps;

    @Benchmark
    public int synchronousSteps() {
        if (implementation.equals("wharf")) {
            WharfSteps job = new WharfSteps(steps);
            job.iterate();
            return job.done;
        }
        JettySteps job = new JettySteps(steps);
        job.iterate();
        return job.done;
    }

    @Benchmark
    public int idleWakeUps() {
        if (implementation.equals("wharf")) {
            WharfWakeUps job = new WharfWakeUps();
            for (int i = 0; i < steps; i++) {
                job.items++;
                job.iterate();
            }
            return job.taken;
        }
        JettyWakeUps job = new JettyWakeUps();
        for (int i = 0; i < steps; i++) {
            job.items++;
            job.iterate();
        }
        return job.taken;
    }

    private static final class WharfSteps extends io.wharf.util.IteratingCallback {
        private final int steps;
        int done;

        WharfSteps(int steps) {
            this.steps = steps;
        }

        @Override
        protected Action process() {
            if (done == steps) {
                return Action.SUCCEEDED;
            }
            done++;
            succeeded();
            return Action.SCHEDULED;
        }
    }

    private static final class JettySteps extends org.eclipse.jetty.util.IteratingCallback {
        private final int steps;
        int done;

        JettySteps(int steps) {
            this.steps = steps;
        }

        @Override
        protected Action process() {
            if (done == steps) {
                return Action.SUCCEEDED;
            }
            done++;
            succeeded();
            return Action.SCHEDULED;
        }
    }

    private static final class WharfWakeUps extends io.wharf.util.IteratingCallback {
        int items;
        int taken;

        @Override
        protected Action process() {
            if (taken == items) {
                return Action.IDLE;
            }
            taken++;
            succeeded();
            return Action.SCHEDULED;
        }
    }

    private static final class JettyWakeUps extends org.eclipse.jetty.util.IteratingCallback {
        int items;
        int taken;

        @Override
        protected Action process() {
            if (taken == items) {
                return Action.IDLE;
            }
            taken++;
            succeeded();
            return Action.SCHEDULED;
        }
    }
}
