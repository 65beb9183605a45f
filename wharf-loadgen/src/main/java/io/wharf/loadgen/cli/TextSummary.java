package io.wharf.loadgen.cli;

import java.util.Locale;

import org.HdrHistogram.Histogram;

import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.ResourceStatistics;
import io.wharf.loadgen.internal.JsonSummary;

/**
 * The text summary printed at the end of {@code ./wharf load} and {@code ./wharf chat-load}: what
 * was asked and achieved, the errors, a table of latency percentiles corrected and uncorrected
 * side by side, the trees' and each resource's when the run fetched trees (a chat run's
 * deliveries instead), and the behind-schedule warning if any. Stateless.
 */
final class TextSummary {

    private static final double[] PERCENTILES = {50, 75, 90, 99, 99.9, 99.99, 100};

    private TextSummary() {
    }

    static String of(LoadResult result) {
        StringBuilder text = new StringBuilder(2048);
        text.append(String.format(Locale.ROOT, "%s %s, %s model%n", result.target(), result.protocol(),
                result.model().name().toLowerCase(Locale.ROOT)));
        if (result.targetRate() > 0) {
            text.append(String.format(Locale.ROOT, "  rate: %.1f/s asked, %.1f/s achieved; %d of %d scheduled iterations started%n",
                    result.targetRate(), result.achievedRate(), result.iterations(), result.intendedIterations()));
        } else {
            text.append(String.format(Locale.ROOT, "  rate: %.1f iterations/s achieved%n", result.achievedRate()));
        }
        ResourceStatistics deliveries = result.resources().get(LoadGenerator.CHAT_DELIVERIES);
        text.append(String.format(Locale.ROOT, "  %d %s in %.2f s, %d errors%s%n", result.requests(), deliveries != null ? "messages" : "requests",
                result.elapsed().toNanos() / 1e9, result.errors(), deliveries != null ? "; a message's latency: to its last member" : ""));
        result.errorsByKind().forEach((kind, count) -> text.append(String.format(Locale.ROOT, "    %-40s %d%s%n", kind, count,
                result.errorExamples().containsKey(kind) ? "  (first: " + result.errorExamples().get(kind) + ")" : "")));
        text.append(String.format(Locale.ROOT, "  latency (ms)   %12s %12s%n", "corrected", "uncorrected"));
        for (double percentile : PERCENTILES) {
            text.append(String.format(Locale.ROOT, "    %-12s %12.3f %12.3f%n", percentile == 100 ? "max" : "p" + JsonSummary.label(percentile),
                    millis(result.corrected(), percentile), millis(result.uncorrected(), percentile)));
        }
        if (deliveries != null) {
            text.append(String.format(Locale.ROOT, "  deliveries: %d of %d received, %d missing; each member's, corrected: p50 %.3f ms,"
                    + " p99 %.3f ms, max %.3f ms%n", deliveries.requests() - deliveries.errors(), deliveries.requests(), deliveries.errors(),
                    millis(deliveries.latency(), 50), millis(deliveries.latency(), 99), deliveries.latency().getMaxValue() / 1000.0));
        } else if (result.resources().size() > 1) {
            text.append(String.format(Locale.ROOT, "  trees: %d, p50 %.3f ms, p99 %.3f ms%n", result.trees().getTotalCount(),
                    millis(result.trees(), 50), millis(result.trees(), 99)));
            text.append(String.format(Locale.ROOT, "  %-40s %9s %7s %10s %10s%n", "resource", "requests", "errors", "p50 ms", "p99 ms"));
            for (ResourceStatistics resource : result.resources().values()) {
                text.append(String.format(Locale.ROOT, "  %-40s %9d %7d %10.3f %10.3f%n", resource.path(), resource.requests(),
                        resource.errors(), millis(resource.latency(), 50), millis(resource.latency(), 99)));
            }
        }
        if (result.probe().requests() > 0) {
            Histogram probe = result.probe().latency();
            text.append(String.format(Locale.ROOT, "  probe (own connection): %d requests, %d errors, p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms%n",
                    result.probe().requests(), result.probe().errors(), millis(probe, 50), millis(probe, 99), millis(probe, 99.9),
                    probe.getMaxValue() / 1000.0));
        }
        if (result.lag().isBehind()) {
            text.append(result.lag().warning()).append(System.lineSeparator());
        }
        return text.toString();
    }

    private static double millis(Histogram histogram, double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }
}
