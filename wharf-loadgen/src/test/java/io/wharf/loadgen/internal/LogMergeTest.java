package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;

import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadListener.IntervalReport;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.LoadTestServer;
import io.wharf.loadgen.Resource;
import io.wharf.loadgen.ResourceStatistics;
import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two generator runs (trees of four resources, a probe) against a server that fails two
 * resources of the four, their interval logs merged: the merged errors by kind, per interval and
 * in all, each resource's and the probe's statistics are the sums of the two runs'; one log
 * merged alone gives back its run's errors over time; HdrHistogram's own reader reads every line.
 */
@Timeout(60)
class LogMergeTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    /** Answers 503 to {@code /busy}, 404 to {@code /gone}, 200 to the rest. */
    private static Handler failingSome() {
        return LoadTestServer.answering(path -> path.equals("/busy") ? 503 : path.equals("/gone") ? 404 : 200);
    }

    private LoadResult run(LoadTestServer server, String log, double rate, long iterations) throws InterruptedException {
        return LoadGenerator.builder(URI.create(server.uri("/")))
                .resource(Resource.of("/page", Resource.of("/busy"), Resource.of("/gone"), Resource.of("/style.css")))
                .connectionsPerUser(4)
                .rate(rate)
                .iterations(iterations)
                .reportInterval(Duration.ofMillis(100))
                .probe(20)
                .intervalLog(directory.resolve(log))
                .build()
                .run();
    }

    @Test
    void mergedErrorsPerIntervalAndInAllAreTheSumsOfTheRuns() throws Exception {
        LoadResult first;
        LoadResult second;
        try (LoadTestServer server = new LoadTestServer(leaks.pool(), failingSome())) {
            first = run(server, "first.hlog", 200, 100);
            second = run(server, "second.hlog", 100, 40);
        }
        assertEquals(Map.of("HTTP 503", 100L, "HTTP 404", 100L), first.errorsByKind());
        LoadResult merged = LogMerge.merge(List.of(directory.resolve("first.hlog"), directory.resolve("second.hlog")));

        assertEquals(first.requests() + second.requests(), merged.requests());
        assertEquals(first.errors() + second.errors(), merged.errors());
        assertEquals(Map.of("HTTP 503", 140L, "HTTP 404", 140L), merged.errorsByKind());
        assertEquals(merged.errorsByKind(), errorsOverTime(merged.intervals()), "the errors of the merged intervals");
        assertEquals(merged.requests(), merged.intervals().stream().mapToLong(IntervalReport::requests).sum(),
                "the requests of the merged intervals");
        assertEquals(merged.errors(), merged.intervals().get(merged.intervals().size() - 1).errors(), "errors so far, at the end");
        // A single run's intervals add up the same way.
        assertEquals(first.errorsByKind(), errorsOverTime(first.intervals()));
        assertEquals(first.errors(), first.intervals().stream().mapToLong(IntervalReport::intervalErrors).sum());
        assertTrue(merged.intervals().stream().anyMatch(report -> report.intervalErrors() > 0), "errors per interval");
    }

    @Test
    void mergedResourcesTreesAndProbeAreTheSumsOfTheRuns() throws Exception {
        LoadResult first;
        LoadResult second;
        try (LoadTestServer server = new LoadTestServer(leaks.pool(), failingSome())) {
            first = run(server, "first.hlog", 200, 100);
            second = run(server, "second.hlog", 100, 40);
        }
        LoadResult merged = LogMerge.merge(List.of(directory.resolve("first.hlog"), directory.resolve("second.hlog")));

        assertEquals(List.of("/page", "/busy", "/gone", "/style.css"), List.copyOf(merged.resources().keySet()));
        for (String name : merged.resources().keySet()) {
            ResourceStatistics one = first.resources().get(name);
            ResourceStatistics two = second.resources().get(name);
            ResourceStatistics sum = merged.resources().get(name);
            assertEquals(140, sum.requests(), name);
            assertEquals(one.errors() + two.errors(), sum.errors(), name);
            assertEquals(one.latency().getTotalCount() + two.latency().getTotalCount(), sum.latency().getTotalCount(), name);
            assertEquals(Math.max(one.latency().getMaxValue(), two.latency().getMaxValue()), sum.latency().getMaxValue(), name);
        }
        assertEquals(140, merged.resources().get("/busy").errors());
        assertEquals(first.trees().getTotalCount() + second.trees().getTotalCount(), merged.trees().getTotalCount());
        assertEquals(140, merged.trees().getTotalCount());

        assertTrue(first.probe().requests() > 0 && second.probe().requests() > 0, "the probes ran");
        assertEquals(first.probe().requests() + second.probe().requests(), merged.probe().requests());
        assertEquals(first.probe().latency().getTotalCount() + second.probe().latency().getTotalCount(),
                merged.probe().latency().getTotalCount());
        long probedInIntervals = 0;
        for (IntervalReport report : merged.intervals()) {
            probedInIntervals += report.probe().isPresent() ? 1 : 0;
        }
        assertTrue(probedInIntervals > 0, "the probe's percentiles over time");
        assertTrue(first.intervals().stream().anyMatch(report -> report.probe().isPresent()), "a run's own probe percentiles over time");

        // HdrHistogram's own reader reads every histogram, each tag once per interval.
        Map<String, Integer> tags = new TreeMap<>();
        try (InputStream in = Files.newInputStream(directory.resolve("first.hlog"))) {
            HistogramLogReader reader = new HistogramLogReader(in);
            for (EncodableHistogram histogram; (histogram = reader.nextIntervalHistogram()) != null; ) {
                tags.merge(histogram.getTag(), 1, Integer::sum);
            }
        }
        long intervalLines = Files.readAllLines(directory.resolve("first.hlog")).stream()
                .filter(line -> line.startsWith(IntervalReporter.INTERVAL_PREFIX)).count();
        assertEquals(Set.of("corrected", "uncorrected", "trees", "probe", "resource:/page", "resource:/busy", "resource:/gone",
                "resource:/style.css"), tags.keySet());
        for (int count : tags.values()) {
            assertEquals(intervalLines, count, "lines per tag: " + tags);
        }
    }

    @Test
    void oneLogMergedAloneGivesBackItsRunsErrorsOverTime() throws Exception {
        LoadResult run;
        try (LoadTestServer server = new LoadTestServer(leaks.pool(), failingSome())) {
            run = run(server, "alone.hlog", 200, 100);
        }
        LoadResult merged = LogMerge.merge(List.of(directory.resolve("alone.hlog")));
        assertEquals(errorsPerInterval(run.intervals()), errorsPerInterval(merged.intervals()));
        assertEquals(run.errorsByKind(), merged.errorsByKind());
        assertEquals(run.corrected().getTotalCount(), merged.corrected().getTotalCount());
        assertEquals(run.resources().get("/style.css").latency().getTotalCount(), merged.resources().get("/style.css").latency().getTotalCount());
    }

    /** @return the errors by kind of each interval that had requests */
    private static List<Map<String, Long>> errorsPerInterval(List<IntervalReport> intervals) {
        return intervals.stream().filter(report -> report.requests() > 0).map(IntervalReport::intervalErrorsByKind).toList();
    }

    private static Map<String, Long> errorsOverTime(List<IntervalReport> intervals) {
        Map<String, Long> sums = new TreeMap<>();
        for (IntervalReport report : intervals) {
            report.intervalErrorsByKind().forEach((kind, count) -> sums.merge(kind, count, Long::sum));
        }
        return sums;
    }
}
