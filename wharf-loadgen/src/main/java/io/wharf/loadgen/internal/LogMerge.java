package io.wharf.loadgen.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import io.wharf.loadgen.LoadListener;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Model;
import io.wharf.loadgen.Protocol;
import io.wharf.loadgen.ResourceStatistics;
import io.wharf.loadgen.ScheduleLag;

/**
 * Merges the interval logs that several generator processes wrote (each with {@code --log})
 * into one {@link LoadResult}: their corrected and uncorrected histograms summed, interval by
 * interval on the wall clock (intervals starting within the same interval length fall
 * together), and the summaries on their last comment lines added up — rates, counts, errors by
 * kind, lateness. Resource, tree and probe statistics are not in the logs and stay empty. Stateless;
 * any thread. A file that is not such a log fails with an {@link IllegalArgumentException}
 * naming it.
 */
public final class LogMerge {

    private LogMerge() {
    }

    /** @return the merged result of {@code logs} */
    public static LoadResult merge(List<Path> logs) throws IOException {
        if (logs.isEmpty()) {
            throw new IllegalArgumentException("no interval log to merge");
        }
        Histogram corrected = new Histogram(3);
        Histogram uncorrected = new Histogram(3);
        Map<Long, Histogram[]> byStart = new TreeMap<>();
        long intervalMillis = 0;
        Totals totals = new Totals();
        for (Path log : logs) {
            totals.add(log, summary(log));
            try (InputStream in = Files.newInputStream(log)) {
                HistogramLogReader reader = new HistogramLogReader(in);
                for (EncodableHistogram read; (read = reader.nextIntervalHistogram()) != null; ) {
                    Histogram interval = (Histogram) read;
                    if (intervalMillis == 0) {
                        intervalMillis = Math.max(1, interval.getEndTimeStamp() - interval.getStartTimeStamp());
                    }
                    boolean isCorrected = IntervalReporter.CORRECTED.equals(interval.getTag());
                    (isCorrected ? corrected : uncorrected).add(interval);
                    Histogram[] pair = byStart.computeIfAbsent(Math.round((double) interval.getStartTimeStamp() / intervalMillis),
                            key -> new Histogram[] {new Histogram(3), new Histogram(3)});
                    pair[isCorrected ? 0 : 1].add(interval);
                }
            }
        }
        List<LoadListener.IntervalReport> intervals = timeline(byStart, intervalMillis);
        Duration elapsed = Duration.ofMillis(intervalMillis * intervals.size());
        double achieved = elapsed.isZero() ? 0 : totals.iterations * 1000.0 / elapsed.toMillis();
        ScheduleLag lag = new ScheduleLag(Duration.ofNanos(totals.thresholdMicros * 1000), Duration.ofNanos(totals.senderLagMicros * 1000),
                Duration.ofNanos(totals.queueLagMicros * 1000), totals.late, totals.iterations);
        return new LoadResult(totals.target, totals.protocol, totals.model, totals.targetRate, achieved, totals.intended, totals.iterations,
                totals.requests, totals.errors, totals.errorsByKind, totals.errorExamples, elapsed, corrected, uncorrected, new Histogram(3),
                Map.of(), lag, intervals, new ResourceStatistics("/", 0, 0, new Histogram(3)));
    }

    /** The intervals of the measured part: from the first to the last with a response. */
    private static List<LoadListener.IntervalReport> timeline(Map<Long, Histogram[]> byStart, long intervalMillis) {
        List<Histogram[]> pairs = new ArrayList<>(byStart.values());
        int first = 0;
        while (first < pairs.size() && pairs.get(first)[0].getTotalCount() == 0) {
            first++;
        }
        int last = pairs.size() - 1;
        while (last >= first && pairs.get(last)[0].getTotalCount() == 0) {
            last--;
        }
        List<LoadListener.IntervalReport> reports = new ArrayList<>();
        for (int i = first; i <= last; i++) {
            Histogram[] pair = pairs.get(i);
            long count = pair[0].getTotalCount();
            reports.add(new LoadListener.IntervalReport(Duration.ofMillis((i - first + 1) * intervalMillis), count,
                    count * 1000.0 / intervalMillis, 0, 0, 0, percentiles(pair[0]), percentiles(pair[1]), Duration.ZERO));
        }
        return reports;
    }

    private static LoadListener.Percentiles percentiles(Histogram histogram) {
        return new LoadListener.Percentiles(histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90),
                histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue());
    }

    /** @return the summary a run left on the log's comment line */
    private static Map<?, ?> summary(Path log) throws IOException {
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith(IntervalReporter.SUMMARY_PREFIX)) {
                try {
                    return (Map<?, ?>) JsonReader.read(line.substring(IntervalReporter.SUMMARY_PREFIX.length()));
                } catch (IllegalArgumentException | ClassCastException x) {
                    throw new IllegalArgumentException(log + ": its summary line is damaged: " + x.getMessage(), x);
                }
            }
        }
        throw new IllegalArgumentException(log + " is not a complete wharf-loadgen interval log (no summary line: was the run cut short?)");
    }

    /** The sums of the logs' summaries. */
    private static final class Totals {
        URI target;
        Protocol protocol;
        Model model;
        double targetRate;
        long intended;
        long iterations;
        long requests;
        long errors;
        long late;
        long thresholdMicros;
        long senderLagMicros;
        long queueLagMicros;
        final Map<String, Long> errorsByKind = new TreeMap<>();
        final Map<String, String> errorExamples = new TreeMap<>();

        void add(Path log, Map<?, ?> summary) {
            try {
                if (target == null) {
                    target = URI.create((String) summary.get("target"));
                    protocol = Protocol.of((String) summary.get("protocol"));
                    model = Model.valueOf(((String) summary.get("model")).toUpperCase(java.util.Locale.ROOT));
                }
                targetRate += number(summary, "targetRate");
                intended += (long) number(summary, "intendedIterations");
                iterations += (long) number(summary, "iterations");
                requests += (long) number(summary, "requests");
                errors += (long) number(summary, "errors");
                ((Map<?, ?>) summary.get("errorsByKind")).forEach((kind, count) ->
                        errorsByKind.merge((String) kind, ((Double) count).longValue(), Long::sum));
                ((Map<?, ?>) summary.get("errorExamples")).forEach((kind, text) -> errorExamples.putIfAbsent((String) kind, (String) text));
                Map<?, ?> behind = (Map<?, ?>) summary.get("behindSchedule");
                late += (long) number(behind, "lateRequests");
                thresholdMicros = Math.max(thresholdMicros, (long) number(behind, "thresholdMicros"));
                senderLagMicros = Math.max(senderLagMicros, (long) number(behind, "maxSenderLagMicros"));
                queueLagMicros = Math.max(queueLagMicros, (long) number(behind, "maxQueueLagMicros"));
            } catch (RuntimeException x) {
                throw new IllegalArgumentException(log + ": its summary line lacks a field or has a wrong one: " + x, x);
            }
        }

        private static double number(Map<?, ?> object, String name) {
            if (!(object.get(name) instanceof Double value)) {
                throw new IllegalArgumentException("no number \"" + name + "\"");
            }
            return value;
        }
    }
}
