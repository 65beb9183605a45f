package io.wharf.loadgen.internal;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import io.wharf.loadgen.LoadListener;
import io.wharf.loadgen.LoadListener.Percentiles;
import io.wharf.loadgen.LoadResult;

/**
 * Closes a reporting interval: takes the latencies recorded since the last one from the
 * {@link Statistics} (and the {@link Probe}'s), writes them to the HdrHistogram interval log
 * when one is asked for, adds them to the run's totals and tells the listeners. Called on the
 * generator's reporting thread, once per interval, and once more by the running thread at the
 * end; synchronized, since the two may meet. Keeps the report of each measured interval for the
 * HTML report's charts (a few dozen bytes an interval).
 *
 * <p><b>The log.</b> Each interval is a group of lines with the same start and end: histograms
 * in microseconds tagged {@code corrected}, {@code uncorrected}, {@code trees}, {@code probe}
 * (with a probe) and {@code resource:NAME} per resource (see {@link LogTags}), then one comment
 * line {@value #INTERVAL_PREFIX}{@code {"startMillis": ..., "endMillis": ..., "requests": ...,
 * "errors": {"HTTP 503": 2}, "inFlight": ..., "behindMicros": ...}} with the counts that a
 * histogram cannot hold. HdrHistogram's readers skip comment lines; {@link LogMerge} reads them.
 */
final class IntervalReporter implements AutoCloseable {

    static final String SUMMARY_PREFIX = "#[wharf-loadgen summary] ";
    static final String INTERVAL_PREFIX = "#[wharf-loadgen interval] ";

    private final Statistics statistics;
    private final Probe probe;
    private final LoadEvents events;
    private final HistogramLogWriter log;
    private final Histogram corrected = new Histogram(3);
    private final Histogram uncorrected = new Histogram(3);
    private final Histogram trees = new Histogram(3);
    private final Histogram probeLatencies = new Histogram(3);
    private final Map<String, Histogram> resources = new LinkedHashMap<>();
    private final List<LoadListener.IntervalReport> timeline = new ArrayList<>();
    private Map<String, Long> lastErrorsByKind = Map.of();
    private long lastRequests;
    private long lastErrors;
    private long lastNanos;
    private long lastMillis;

    /**
     * @param probe the run's probe, or null
     * @param startNanos when the first interval starts
     */
    IntervalReporter(Settings settings, Statistics statistics, Probe probe, long startNanos) {
        this.statistics = statistics;
        this.probe = probe;
        this.events = new LoadEvents(settings.listeners());
        this.lastNanos = startNanos;
        this.lastMillis = System.currentTimeMillis();
        this.log = settings.intervalLog() == null ? null : openLog(settings, lastMillis);
    }

    private static HistogramLogWriter openLog(Settings settings, long now) {
        try {
            HistogramLogWriter writer = new HistogramLogWriter(settings.intervalLog().toFile());
            writer.outputComment("[wharf-loadgen " + settings.model() + " " + settings.protocol() + " " + settings.target()
                    + " rate=" + settings.rate() + "/s; latencies in microseconds]");
            writer.outputLogFormatVersion();
            writer.outputStartTime(now);
            writer.setBaseTime(now);
            writer.outputLegend();
            return writer;
        } catch (FileNotFoundException x) {
            throw new UncheckedIOException("cannot write the interval log " + settings.intervalLog() + ": " + x.getMessage(), x);
        }
    }

    /** Ends the current interval. */
    synchronized void report() {
        long now = System.nanoTime();
        long nowMillis = Math.max(lastMillis, System.currentTimeMillis());
        Histogram intervalCorrected = statistics.takeCorrected();
        Histogram intervalUncorrected = statistics.takeUncorrected();
        Histogram intervalTrees = statistics.takeTrees();
        Map<String, Histogram> intervalResources = statistics.takeResources();
        Histogram intervalProbe = probe == null ? null : probe.takeLatencies();
        corrected.add(intervalCorrected);
        uncorrected.add(intervalUncorrected);
        trees.add(intervalTrees);
        intervalResources.forEach((name, latencies) -> resources.computeIfAbsent(name, key -> new Histogram(3)).add(latencies));
        if (intervalProbe != null) {
            probeLatencies.add(intervalProbe);
        }
        long requests = statistics.requests();
        long errors = statistics.errors();
        Map<String, Long> errorsByKind = statistics.errorsByKind();
        Map<String, Long> intervalErrorsByKind = new TreeMap<>();
        errorsByKind.forEach((kind, count) -> {
            long since = count - lastErrorsByKind.getOrDefault(kind, 0L);
            if (since > 0) {
                intervalErrorsByKind.put(kind, since);
            }
        });
        double seconds = Math.max(1, now - lastNanos) / 1e9;
        long measuredStart = statistics.measuredStart();
        Duration elapsed = measuredStart == Long.MIN_VALUE ? Duration.ZERO : Duration.ofNanos(Math.max(0, now - measuredStart));
        LoadListener.IntervalReport report = new LoadListener.IntervalReport(elapsed, requests - lastRequests,
                (requests - lastRequests) / seconds, statistics.inFlight(), errors, errors - lastErrors, intervalErrorsByKind,
                Percentiles.of(intervalCorrected), Percentiles.of(intervalUncorrected),
                intervalProbe == null || intervalProbe.getTotalCount() == 0 ? Optional.empty() : Optional.of(Percentiles.of(intervalProbe)),
                Duration.ofNanos(statistics.takeIntervalLag()));
        if (log != null) {
            write(intervalCorrected, LogTags.CORRECTED, nowMillis);
            write(intervalUncorrected, LogTags.UNCORRECTED, nowMillis);
            write(intervalTrees, LogTags.TREES, nowMillis);
            if (intervalProbe != null) {
                write(intervalProbe, LogTags.PROBE, nowMillis);
            }
            intervalResources.forEach((name, latencies) -> write(latencies, LogTags.resource(name), nowMillis));
            log.outputComment(INTERVAL_PREFIX.substring(1) + JsonSummary.interval(lastMillis, nowMillis, report));
        }
        if (measuredStart != Long.MIN_VALUE && now > measuredStart) {
            timeline.add(report);
        }
        lastErrorsByKind = errorsByKind;
        lastRequests = requests;
        lastErrors = errors;
        lastNanos = now;
        lastMillis = nowMillis;
        events.interval(report);
    }

    /** Writes one histogram of the interval, with the interval's own start and end, so that the lines of an interval agree. */
    private void write(Histogram histogram, String tag, long endMillis) {
        histogram.setStartTimeStamp(lastMillis);
        histogram.setEndTimeStamp(endMillis);
        histogram.setTag(tag);
        log.outputIntervalHistogram(histogram);
    }

    /** @return the reports of the measured part's intervals, in order */
    synchronized List<LoadListener.IntervalReport> timeline() {
        return List.copyOf(timeline);
    }

    /** @return a copy of the corrected latencies of every interval so far */
    synchronized Histogram corrected() {
        return corrected.copy();
    }

    /** @return a copy of the uncorrected latencies of every interval so far */
    synchronized Histogram uncorrected() {
        return uncorrected.copy();
    }

    /** @return a copy of the tree latencies of every interval so far */
    synchronized Histogram trees() {
        return trees.copy();
    }

    /** @return a copy of the probe's latencies of every interval so far (none without a probe) */
    synchronized Histogram probe() {
        return probeLatencies.copy();
    }

    /** @return copies of each resource's latencies of every interval so far, by name in tree order */
    synchronized Map<String, Histogram> resources() {
        Map<String, Histogram> copy = new LinkedHashMap<>();
        resources.forEach((name, latencies) -> copy.put(name, latencies.copy()));
        return copy;
    }

    /**
     * Ends the interval log with the run's JSON summary on one comment line
     * ({@value #SUMMARY_PREFIX}...), which readers of the format skip and
     * {@link LogMerge} reads back.
     */
    synchronized void summarize(LoadResult result) {
        if (log != null) {
            log.outputComment(SUMMARY_PREFIX.substring(1) + JsonSummary.of(result).replace("\n", ""));
        }
    }

    @Override
    public synchronized void close() {
        if (log != null) {
            log.close();
        }
    }
}
