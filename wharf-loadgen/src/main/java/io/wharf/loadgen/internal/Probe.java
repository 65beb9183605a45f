package io.wharf.loadgen.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

import io.wharf.client.HttpClient;
import io.wharf.loadgen.Resource;
import io.wharf.loadgen.ResourceStatistics;

/**
 * The probe: beside the loaders, which make the load, one more user requests the tree's root
 * at a low constant rate on a client and connection of its own, so that its latencies are
 * what a newcomer sees — not stuck behind the loaders' own queues. Its schedule starts with the
 * measured part and ends with the loaders; its latencies count from its own intended times.
 *
 * <p><b>Threads.</b> {@link #start} and {@link #finish} run on the running thread; the probe
 * sends from its own thread ({@code wharf-loadgen-probe}); responses come on its client's threads.
 */
final class Probe {

    private final Settings settings;
    private final Resource root;
    private final TreeScenario scenario;
    private final Statistics statistics;
    private volatile boolean over;
    private Thread sender;

    Probe(Settings settings) {
        this.settings = settings;
        this.root = new Resource(settings.resource().path(), settings.resource().request(), List.of());
        HttpClient client = Target.newClient(settings);
        client.setMaxConnectionsPerDestination(1);
        this.scenario = new TreeScenario(settings, client, root);
        this.statistics = new Statistics(scenario.parts(), settings.behindThreshold().toNanos());
    }

    /** Starts the probe's client, and its schedule at {@code startNanos}. */
    void start(long startNanos) {
        scenario.open();
        statistics.measuredStart(startNanos);
        RunPlan plan = new RunPlan(new RateSchedule(settings.probeRate(), 0), startNanos, 1, 1, 0, 0, Long.MAX_VALUE);
        IterationStarter starter = LoadRun.starter(scenario, statistics, new LoadEvents(List.of()));
        sender = new Thread(new OpenLoop(plan, 0, starter, () -> over), "wharf-loadgen-probe");
        sender.setDaemon(true);
        sender.start();
    }

    /** Stops the schedule and waits (at most the request timeout) for the probe's requests in flight. */
    void finish() throws InterruptedException {
        over = true;
        if (sender != null) {
            sender.join();
        }
        long deadline = System.nanoTime() + settings.requestTimeout().toNanos() + TimeUnit.SECONDS.toNanos(1);
        while (statistics.inFlight() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    /** Stops the schedule and the probe's client, ending what is still in flight. */
    void close() throws InterruptedException {
        over = true;
        scenario.close();
    }

    /** @return the probe's latencies since the last call, in µs (for the {@link IntervalReporter}) */
    Histogram takeLatencies() {
        return statistics.takeResources().get(root.name());
    }

    /**
     * @param latencies the latencies {@link #takeLatencies()} gave, summed
     * @return what the probe measured: its requests, errors and corrected latencies
     */
    ResourceStatistics result(Histogram latencies) {
        return statistics.resources(Map.of(root.name(), latencies)).get(root.name());
    }
}
