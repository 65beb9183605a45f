package io.wharf.loadgen;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

/**
 * Hears the events of a {@link LoadGenerator} run: each request handed to the client, each
 * response (or failure), each resource tree fetched, and each reporting interval.
 *
 * <p><b>Threads.</b> {@link #onRequest} runs on a sending thread of the generator (open model) or a
 * client thread (closed model, sub-resources); {@link #onResponse} and {@link #onTree} run on the
 * client's threads, usually a selector thread; {@link #onInterval} runs on the generator's
 * reporting thread. None may block: a slow listener slows the generator, which then reports
 * itself behind its schedule. One that throws is logged; the run and its reports go on.
 * Warm-up iterations are told too, marked as such.
 *
 * <p><b>Chat runs</b> ({@link LoadGenerator#chat}): each message is one request, one response (when
 * its last member heard it, or it failed; status 0, failure null on success) and one tree, all with
 * the resource {@link LoadGenerator#CHAT_MESSAGES}.
 */
public interface LoadListener {

    /** A request is handed to the client now. */
    default void onRequest(RequestEvent event) {
    }

    /** A response arrived whole, or the exchange failed. */
    default void onResponse(ResponseEvent event) {
    }

    /** Every resource of a tree arrived (or failed). */
    default void onTree(TreeEvent event) {
    }

    /** A reporting interval ended (once a second by default) and at the end of the run. */
    default void onInterval(IntervalReport report) {
    }

    /**
     * A request handed to the client.
     *
     * @param resource what is requested
     * @param intendedNanos when it should have been sent, on {@link System#nanoTime()}'s scale
     * @param warmup whether it belongs to a warm-up iteration (not counted in the results)
     */
    record RequestEvent(Resource resource, long intendedNanos, boolean warmup) {
    }

    /**
     * How one request ended.
     *
     * @param resource what was requested
     * @param status the response's status, or 0 when no response came (always 0 for a chat message)
     * @param failure why the exchange failed, or null
     * @param correctedMicros from the intended send time to the end of the response
     * @param uncorrectedMicros from the actual send (the request got its connection) to the end
     *     of the response; -1 when it never got one
     * @param warmup whether it belongs to a warm-up iteration
     */
    record ResponseEvent(Resource resource, int status, Throwable failure, long correctedMicros, long uncorrectedMicros,
            boolean warmup) {
    }

    /**
     * A whole tree fetched.
     *
     * @param root the tree
     * @param latencyMicros from the intended start of the iteration to the end of its last response
     * @param failures how many of its requests failed or were answered with a status of 400 or more
     * @param warmup whether it was a warm-up iteration
     */
    record TreeEvent(Resource root, long latencyMicros, int failures, boolean warmup) {
    }

    /**
     * What one reporting interval measured (warm-up excluded); latencies in microseconds, 0 when
     * the interval had no response.
     *
     * @param elapsed since the measured part of the run began, at the end of this interval
     * @param requests responses and failures in this interval
     * @param rate of those, per second
     * @param inFlight requests handed to the client and not yet over, at the end of the interval
     * @param errors failures and error statuses since the start
     * @param intervalErrors failures and error statuses in this interval
     * @param intervalErrorsByKind those by kind ({@code HTTP 503}, or the failure's exception
     *     class), sorted by kind; empty when there were none
     * @param corrected the interval's percentiles corrected for coordinated omission
     * @param uncorrected the interval's percentiles from the actual send
     * @param probe the percentiles of the probe's responses in this interval (corrected, on its
     *     own connection); empty when the run has no probe or it had no response in the interval
     * @param behind how far behind its schedule the generator was at worst in this interval
     *     (zero when it kept up within the threshold)
     */
    record IntervalReport(Duration elapsed, long requests, double rate, long inFlight, long errors, long intervalErrors,
            Map<String, Long> intervalErrorsByKind, Percentiles corrected, Percentiles uncorrected, Optional<Percentiles> probe,
            Duration behind) {

        public IntervalReport {
            intervalErrorsByKind = Collections.unmodifiableMap(new TreeMap<>(intervalErrorsByKind));
            Objects.requireNonNull(probe, "probe");
        }

        /** @return the interval's corrected median, in µs */
        public long p50Micros() {
            return corrected.p50();
        }

        /** @return the interval's corrected 99th percentile, in µs */
        public long p99Micros() {
            return corrected.p99();
        }
    }

    /** Latency percentiles of an interval, in microseconds. */
    record Percentiles(long p50, long p90, long p99, long p999, long max) {

        /** @return the percentiles of {@code histogram} (all 0 when it is empty) */
        public static Percentiles of(Histogram histogram) {
            return new Percentiles(histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90),
                    histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue());
        }
    }
}
