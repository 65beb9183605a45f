package io.wharf.loadgen.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.HdrHistogram.Histogram;

import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Model;
import io.wharf.loadgen.ResourceStatistics;
import io.wharf.loadgen.ScheduleLag;

/**
 * One run of a {@link io.wharf.loadgen.LoadGenerator}: opens its {@link Scenario} (an HTTP
 * resource tree, or a chat room whose members join first), starts the reporting timer, the probe
 * (if any) and the model's loops; waits for the loops, then (at most the request timeout) for
 * the exchanges in flight; closes the last interval, closes the scenario and sums up a
 * {@link LoadResult}.
 *
 * <p><b>Threads.</b> {@link #run()} blocks its caller (once); {@link #stop()} may be called from
 * any thread. The open model sends from its own platform threads ({@code wharf-loadgen-send-N});
 * intervals close on a daemon timer thread ({@code wharf-loadgen-timer}), which also ends the
 * closed model's think times.
 */
public final class LoadRun {

    private final Settings settings;
    private final AtomicBoolean ran = new AtomicBoolean();
    private volatile boolean stopped;

    public LoadRun(Settings settings) {
        this.settings = settings;
    }

    public void stop() {
        stopped = true;
    }

    public LoadResult run() throws InterruptedException {
        if (!ran.compareAndSet(false, true)) {
            throw new IllegalStateException("a load generator runs once");
        }
        Scenario scenario = settings.chat() ? new ChatScenario(settings)
                : new TreeScenario(settings, Target.newClient(settings), settings.resource());
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "wharf-loadgen-timer");
            thread.setDaemon(true);
            return thread;
        });
        Statistics statistics = new Statistics(scenario.parts(), settings.behindThreshold().toNanos());
        Probe probe = settings.probeRate() > 0 ? new Probe(settings) : null;
        long start = System.nanoTime();
        try (IntervalReporter reporter = new IntervalReporter(settings, statistics, probe, start)) {
            try {
                scenario.open();
                long interval = settings.reportInterval().toNanos();
                timer.scheduleAtFixedRate(reporter::report, interval, interval, TimeUnit.NANOSECONDS);
                IterationStarter starter = starter(scenario, statistics, new LoadEvents(settings.listeners()));
                RunPlan plan = settings.model() == Model.OPEN ? RunPlan.of(settings, System.nanoTime()) : null;
                if (probe != null) {
                    probe.start(plan != null ? plan.measuredStartNanos() : System.nanoTime());
                }
                if (plan != null) {
                    statistics.measuredStart(plan.measuredStartNanos());
                    runOpen(plan, starter);
                } else {
                    ClosedLoop loop = new ClosedLoop(settings, statistics, starter, scenario.executor(), timer, () -> stopped);
                    loop.start();
                    loop.await();
                }
                if (probe != null) {
                    probe.finish();
                }
                drain(statistics);
                timer.shutdownNow();
                reporter.report();
                LoadResult result = result(plan, statistics, reporter, probe);
                reporter.summarize(result);
                return result;
            } finally {
                timer.shutdownNow();
                if (probe != null) {
                    probe.close();
                }
                close(scenario);
            }
        }
    }

    /**
     * @return what the loops call to start an iteration: counts it (when measured) and hands it
     *     to {@code scenario} with the engine's statistics and listeners
     */
    static IterationStarter starter(Scenario scenario, Statistics statistics, LoadEvents events) {
        return (user, intended, dispatched, measured, done) -> {
            if (measured) {
                statistics.iterationStarted();
            }
            statistics.iterationOpened();
            scenario.start(new Iteration(statistics, events, user, intended, dispatched, measured, done));
        };
    }

    /** Closes {@code scenario}; an interrupt meanwhile is kept for the caller, not thrown over the run's own outcome. */
    private static void close(Scenario scenario) {
        try {
            scenario.close();
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }

    private void runOpen(RunPlan plan, IterationStarter starter) throws InterruptedException {
        List<Thread> senders = new ArrayList<>();
        for (int thread = 0; thread < settings.threads(); thread++) {
            Thread sender = new Thread(new OpenLoop(plan, thread, starter, () -> stopped), "wharf-loadgen-send-" + thread);
            sender.setDaemon(true);
            senders.add(sender);
            sender.start();
        }
        try {
            for (Thread sender : senders) {
                sender.join();
            }
        } catch (InterruptedException x) {
            stopped = true;
            throw x;
        }
    }

    /**
     * Waits for the requests in flight, each of which ends within the request timeout (queueing
     * included), and for their iterations to be counted and told to the listeners.
     */
    private void drain(Statistics statistics) throws InterruptedException {
        long deadline = System.nanoTime() + settings.requestTimeout().toNanos() + TimeUnit.SECONDS.toNanos(1);
        while ((statistics.inFlight() > 0 || statistics.openIterations() > 0) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    private LoadResult result(RunPlan plan, Statistics statistics, IntervalReporter reporter, Probe probe) {
        long measuredStart = statistics.measuredStart();
        long lastEnd = statistics.lastEnd();
        Duration elapsed = measuredStart == Long.MIN_VALUE || lastEnd == Long.MIN_VALUE
                ? Duration.ZERO : Duration.ofNanos(Math.max(0, lastEnd - measuredStart));
        long iterations = statistics.iterations();
        double achieved;
        long intended;
        if (plan != null) {
            intended = plan.measuredCount();
            // n iterations due every 1/rate from the measured start, the last one sent at lastRootBegin.
            long span = statistics.lastRootBegin() - measuredStart + (long) (1e9 / settings.rate());
            achieved = statistics.rootsBegun() == 0 || span <= 0 ? 0 : statistics.rootsBegun() * 1e9 / span;
        } else {
            intended = iterations;
            achieved = elapsed.isZero() ? 0 : iterations * 1e9 / elapsed.toNanos();
        }
        ScheduleLag lag = new ScheduleLag(settings.behindThreshold(), Duration.ofNanos(statistics.maxSenderLag()),
                Duration.ofNanos(statistics.maxQueueLag()), statistics.lateRoots(), statistics.rootsBegun());
        return new LoadResult(settings.target(), settings.protocol(), settings.model(),
                settings.model() == Model.OPEN ? settings.rate() : 0, achieved, intended, iterations, statistics.requests(),
                statistics.errors(), statistics.errorsByKind(), statistics.errorExamples(), elapsed, reporter.corrected(), reporter.uncorrected(),
                reporter.trees(), statistics.resources(reporter.resources()), lag, reporter.timeline(),
                probe != null ? probe.result(reporter.probe()) : new ResourceStatistics(settings.resource().name(), 0, 0, new Histogram(3)));
    }
}
