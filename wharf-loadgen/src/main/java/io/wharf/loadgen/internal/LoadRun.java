package io.wharf.loadgen.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.HdrHistogram.Histogram;

import io.wharf.client.HttpClient;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Model;
import io.wharf.loadgen.ResourceStatistics;
import io.wharf.loadgen.ScheduleLag;

/**
 * One run of a {@link io.wharf.loadgen.LoadGenerator}: starts the client, the reporting timer,
 * the probe (if any) and the model's loops; waits for the loops, then (at most the request
 * timeout) for the requests in flight; closes the last interval, stops the clients and sums up
 * a {@link LoadResult}.
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
        HttpClient client = Target.newClient(settings);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "wharf-loadgen-timer");
            thread.setDaemon(true);
            return thread;
        });
        Statistics statistics = new Statistics(settings.resource(), settings.behindThreshold().toNanos());
        Probe probe = settings.probeRate() > 0 ? new Probe(settings) : null;
        long start = System.nanoTime();
        try (IntervalReporter reporter = new IntervalReporter(settings, statistics, probe, start)) {
            try {
                client.start();
            } catch (Exception x) {
                throw new IllegalStateException("the load generator's HTTP client did not start: " + x, x);
            }
            try {
                long interval = settings.reportInterval().toNanos();
                timer.scheduleAtFixedRate(reporter::report, interval, interval, TimeUnit.NANOSECONDS);
                Target target = new Target(settings, client);
                LoadEvents events = new LoadEvents(settings.listeners());
                IterationStarter starter = (user, intended, dispatched, measured, done) ->
                        new TreeFetch(target, statistics, events, settings.resource(), user, measured, done)
                                .start(intended, dispatched);
                RunPlan plan = settings.model() == Model.OPEN ? RunPlan.of(settings, System.nanoTime()) : null;
                if (probe != null) {
                    probe.start(plan != null ? plan.measuredStartNanos() : System.nanoTime());
                }
                if (plan != null) {
                    statistics.measuredStart(plan.measuredStartNanos());
                    runOpen(plan, starter);
                } else {
                    ClosedLoop loop = new ClosedLoop(settings, statistics, starter, client.getExecutor(), timer, () -> stopped);
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
                stopClient(client);
            }
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

    /** Waits for the requests in flight; each ends within the request timeout (queueing included). */
    private void drain(Statistics statistics) throws InterruptedException {
        long deadline = System.nanoTime() + settings.requestTimeout().toNanos() + TimeUnit.SECONDS.toNanos(1);
        while (statistics.inFlight() > 0 && System.nanoTime() < deadline) {
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

    private static void stopClient(HttpClient client) {
        try {
            client.stop();
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        } catch (Exception x) {
            throw new IllegalStateException("the load generator's HTTP client did not stop: " + x, x);
        }
    }
}
