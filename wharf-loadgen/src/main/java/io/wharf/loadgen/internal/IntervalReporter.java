package io.wharf.loadgen.internal;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import io.wharf.loadgen.LoadListener;
import io.wharf.loadgen.LoadResult;

/**
 * Closes a reporting interval: takes the latencies recorded since the last one from the
 * {@link Statistics}, writes them to the HdrHistogram interval log (when one is asked for; values
 * in microseconds, tagged {@code corrected} and {@code uncorrected}), adds them to the run's
 * totals and tells the listeners. Called on the generator's reporting thread, once per
 * interval, and once more by the running thread at the end; synchronized, since the two may meet.
 * Keeps the report of each measured interval for the HTML report's charts (a few dozen bytes
 * an interval).
 */
final class IntervalReporter implements AutoCloseable {

    static final String CORRECTED = "corrected";
    static final String UNCORRECTED = "uncorrected";
    static final String SUMMARY_PREFIX = "#[wharf-loadgen summary] ";

    private final Statistics statistics;
    private final LoadEvents events;
    private final HistogramLogWriter log;
    private final Histogram corrected = new Histogram(3);
    private final Histogram uncorrected = new Histogram(3);
    private final List<LoadListener.IntervalReport> timeline = new ArrayList<>();
    private long lastRequests;
    private long lastErrors;
    private long lastNanos;

    IntervalReporter(Settings settings, Statistics statistics, long startNanos) {
        this.statistics = statistics;
        this.events = new LoadEvents(settings.listeners());
        this.lastNanos = startNanos;
        this.log = settings.intervalLog() == null ? null : openLog(settings);
    }

    private static HistogramLogWriter openLog(Settings settings) {
        try {
            HistogramLogWriter writer = new HistogramLogWriter(settings.intervalLog().toFile());
            long now = System.currentTimeMillis();
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
        Histogram intervalCorrected = statistics.takeCorrected();
        Histogram intervalUncorrected = statistics.takeUncorrected();
        corrected.add(intervalCorrected);
        uncorrected.add(intervalUncorrected);
        if (log != null) {
            intervalCorrected.setTag(CORRECTED);
            log.outputIntervalHistogram(intervalCorrected);
            intervalUncorrected.setTag(UNCORRECTED);
            log.outputIntervalHistogram(intervalUncorrected);
        }
        long requests = statistics.requests();
        long errors = statistics.errors();
        double seconds = Math.max(1, now - lastNanos) / 1e9;
        long measuredStart = statistics.measuredStart();
        Duration elapsed = measuredStart == Long.MIN_VALUE ? Duration.ZERO : Duration.ofNanos(Math.max(0, now - measuredStart));
        LoadListener.IntervalReport report = new LoadListener.IntervalReport(elapsed, requests - lastRequests,
                (requests - lastRequests) / seconds, statistics.inFlight(), errors, errors - lastErrors,
                percentiles(intervalCorrected), percentiles(intervalUncorrected), Duration.ofNanos(statistics.takeIntervalLag()));
        if (measuredStart != Long.MIN_VALUE && now > measuredStart) {
            timeline.add(report);
        }
        lastRequests = requests;
        lastErrors = errors;
        lastNanos = now;
        events.interval(report);
    }

    private static LoadListener.Percentiles percentiles(Histogram histogram) {
        return new LoadListener.Percentiles(histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90),
                histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue());
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
