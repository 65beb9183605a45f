package io.wharf.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;

import io.wharf.loadgen.internal.ReportCharts;

/**
 * The self-contained HTML report of a run: the key numbers, the behind-schedule warning, the
 * errors by kind, a table of the resources, and charts drawn by XChart as inline SVG — latency
 * percentiles over time, the probe's beside the loaders' (with a probe), the percentile
 * distribution on HdrHistogram's log scale (corrected and uncorrected), throughput over time,
 * errors by kind over time. One file, no script, no external resource. Stateless; any thread.
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
        List<ReportCharts.Figure> figures = ReportCharts.figures(result);
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
        ResourceStatistics deliveries = result.resources().get(LoadGenerator.CHAT_DELIVERIES);
        row(html, deliveries != null ? "messages" : "requests", Long.toString(result.requests()));
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
        if (!result.errorsByKind().isEmpty()) {
            errors(html, result);
        }
        if (deliveries != null) {
            html.append(String.format(Locale.ROOT, "<h2>Messages and deliveries</h2>%n<p>%d of %d deliveries received, %d missing;"
                    + " a message's latency is to its last member, a delivery's to its member</p>%n",
                    deliveries.requests() - deliveries.errors(), deliveries.requests(), deliveries.errors()));
            resources(html, "part", "count", result.resources());
        } else if (result.resources().size() > 1) {
            html.append(String.format(Locale.ROOT, "<h2>Resources</h2>%n<p>%d trees, p50 %.3f ms, p99 %.3f ms, max %.3f ms</p>%n",
                    result.trees().getTotalCount(), result.trees().getValueAtPercentile(50) / 1000.0,
                    result.trees().getValueAtPercentile(99) / 1000.0, result.trees().getMaxValue() / 1000.0));
            resources(html, "resource", "requests", result.resources());
        }
        for (int i = 0; i < figures.size(); i++) {
            html.append("<figure id=\"chart-").append(i).append("\">").append(figures.get(i).svg())
                    .append("<figcaption>").append(escape(figures.get(i).caption())).append("</figcaption></figure>\n");
        }
        return html.append("</body></html>\n").toString();
    }

    private static void errors(StringBuilder html, LoadResult result) {
        html.append("<h2>Errors</h2>\n<table><tr><th>kind</th><th>errors</th><th>first message</th></tr>\n");
        result.errorsByKind().forEach((kind, count) -> html.append("<tr><td>").append(escape(kind)).append("</td><td>").append(count)
                .append("</td><td>").append(escape(result.errorExamples().getOrDefault(kind, ""))).append("</td></tr>\n"));
        html.append("</table>\n");
    }

    /**
     * The table of the resources (or of a chat run's parts, {@code what}): their count, errors and
     * corrected latencies (for a sub-resource, from its parent's arrival).
     */
    private static void resources(StringBuilder html, String what, String counted, Map<String, ResourceStatistics> resources) {
        html.append("<table><tr><th>").append(what).append("</th><th>").append(counted).append("</th><th>errors</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th>")
                .append("<th>p99.9 ms</th><th>max ms</th></tr>\n");
        for (ResourceStatistics resource : resources.values()) {
            Histogram latency = resource.latency();
            html.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td>"
                    + "<td>%.3f</td></tr>%n", escape(resource.path()), resource.requests(), resource.errors(),
                    latency.getValueAtPercentile(50) / 1000.0, latency.getValueAtPercentile(90) / 1000.0,
                    latency.getValueAtPercentile(99) / 1000.0, latency.getValueAtPercentile(99.9) / 1000.0, latency.getMaxValue() / 1000.0));
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
