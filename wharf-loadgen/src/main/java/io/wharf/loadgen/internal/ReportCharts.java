package io.wharf.loadgen.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadListener.IntervalReport;
import io.wharf.loadgen.LoadListener.Percentiles;
import io.wharf.loadgen.LoadResult;

/**
 * Draws the HTML report's charts with XChart, as SVG: latency percentiles over time, the
 * probe's beside the loaders' (with a probe), the percentile distribution on HdrHistogram's log
 * scale, throughput over time, and errors by kind over time. Each SVG's ids get a prefix of
 * their own, so that several can sit inline in one page. Stateless; any thread (AWT runs
 * headless).
 */
public final class ReportCharts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;

    /**
     * One chart of the report.
     *
     * @param caption what it shows, in a few words
     * @param svg the chart, an inline SVG element
     */
    public record Figure(String caption, String svg) {
    }

    private ReportCharts() {
    }

    /** @return the charts of {@code result}, in the report's order */
    public static List<Figure> figures(LoadResult result) {
        System.setProperty("java.awt.headless", "true");
        List<Figure> figures = new ArrayList<>();
        figures.add(new Figure("Latency percentiles over time", render(latencyOverTime(result.intervals()), "latency")));
        if (result.probe().requests() > 0) {
            figures.add(new Figure("The probe's latency over time, beside the loaders'", render(probeOverTime(result.intervals()), "probe")));
        }
        figures.add(new Figure("Latency by percentile", render(distribution(result), "distribution")));
        figures.add(new Figure("Throughput over time", render(throughput(result.intervals(),
                result.resources().containsKey(LoadGenerator.CHAT_DELIVERIES) ? "messages/s" : "requests/s"), "throughput")));
        figures.add(new Figure("Errors by kind over time", render(errors(result), "errors")));
        return figures;
    }

    private static XYChart latencyOverTime(List<IntervalReport> intervals) {
        XYChart chart = lineChart("Latency percentiles over time (corrected for coordinated omission)", "time (s)", "latency (ms)");
        double[] time = times(intervals);
        addLine(chart, "p50", time, intervals, IntervalReport::corrected, Percentiles::p50);
        addLine(chart, "p90", time, intervals, IntervalReport::corrected, Percentiles::p90);
        addLine(chart, "p99", time, intervals, IntervalReport::corrected, Percentiles::p99);
        addLine(chart, "p99.9", time, intervals, IntervalReport::corrected, Percentiles::p999);
        addLine(chart, "max", time, intervals, IntervalReport::corrected, Percentiles::max);
        addLine(chart, "p99 uncorrected", time, intervals, IntervalReport::uncorrected, Percentiles::p99).setLineStyle(SeriesLines.DASH_DASH);
        return chart;
    }

    /** Adds the line of one percentile of {@code intervals} (those of the loaders, the uncorrected or the probe's), in ms. */
    private static XYSeries addLine(XYChart chart, String name, double[] time, List<IntervalReport> intervals,
            Function<IntervalReport, Percentiles> which, ToLongFunction<Percentiles> value) {
        double[] millis = intervals.stream().mapToDouble(report -> value.applyAsLong(which.apply(report)) / 1000.0).toArray();
        XYSeries series = chart.addSeries(name, orZero(time), orZero(millis));
        series.setMarker(SeriesMarkers.NONE);
        return series;
    }

    /**
     * The percentile distribution as HdrHistogram plots it: x is log10(1 / (1 − percentile)), so
     * that 90%, 99%, 99.9%... are evenly spaced, and the whole numbers of x are labelled with their
     * percentile.
     */
    private static XYChart distribution(LoadResult result) {
        XYChart chart = lineChart("Latency by percentile", "percentile", "latency (ms)");
        chart.getStyler().setxAxisTickLabelsFormattingFunction(ReportCharts::percentileLabel);
        addDistribution(chart, "corrected", result.corrected());
        addDistribution(chart, "uncorrected", result.uncorrected());
        return chart;
    }

    private static void addDistribution(XYChart chart, String name, Histogram histogram) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        if (histogram.getTotalCount() > 0) {
            for (HistogramIterationValue value : histogram.percentiles(5)) {
                double percentile = value.getPercentileLevelIteratedTo();
                if (percentile >= 100) {
                    break;
                }
                x.add(Math.log10(1 / (1 - percentile / 100)));
                y.add(value.getValueIteratedTo() / 1000.0);
            }
        }
        if (x.isEmpty()) {
            x.add(0.0);
            y.add(0.0);
        }
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
        if (name.equals("uncorrected")) {
            series.setLineStyle(SeriesLines.DASH_DASH);
        }
    }

    /** @return the percentile a whole x of the distribution chart stands for (0%, 90%, 99%, 99.9%...); empty between them */
    static String percentileLabel(double x) {
        long whole = Math.round(x);
        if (Math.abs(x - whole) > 1e-9 || whole < 0) {
            return "";
        }
        return switch ((int) Math.min(whole, 12)) {
            case 0 -> "0%";
            case 1 -> "90%";
            case 2 -> "99%";
            default -> "99." + "9".repeat((int) Math.min(whole, 12) - 2) + "%";
        };
    }

    /** @param unit what is counted per second: requests, or a chat run's messages */
    private static XYChart throughput(List<IntervalReport> intervals, String unit) {
        XYChart chart = lineChart("Throughput over time", "time (s)", "per second");
        double[] time = times(intervals);
        double[] rate = intervals.stream().mapToDouble(IntervalReport::rate).toArray();
        double[] errors = new double[intervals.size()];
        for (int i = 0; i < errors.length; i++) {
            IntervalReport report = intervals.get(i);
            errors[i] = report.requests() == 0 ? 0 : report.rate() * report.intervalErrors() / report.requests();
        }
        chart.addSeries(unit, orZero(time), orZero(rate)).setMarker(SeriesMarkers.NONE);
        chart.addSeries("errors/s", orZero(time), orZero(errors)).setMarker(SeriesMarkers.NONE);
        return chart;
    }

    /**
     * The probe's p50, p99 and max in the intervals where it had responses, and the loaders' p50
     * and p99 dashed beside them: what a newcomer waited against what the load's users waited.
     */
    static XYChart probeOverTime(List<IntervalReport> intervals) {
        XYChart chart = lineChart("The probe's latency (own connection) beside the loaders'", "time (s)", "latency (ms)");
        List<IntervalReport> probed = intervals.stream().filter(report -> report.probe().isPresent()).toList();
        double[] probeTime = times(probed);
        Function<IntervalReport, Percentiles> probe = report -> report.probe().orElseThrow();
        addLine(chart, "probe p50", probeTime, probed, probe, Percentiles::p50).setMarker(SeriesMarkers.CIRCLE);
        addLine(chart, "probe p99", probeTime, probed, probe, Percentiles::p99).setMarker(SeriesMarkers.CIRCLE);
        addLine(chart, "probe max", probeTime, probed, probe, Percentiles::max).setMarker(SeriesMarkers.CIRCLE);
        double[] time = times(intervals);
        addLine(chart, "loaders p50", time, intervals, IntervalReport::corrected, Percentiles::p50).setLineStyle(SeriesLines.DASH_DASH);
        addLine(chart, "loaders p99", time, intervals, IntervalReport::corrected, Percentiles::p99).setLineStyle(SeriesLines.DASH_DASH);
        return chart;
    }

    /**
     * Errors per second of each kind over time, one line per kind (in the order of their names)
     * named with its total; one flat "no errors" line when there were none.
     */
    static XYChart errors(LoadResult result) {
        List<IntervalReport> intervals = result.intervals();
        XYChart chart = lineChart("Errors by kind over time", "time (s)", "errors per second");
        double[] time = orZero(times(intervals));
        if (result.errorsByKind().isEmpty()) {
            chart.addSeries("no errors", time, new double[time.length]).setMarker(SeriesMarkers.NONE);
            return chart;
        }
        for (Map.Entry<String, Long> kind : new TreeMap<>(result.errorsByKind()).entrySet()) {
            double[] perSecond = intervals.stream().mapToDouble(report -> report.requests() == 0 ? 0
                    : report.rate() * report.intervalErrorsByKind().getOrDefault(kind.getKey(), 0L) / report.requests()).toArray();
            chart.addSeries(kind.getKey() + ": " + kind.getValue() + " in all", time, orZero(perSecond)).setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static double[] times(List<IntervalReport> intervals) {
        return intervals.stream().mapToDouble(report -> report.elapsed().toMillis() / 1000.0).toArray();
    }

    private static XYChart lineChart(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        return chart;
    }

    /** @return {@code values}, or one zero when it is empty (a chart needs a point) */
    private static double[] orZero(double[] values) {
        return values.length == 0 ? new double[] {0} : values;
    }

    private static String render(Chart<?, ?> chart, String prefix) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException x) {
            throw new UncheckedIOException("drawing the chart " + prefix + " failed: " + x.getMessage(), x);
        }
        String svg = out.toString(StandardCharsets.UTF_8);
        // The XML declaration and doctype go: the SVG sits inline in HTML. Its ids get the chart's prefix.
        svg = svg.substring(svg.indexOf("<svg"));
        return svg.replace("id=\"", "id=\"" + prefix + "-").replace("url(#", "url(#" + prefix + "-")
                .replace("href=\"#", "href=\"#" + prefix + "-");
    }
}
