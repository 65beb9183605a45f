package io.wharf.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.wharf.loadgen.internal.ReportCharts;

/**
 * The self-contained HTML report of a run: the key numbers, the behind-schedule warning, the
 * resources, and four charts drawn by XChart as inline SVG — latency percentiles over time,
 * the percentile distribution on HdrHistogram's log scale (corrected and uncorrected), throughput
 * over time, errors by kind. One file, no script, no external resource. Stateless; any thread.
 */
public final class HtmlReport {

    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    private HtmlReport() {
    }

    /** Writes the report of {@code result} to {@code file}. */
    public static void write(LoadResult result, Path file) throws IOException {
        Files.writeString(file, of(result), StandardCharsets.UTF_8);
    }

    /** @return the report of {@code result} as one HTML page */
    public static String of(LoadResult result) {
        List<String> charts = ReportCharts.svg(result);
        StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Load report: ")
                .append(escape(result.target().toString())).append("</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em;max-width:960px}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}th{background:#eee}")
                .append(".warning{color:#a00;font-weight:bold}figure{margin:1.5em 0}</style></head><body>\n");
        html.append("<h1>Load report</h1>\n<p>").append(escape(result.target().toString())).append(", ")
                .append(result.protocol()).append(", ").append(result.model().name().toLowerCase(Locale.ROOT)).append(" model</p>\n");
        html.append("<table>\n");
        row(html, "target rate", result.targetRate() > 0 ? String.format(Locale.ROOT, "%.1f/s", result.targetRate()) : "none (closed)");
        row(html, "achieved rate", String.format(Locale.ROOT, "%.1f/s", result.achievedRate()));
        row(html, "iterations started / scheduled", result.iterations() + " / " + result.intendedIterations());
        row(html, "requests", Long.toString(result.requests()));
        row(html, "errors", Long.toString(result.errors()));
        row(html, "measured for", String.format(Locale.ROOT, "%.2f s", result.elapsed().toNanos() / 1e9));
        if (result.probe().requests() > 0) {
            row(html, "probe p50 / p99 / max (own connection)", String.format(Locale.ROOT, "%.3f / %.3f / %.3f ms",
                    result.probe().latency().getValueAtPercentile(50) / 1000.0, result.probe().latency().getValueAtPercentile(99) / 1000.0,
                    result.probe().latency().getMaxValue() / 1000.0));
        }
        html.append("</table>\n");
        if (result.lag().isBehind()) {
            html.append("<p class=\"warning\">").append(escape(result.lag().warning())).append("</p>\n");
        }
        html.append("<h2>Latency (ms)</h2>\n<table><tr><th>percentile</th><th>corrected</th><th>uncorrected</th></tr>\n");
        for (double percentile : PERCENTILES) {
            html.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%.3f</td><td>%.3f</td></tr>%n", percentile,
                    result.correctedMicros(percentile) / 1000.0, result.uncorrectedMicros(percentile) / 1000.0));
        }
        html.append(String.format(Locale.ROOT, "<tr><td>max</td><td>%.3f</td><td>%.3f</td></tr>%n</table>%n",
                result.corrected().getMaxValue() / 1000.0, result.uncorrected().getMaxValue() / 1000.0));
        if (result.resources().size() > 1) {
            resources(html, result.resources());
        }
        String[] captions = {"Latency percentiles over time", "Latency by percentile", "Throughput over time", "Errors by kind"};
        for (int i = 0; i < charts.size(); i++) {
            html.append("<figure id=\"chart-").append(i).append("\">").append(charts.get(i))
                    .append("<figcaption>").append(captions[i]).append("</figcaption></figure>\n");
        }
        return html.append("</body></html>\n").toString();
    }

    private static void resources(StringBuilder html, Map<String, ResourceStatistics> resources) {
        html.append("<h2>Resources</h2>\n<table><tr><th>resource</th><th>requests</th><th>errors</th><th>p50 ms</th><th>p99 ms</th></tr>\n");
        for (ResourceStatistics resource : resources.values()) {
            html.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%.3f</td><td>%.3f</td></tr>%n",
                    escape(resource.path()), resource.requests(), resource.errors(),
                    resource.latency().getValueAtPercentile(50) / 1000.0, resource.latency().getValueAtPercentile(99) / 1000.0));
        }
        html.append("</table>\n");
    }

    private static void row(StringBuilder html, String name, String value) {
        html.append("<tr><th>").append(name).append("</th><td>").append(escape(value)).append("</td></tr>\n");
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
