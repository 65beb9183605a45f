package io.wharf.loadgen.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import io.wharf.loadgen.LoadListener.IntervalReport;
import io.wharf.loadgen.LoadListener.Percentiles;
import io.wharf.loadgen.LoadResult;

/**
 * Draws the HTML report's four charts with XChart, as SVG: latency percentiles over time,
 * the percentile distribution on HdrHistogram's log scale, throughput over time, and errors by
 * kind. Each SVG's ids get a prefix of their own, so that several can sit inline in one page.
 * Stateless; any thread (AWT runs headless).
 */
public final class ReportCharts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;

    private ReportCharts() {
    }

    /** @return the four charts of {@code result}, as inline SVG elements, in the report's order */
    public static List<String> svg(LoadResult result) {
        System.setProperty("java.awt.headless", "true");
        List<String> charts = new ArrayList<>();
        charts.add(render(latencyOverTime(result.intervals()), "latency"));
        charts.add(render(distribution(result), "distribution"));
        charts.add(render(throughput(result.intervals()), "throughput"));
        charts.add(render(errors(result.errorsByKind()), "errors"));
        return charts;
    }

    private static XYChart latencyOverTime(List<IntervalReport> intervals) {
        XYChart chart = lineChart("Latency percentiles over time (corrected for coordinated omission)", "time (s)", "latency (ms)");
        double[] time = intervals.stream().mapToDouble(report -> report.elapsed().toMillis() / 1000.0).toArray();
        addLine(chart, "p50", time, intervals, Percentiles::p50, false);
        addLine(chart, "p90", time, intervals, Percentiles::p90, false);
        addLine(chart, "p99", time, intervals, Percentiles::p99, false);
        addLine(chart, "p99.9", time, intervals, Percentiles::p999, false);
        addLine(chart, "max", time, intervals, Percentiles::max, false);
        addLine(chart, "p99 uncorrected", time, intervals, Percentiles::p99, true);
        return chart;
    }

    private static void addLine(XYChart chart, String name, double[] time, List<IntervalReport> intervals,
            ToLongFunction<Percentiles> value, boolean uncorrected) {
        double[] millis = intervals.stream()
                .mapToDouble(report -> value.applyAsLong(uncorrected ? report.uncorrected() : report.corrected()) / 1000.0).toArray();
        XYSeries series = chart.addSeries(name, orZero(time), orZero(millis));
        series.setMarker(SeriesMarkers.NONE);
        if (uncorrected) {
            series.setLineStyle(SeriesLines.DASH_DASH);
        }
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

    private static XYChart throughput(List<IntervalReport> intervals) {
        XYChart chart = lineChart("Throughput over time", "time (s)", "per second");
        double[] time = intervals.stream().mapToDouble(report -> report.elapsed().toMillis() / 1000.0).toArray();
        double[] rate = intervals.stream().mapToDouble(IntervalReport::rate).toArray();
        double[] errors = new double[intervals.size()];
        for (int i = 0; i < errors.length; i++) {
            IntervalReport report = intervals.get(i);
            errors[i] = report.requests() == 0 ? 0 : report.rate() * report.intervalErrors() / report.requests();
        }
        chart.addSeries("requests/s", orZero(time), orZero(rate)).setMarker(SeriesMarkers.NONE);
        chart.addSeries("errors/s", orZero(time), orZero(errors)).setMarker(SeriesMarkers.NONE);
        return chart;
    }

    private static CategoryChart errors(Map<String, Long> byKind) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title("Errors by kind")
                .xAxisTitle("kind").yAxisTitle("errors").build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        List<String> kinds = byKind.isEmpty() ? List.of("no errors") : new ArrayList<>(byKind.keySet());
        List<Long> counts = byKind.isEmpty() ? List.of(0L) : new ArrayList<>(byKind.values());
        chart.addSeries("errors", kinds, counts);
        return chart;
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
