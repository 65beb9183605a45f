package io.wharf.loadgen;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

import io.wharf.loadgen.internal.LogMerge;

/**
 * What a {@link LoadGenerator} run measured, warm-up excluded. Latencies are in microseconds,
 * twice over: {@link #corrected()} from each request's intended send time (what a user arriving
 * on schedule would have waited: corrected for coordinated omission) and
 * {@link #uncorrected()} from its actual send (what the server took once the request reached it).
 * Made once at the end of the run; immutable but for the histograms, which are its own copies.
 *
 * @param target the target URI
 * @param protocol the protocol spoken
 * @param model the model
 * @param targetRate the configured rate in iterations per second (open model; 0 for closed)
 * @param achievedRate iterations started per second during the measured part of the run
 * @param intendedIterations iterations the schedule held for the measured part (open model;
 *     for the closed model, the iterations started)
 * @param iterations measured iterations started
 * @param requests measured requests that ended (response or failure)
 * @param errors failures and statuses of 400 or more among them
 * @param errorsByKind the errors by kind: {@code HTTP 503}, or the failure's exception class
 * @param errorExamples the message of the first failure of each exception kind
 * @param elapsed the measured part of the run, from its first intended start to its last end
 * @param corrected the latencies from the intended send time
 * @param uncorrected the latencies from the actual send
 * @param trees the latencies of whole resource trees, from their intended start
 * @param resources the statistics of each resource path, in tree order
 * @param lag how far behind its schedule the generator fell
 * @param intervals the report of each interval of the measured part, in order
 * @param probe what the probe measured on its own connection (no requests when the run had no probe)
 */
public record LoadResult(URI target, Protocol protocol, Model model, double targetRate, double achievedRate,
        long intendedIterations, long iterations, long requests, long errors, Map<String, Long> errorsByKind, Map<String, String> errorExamples,
        Duration elapsed, Histogram corrected, Histogram uncorrected, Histogram trees,
        Map<String, ResourceStatistics> resources, ScheduleLag lag,
        List<LoadListener.IntervalReport> intervals, ResourceStatistics probe) {

    /**
     * Merges the interval logs ({@link LoadGenerator.Builder#intervalLog}) of several generator
     * runs into the result one generator doing all their work would have had (what
     * {@code ./wharf load merge} reports).
     *
     * @throws IllegalArgumentException naming a file that is not a complete interval log
     */
    public static LoadResult merge(List<Path> logs) throws IOException {
        return LogMerge.merge(logs);
    }

    /** @return the corrected latency at {@code percentile} (0 to 100), in microseconds */
    public long correctedMicros(double percentile) {
        return corrected.getValueAtPercentile(percentile);
    }

    /** @return the uncorrected latency at {@code percentile} (0 to 100), in microseconds */
    public long uncorrectedMicros(double percentile) {
        return uncorrected.getValueAtPercentile(percentile);
    }
}
