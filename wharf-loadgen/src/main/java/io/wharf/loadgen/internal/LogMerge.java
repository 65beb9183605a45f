package io.wharf.loadgen.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import io.wharf.loadgen.LoadListener;
import io.wharf.loadgen.LoadListener.Percentiles;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Model;
import io.wharf.loadgen.Protocol;
import io.wharf.loadgen.ResourceStatistics;
import io.wharf.loadgen.ScheduleLag;

/**
 * Merges the interval logs that several generator processes wrote (each with {@code --log})
 * into one {@link LoadResult}, as one process doing all their work would have reported it: the
 * histograms of every tag summed (latencies, trees, the probe's, each resource's); for the
 * timeline, interval by interval on the wall clock (each log's intervals in order from the one its
 * first interval started in, at the median interval length), their latencies and their interval
 * lines' requests, errors by kind, requests in flight and lateness; and the summaries on their
 * last comment lines added up — rates, counts, errors by kind, each resource's and the probe's
 * counts, lateness. Stateless; any thread. A file that
 * is not such a log fails with an {@link IllegalArgumentException} naming it.
 */
public final class LogMerge {

    private LogMerge() {
    }

    /** @return the merged result of {@code logs} */
    public static LoadResult merge(List<Path> logs) throws IOException {
        if (logs.isEmpty()) {
            throw new IllegalArgumentException("no interval log to merge");
        }
        Totals totals = new Totals();
        List<List<Map<?, ?>>> lines = new ArrayList<>();
        for (Path log : logs) {
            List<Map<?, ?>> intervalLines = new ArrayList<>();
            totals.add(log, commentLines(log, intervalLines));
            lines.add(intervalLines);
        }
        long intervalMillis = typicalLength(lines);
        long firstStart = lines.stream().mapToLong(intervalLines -> millis(intervalLines.get(0), "startMillis")).min().orElseThrow();
        // The k-th interval of a log falls on the wall clock's interval that its first one fell on, plus k.
        Map<Long, Interval> byStart = new TreeMap<>();
        Histograms sums = new Histograms();
        for (int i = 0; i < logs.size(); i++) {
            List<Map<?, ?>> intervalLines = lines.get(i);
            long offset = Math.round((double) (millis(intervalLines.get(0), "startMillis") - firstStart) / intervalMillis);
            TreeMap<Long, Interval> ofThisLog = new TreeMap<>();
            for (int k = 0; k < intervalLines.size(); k++) {
                Interval interval = byStart.computeIfAbsent(offset + k, key -> new Interval());
                interval.add(intervalLines.get(k));
                ofThisLog.put(millis(intervalLines.get(k), "startMillis"), interval);
            }
            try (InputStream in = Files.newInputStream(logs.get(i))) {
                HistogramLogReader reader = new HistogramLogReader(in);
                for (EncodableHistogram read; (read = reader.nextIntervalHistogram()) != null; ) {
                    Histogram histogram = (Histogram) read;
                    // The log's seconds with 3 decimals may come back a millisecond short.
                    Map.Entry<Long, Interval> interval = ofThisLog.floorEntry(histogram.getStartTimeStamp() + 1);
                    sums.add(histogram, interval == null ? null : interval.getValue());
                }
            }
        }
        List<LoadListener.IntervalReport> intervals = timeline(byStart, intervalMillis);
        Duration elapsed = Duration.ofMillis(intervalMillis * intervals.size());
        double achieved = elapsed.isZero() ? 0 : totals.iterations * 1000.0 / elapsed.toMillis();
        ScheduleLag lag = new ScheduleLag(Duration.ofNanos(totals.thresholdMicros * 1000), Duration.ofNanos(totals.senderLagMicros * 1000),
                Duration.ofNanos(totals.queueLagMicros * 1000), totals.late, totals.iterations);
        Map<String, ResourceStatistics> resources = new LinkedHashMap<>();
        totals.resources.forEach((name, counts) -> resources.put(name, new ResourceStatistics(name, counts[0], counts[1],
                sums.resources.getOrDefault(name, new Histogram(3)))));
        String root = resources.isEmpty() ? "/" : resources.keySet().iterator().next();
        return new LoadResult(totals.target, totals.protocol, totals.model, totals.targetRate, achieved, totals.intended, totals.iterations,
                totals.requests, totals.errors, totals.errorsByKind, totals.errorExamples, elapsed, sums.corrected, sums.uncorrected,
                sums.trees, resources, lag, intervals, new ResourceStatistics(root, totals.probeRequests, totals.probeErrors, sums.probe));
    }

    /** @return the median length of the logs' intervals, in ms: the report interval, which a late timer or the last interval only stretches or cuts */
    private static long typicalLength(List<List<Map<?, ?>>> lines) {
        long[] lengths = lines.stream().flatMap(List::stream)
                .mapToLong(line -> millis(line, "endMillis") - millis(line, "startMillis")).sorted().toArray();
        return Math.max(1, lengths[lengths.length / 2]);
    }

    /** The intervals of the measured part: from the first to the last with a request. */
    private static List<LoadListener.IntervalReport> timeline(Map<Long, Interval> byStart, long intervalMillis) {
        List<Interval> all = new ArrayList<>(byStart.values());
        int first = 0;
        while (first < all.size() && all.get(first).requests == 0) {
            first++;
        }
        int last = all.size() - 1;
        while (last >= first && all.get(last).requests == 0) {
            last--;
        }
        List<LoadListener.IntervalReport> reports = new ArrayList<>();
        long errors = 0;
        for (int i = first; i <= last; i++) {
            Interval interval = all.get(i);
            long intervalErrors = interval.errorsByKind.values().stream().mapToLong(Long::longValue).sum();
            errors += intervalErrors;
            reports.add(new LoadListener.IntervalReport(Duration.ofMillis((i - first + 1) * intervalMillis), interval.requests,
                    interval.requests * 1000.0 / Math.max(1, interval.lengthMillis), interval.inFlight, errors, intervalErrors,
                    interval.errorsByKind, Percentiles.of(interval.corrected), Percentiles.of(interval.uncorrected),
                    interval.probe.getTotalCount() == 0 ? Optional.empty() : Optional.of(Percentiles.of(interval.probe)),
                    Duration.ofNanos(interval.behindMicros * 1000)));
        }
        return reports;
    }

    /**
     * Reads the log's comment lines: adds its interval lines to {@code intervals} and returns the
     * summary a run left on its last line.
     */
    private static Map<?, ?> commentLines(Path log, List<Map<?, ?>> intervals) throws IOException {
        Map<?, ?> summary = null;
        int found = 0;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith(IntervalReporter.INTERVAL_PREFIX)) {
                intervals.add(json(log, line.substring(IntervalReporter.INTERVAL_PREFIX.length()), "an interval line"));
                found++;
            } else if (line.startsWith(IntervalReporter.SUMMARY_PREFIX)) {
                summary = json(log, line.substring(IntervalReporter.SUMMARY_PREFIX.length()), "its summary line");
            }
        }
        if (summary == null) {
            throw new IllegalArgumentException(log + " is not a complete wharf-loadgen interval log (no summary line: was the run cut short?)");
        }
        if (found == 0) {
            throw new IllegalArgumentException(log + " has no interval lines (" + IntervalReporter.INTERVAL_PREFIX.strip()
                    + "): an older wharf-loadgen wrote it");
        }
        return summary;
    }

    private static final String[] INTERVAL_NUMBERS = {"startMillis", "endMillis", "requests", "inFlight", "behindMicros"};

    private static Map<?, ?> json(Path log, String text, String what) {
        try {
            Map<?, ?> object = (Map<?, ?>) JsonReader.read(text);
            if (what.startsWith("an interval")) {
                for (String name : INTERVAL_NUMBERS) {
                    Totals.number(object, name);
                }
                if (!(object.get("errors") instanceof Map<?, ?> errors) || !errors.values().stream().allMatch(Double.class::isInstance)) {
                    throw new IllegalArgumentException("no counts \"errors\"");
                }
            }
            return object;
        } catch (IllegalArgumentException | ClassCastException x) {
            throw new IllegalArgumentException(log + ": " + what + " is damaged: " + x.getMessage(), x);
        }
    }

    private static long millis(Map<?, ?> line, String name) {
        return ((Double) line.get(name)).longValue();
    }

    /** What the logs say of one interval of the wall clock. */
    private static final class Interval {
        final Histogram corrected = new Histogram(3);
        final Histogram uncorrected = new Histogram(3);
        final Histogram probe = new Histogram(3);
        final Map<String, Long> errorsByKind = new TreeMap<>();
        long requests;
        long inFlight;
        long behindMicros;
        long lengthMillis;

        void add(Map<?, ?> line) {
            requests += (long) Totals.number(line, "requests");
            inFlight += (long) Totals.number(line, "inFlight");
            behindMicros = Math.max(behindMicros, (long) Totals.number(line, "behindMicros"));
            lengthMillis = Math.max(lengthMillis, millis(line, "endMillis") - millis(line, "startMillis"));
            Totals.addCounts(line.get("errors"), errorsByKind);
        }
    }

    /** The sums of the logs' histograms, by tag. */
    private static final class Histograms {
        final Histogram corrected = new Histogram(3);
        final Histogram uncorrected = new Histogram(3);
        final Histogram trees = new Histogram(3);
        final Histogram probe = new Histogram(3);
        final Map<String, Histogram> resources = new LinkedHashMap<>();

        /** Adds {@code histogram} to the sum of its tag, and to {@code interval}'s (if any) when the timeline charts it; other tags are skipped. */
        void add(Histogram histogram, Interval interval) {
            String tag = String.valueOf(histogram.getTag());
            String resource = LogTags.resourceName(tag);
            if (resource != null) {
                resources.computeIfAbsent(resource, key -> new Histogram(3)).add(histogram);
                return;
            }
            switch (tag) {
                case LogTags.CORRECTED -> add(histogram, corrected, interval == null ? null : interval.corrected);
                case LogTags.UNCORRECTED -> add(histogram, uncorrected, interval == null ? null : interval.uncorrected);
                case LogTags.PROBE -> add(histogram, probe, interval == null ? null : interval.probe);
                case LogTags.TREES -> trees.add(histogram);
                default -> {
                }
            }
        }

        private static void add(Histogram histogram, Histogram sum, Histogram intervalSum) {
            sum.add(histogram);
            if (intervalSum != null) {
                intervalSum.add(histogram);
            }
        }
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
        long probeRequests;
        long probeErrors;
        final Map<String, Long> errorsByKind = new TreeMap<>();
        final Map<String, String> errorExamples = new TreeMap<>();
        /** Each resource's requests and errors, by name in the order first seen. */
        final Map<String, long[]> resources = new LinkedHashMap<>();

        void add(Path log, Map<?, ?> summary) {
            try {
                if (target == null) {
                    target = URI.create((String) summary.get("target"));
                    protocol = Protocol.of((String) summary.get("protocol"));
                    model = Model.valueOf(((String) summary.get("model")).toUpperCase(Locale.ROOT));
                }
                targetRate += number(summary, "targetRate");
                intended += (long) number(summary, "intendedIterations");
                iterations += (long) number(summary, "iterations");
                requests += (long) number(summary, "requests");
                errors += (long) number(summary, "errors");
                addCounts(summary.get("errorsByKind"), errorsByKind);
                ((Map<?, ?>) summary.get("errorExamples")).forEach((kind, text) -> errorExamples.putIfAbsent((String) kind, (String) text));
                for (Object item : (List<?>) summary.get("resources")) {
                    Map<?, ?> resource = (Map<?, ?>) item;
                    long[] counts = resources.computeIfAbsent((String) resource.get("path"), key -> new long[2]);
                    counts[0] += (long) number(resource, "requests");
                    counts[1] += (long) number(resource, "errors");
                }
                Map<?, ?> probe = (Map<?, ?>) summary.get("probe");
                probeRequests += (long) number(probe, "requests");
                probeErrors += (long) number(probe, "errors");
                Map<?, ?> behind = (Map<?, ?>) summary.get("behindSchedule");
                late += (long) number(behind, "lateRequests");
                thresholdMicros = Math.max(thresholdMicros, (long) number(behind, "thresholdMicros"));
                senderLagMicros = Math.max(senderLagMicros, (long) number(behind, "maxSenderLagMicros"));
                queueLagMicros = Math.max(queueLagMicros, (long) number(behind, "maxQueueLagMicros"));
            } catch (RuntimeException x) {
                throw new IllegalArgumentException(log + ": its summary line lacks a field or has a wrong one: " + x, x);
            }
        }

        /** Adds the counts of a JSON object of counts by kind to {@code sums}. */
        static void addCounts(Object counts, Map<String, Long> sums) {
            ((Map<?, ?>) counts).forEach((kind, count) -> sums.merge((String) kind, ((Double) count).longValue(), Long::sum));
        }

        static double number(Map<?, ?> object, String name) {
            if (!(object.get(name) instanceof Double value)) {
                throw new IllegalArgumentException("no number \"" + name + "\"");
            }
            return value;
        }
    }
}
