package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import io.wharf.http.HttpFields;
import io.wharf.loadgen.Model;
import io.wharf.loadgen.Protocol;
import io.wharf.loadgen.Resource;
import io.wharf.testing.ThreadAllocation;

import org.junit.jupiter.api.Test;

/**
 * The reporting interval's promise: closing an interval in the steady state allocates a few
 * small objects (the interval's report and its maps), never a histogram. Each recorder's
 * histograms are about 190 KB; made anew every interval, they lived one interval, long enough
 * to be copied by the driver's young collections, and made the generator's own pauses longer.
 * Measured with the JVM's per-thread allocation counter.
 */
class IntervalReporterAllocationTest {

    /** A report, its maps and percentiles are well under this; one histogram is 190 KB. */
    private static final long MAX_BYTES_PER_INTERVAL = 16 * 1024;

    @Test
    void aSteadyIntervalAllocatesNoHistogram() {
        Settings settings = new Settings(URI.create("http://127.0.0.1:1/"), false, Protocol.HTTP_1_1, false, 1, 1, 1,
                Resource.of("/", Resource.of("/a.css")), "GET", HttpFields.EMPTY, null, "text/plain", Model.OPEN,
                100, Duration.ZERO, 0, 0, Duration.ofSeconds(1), Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofMillis(10), 100, 0, null, List.of(), 64);
        Statistics statistics = new Statistics(List.of("/", "/a.css"), settings.behindThreshold().toNanos());
        long start = System.nanoTime();
        statistics.measuredStart(start);
        long[] value = {1};
        Runnable interval = () -> {
            for (int i = 0; i < 100; i++) {
                long latency = (value[0] = value[0] * 31 % 1_000_003) * 1_000;
                statistics.requestEnded(i % 2 == 0 ? "/" : "/a.css", 200, null, latency, latency / 2, System.nanoTime());
                statistics.treeEnded(latency);
            }
        };
        try (IntervalReporter reporter = new IntervalReporter(settings, statistics, null, start)) {
            long perInterval = ThreadAllocation.perRun(50, 50, () -> {
                interval.run();
                reporter.report();
            });
            assertTrue(perInterval <= MAX_BYTES_PER_INTERVAL,
                    "closing a steady interval allocated " + perInterval + " bytes, more than " + MAX_BYTES_PER_INTERVAL);
            assertEquals(100 * 100, reporter.corrected().getTotalCount());
            assertEquals(100 * 100, reporter.trees().getTotalCount());
            assertEquals(100 * 50, reporter.resources().get("/a.css").getTotalCount());
        }
    }
}
