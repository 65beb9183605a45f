package io.wharf.loadgen.internal;

import java.util.Locale;
import java.util.Map;

import org.HdrHistogram.Histogram;

import io.wharf.loadgen.LoadListener;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.ResourceStatistics;
import io.wharf.loadgen.ScheduleLag;

/**
 * The JSON summary of a run ({@code --json FILE}): the target and achieved rates, counts, errors
 * by kind, corrected and uncorrected latency percentiles in microseconds, the trees' and each
 * resource's latencies, and how far behind its schedule the generator fell. One object, keys
 * in a fixed order; strings escaped as RFC 8259 says. Also the one line of JSON each interval
 * of the interval log ends with ({@link #interval}): all the JSON the generator writes is
 * written here, and {@link LogMerge} reads both back. Stateless.
 */
public final class JsonSummary {

    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    private JsonSummary() {
    }

    public static String of(LoadResult result) {
        StringBuilder json = new StringBuilder(1024).append("{\n");
        field(json, "target", string(result.target().toString()));
        field(json, "protocol", string(result.protocol().token()));
        field(json, "model", string(result.model().name().toLowerCase(Locale.ROOT)));
        field(json, "targetRate", number(result.targetRate()));
        field(json, "achievedRate", number(result.achievedRate()));
        field(json, "intendedIterations", Long.toString(result.intendedIterations()));
        field(json, "iterations", Long.toString(result.iterations()));
        field(json, "requests", Long.toString(result.requests()));
        field(json, "errors", Long.toString(result.errors()));
        field(json, "errorsByKind", counts(result.errorsByKind()));
        field(json, "errorExamples", texts(result.errorExamples()));
        field(json, "elapsedMillis", Long.toString(result.elapsed().toMillis()));
        field(json, "latencyMicros", "{\"corrected\": " + percentiles(result.corrected())
                + ", \"uncorrected\": " + percentiles(result.uncorrected()) + "}");
        field(json, "treeLatencyMicros", percentiles(result.trees()));
        field(json, "resources", resources(result.resources()));
        field(json, "probe", "{\"requests\": " + result.probe().requests() + ", \"errors\": " + result.probe().errors()
                + ", \"latencyMicros\": " + percentiles(result.probe().latency()) + "}");
        json.append("  \"behindSchedule\": ").append(lag(result.lag())).append("\n}\n");
        return json.toString();
    }

    /**
     * @return the counts of one interval that a histogram cannot hold, as one line: its start and
     *     end on the wall clock, its requests, errors by kind, requests in flight at its end and
     *     the generator's worst lateness in it
     */
    static String interval(long startMillis, long endMillis, LoadListener.IntervalReport report) {
        return "{\"startMillis\": " + startMillis + ", \"endMillis\": " + endMillis + ", \"requests\": " + report.requests()
                + ", \"errors\": " + counts(report.intervalErrorsByKind()) + ", \"inFlight\": " + report.inFlight()
                + ", \"behindMicros\": " + report.behind().toNanos() / 1000 + "}";
    }

    private static void field(StringBuilder json, String name, String value) {
        json.append("  ").append(string(name)).append(": ").append(value).append(",\n");
    }

    private static String percentiles(Histogram histogram) {
        StringBuilder json = new StringBuilder("{\"count\": ").append(histogram.getTotalCount());
        for (double percentile : PERCENTILES) {
            json.append(", \"p").append(label(percentile)).append("\": ").append(histogram.getValueAtPercentile(percentile));
        }
        json.append(", \"max\": ").append(histogram.getMaxValue());
        json.append(", \"mean\": ").append(number(histogram.getTotalCount() == 0 ? 0 : histogram.getMean()));
        return json.append('}').toString();
    }

    /** @return {@code 50}, {@code 99}, {@code 99.9}: the percentile as a key suffix */
    public static String label(double percentile) {
        return percentile == Math.rint(percentile) ? Long.toString((long) percentile) : Double.toString(percentile);
    }

    private static String resources(Map<String, ResourceStatistics> resources) {
        StringBuilder json = new StringBuilder("[");
        for (ResourceStatistics resource : resources.values()) {
            json.append(json.length() == 1 ? "" : ", ").append("{\"path\": ").append(string(resource.path()))
                    .append(", \"requests\": ").append(resource.requests())
                    .append(", \"errors\": ").append(resource.errors())
                    .append(", \"latencyMicros\": ").append(percentiles(resource.latency())).append('}');
        }
        return json.append(']').toString();
    }

    private static String counts(Map<String, Long> counts) {
        StringBuilder json = new StringBuilder("{");
        counts.forEach((kind, count) -> json.append(json.length() == 1 ? "" : ", ").append(string(kind)).append(": ").append(count));
        return json.append('}').toString();
    }

    private static String texts(Map<String, String> texts) {
        StringBuilder json = new StringBuilder("{");
        texts.forEach((kind, text) -> json.append(json.length() == 1 ? "" : ", ").append(string(kind)).append(": ").append(string(text)));
        return json.append('}').toString();
    }

    private static String lag(ScheduleLag lag) {
        return "{\"behind\": " + lag.isBehind()
                + ", \"lateRequests\": " + lag.lateRequests()
                + ", \"thresholdMicros\": " + lag.threshold().toNanos() / 1000
                + ", \"maxSenderLagMicros\": " + lag.maxSenderLag().toNanos() / 1000
                + ", \"maxQueueLagMicros\": " + lag.maxQueueLag().toNanos() / 1000
                + ", \"warning\": " + string(lag.warning()) + "}";
    }

    private static String number(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : "null";
    }

    static String string(String value) {
        StringBuilder json = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }
}
