package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import io.wharf.loadgen.LoadListener.IntervalReport;
import io.wharf.loadgen.LoadListener.Percentiles;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Model;
import io.wharf.loadgen.Protocol;
import io.wharf.loadgen.ResourceStatistics;
import io.wharf.loadgen.ScheduleLag;

class ReportChartsTest {

    @Test
    void labelsTheDistributionsAxisWithPercentiles() {
        assertEquals("0%", ReportCharts.percentileLabel(0));
        assertEquals("90%", ReportCharts.percentileLabel(1));
        assertEquals("99%", ReportCharts.percentileLabel(2));
        assertEquals("99.9%", ReportCharts.percentileLabel(3));
        assertEquals("99.999%", ReportCharts.percentileLabel(5));
        assertEquals("", ReportCharts.percentileLabel(2.5));
        assertEquals("", ReportCharts.percentileLabel(-1));
    }

    @Test
    void theErrorsChartHasALinePerKindOfErrorsPerSecond() {
        LoadResult result = result(List.of(
                interval(1, 100, Map.of("HTTP 503", 10L), Optional.empty()),
                interval(2, 100, Map.of(), Optional.empty()),
                interval(3, 50, Map.of("HTTP 503", 5L, "TimeoutException", 50L), Optional.empty())),
                Map.of("HTTP 503", 15L, "TimeoutException", 50L));
        Map<String, XYSeries> series = ReportCharts.errors(result).getSeriesMap();
        assertEquals(List.of("HTTP 503: 15 in all", "TimeoutException: 50 in all"), List.copyOf(series.keySet()));
        // 100 requests in a second each, 50 in the last (half a second: 100/s).
        assertArrayEquals(new double[] {10, 0, 10}, series.get("HTTP 503: 15 in all").getYData(), 1e-9);
        assertArrayEquals(new double[] {0, 0, 100}, series.get("TimeoutException: 50 in all").getYData(), 1e-9);
        assertArrayEquals(new double[] {1, 2, 3}, series.get("HTTP 503: 15 in all").getXData(), 1e-9);

        XYChart none = ReportCharts.errors(result(result.intervals(), Map.of()));
        assertEquals(List.of("no errors"), List.copyOf(none.getSeriesMap().keySet()));
    }

    @Test
    void theProbesChartHasItsIntervalsWithResponsesBesideTheLoaders() {
        List<IntervalReport> intervals = List.of(
                interval(1, 100, Map.of(), Optional.of(new Percentiles(2_000, 3_000, 4_000, 4_000, 5_000))),
                interval(2, 100, Map.of(), Optional.empty()),
                interval(3, 100, Map.of(), Optional.of(new Percentiles(1_000, 1_000, 1_000, 1_000, 1_000))));
        Map<String, XYSeries> series = ReportCharts.probeOverTime(intervals).getSeriesMap();
        assertEquals(List.of("probe p50", "probe p99", "probe max", "loaders p50", "loaders p99"), List.copyOf(series.keySet()));
        assertArrayEquals(new double[] {1, 3}, series.get("probe p99").getXData(), 1e-9);
        assertArrayEquals(new double[] {4, 1}, series.get("probe p99").getYData(), 1e-9);
        assertArrayEquals(new double[] {1, 2, 3}, series.get("loaders p99").getXData(), 1e-9);
        assertArrayEquals(new double[] {0.3, 0.3, 0.3}, series.get("loaders p99").getYData(), 1e-9);
    }

    /** An interval ending {@code second}s in, of {@code requests} at 100/s, the loaders' p99 300 µs. */
    private static IntervalReport interval(int second, long requests, Map<String, Long> errors, Optional<Percentiles> probe) {
        long intervalErrors = errors.values().stream().mapToLong(Long::longValue).sum();
        Percentiles loaders = new Percentiles(100, 200, 300, 400, 500);
        return new IntervalReport(Duration.ofSeconds(second), requests, 100, 0, 0, intervalErrors, errors, loaders, loaders, probe,
                Duration.ZERO);
    }

    private static LoadResult result(List<IntervalReport> intervals, Map<String, Long> errorsByKind) {
        return new LoadResult(URI.create("http://127.0.0.1/"), Protocol.HTTP_1_1, Model.OPEN, 100, 100, 250, 250, 250,
                errorsByKind.values().stream().mapToLong(Long::longValue).sum(), errorsByKind, Map.of(), Duration.ofSeconds(3),
                new Histogram(3), new Histogram(3), new Histogram(3), Map.of(), new ScheduleLag(Duration.ZERO, Duration.ZERO, Duration.ZERO, 0, 0),
                intervals, new ResourceStatistics("/", 0, 0, new Histogram(3)));
    }
}
