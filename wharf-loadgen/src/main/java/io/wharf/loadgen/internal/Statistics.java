package io.wharf.loadgen.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;

import io.wharf.loadgen.ResourceStatistics;

/**
 * The counters of a run's measured part (warm-up is never recorded here): request (exchange),
 * iteration (tree) and per-part (resource, or a chat run's messages and deliveries) latencies in
 * {@link IntervalRecorder}s (in microseconds; requests twice, corrected and uncorrected) that the
 * {@link IntervalReporter} empties once per interval and sums, counts of requests and errors by
 * kind and part, requests in flight (warm-up included, for the drain) and how late the
 * iterations got their connections. Written from the sending threads and the client's threads
 * at once, without locks.
 */
final class Statistics {

    private final long thresholdNanos;
    /**
     * The longest latency recorded as itself, in µs (an hour); a longer one is recorded as this.
     * A fixed range makes the recorders' histograms atomic arrays rather than self-resizing
     * concurrent ones, which took several more atomic operations per value: with four values
     * per request, about 4 % of the generator's CPU samples at 20,000 requests/s.
     */
    static final long MAX_MICROS = TimeUnit.HOURS.toMicros(1);

    private final IntervalRecorder corrected = new IntervalRecorder();
    private final IntervalRecorder uncorrected = new IntervalRecorder();
    private final IntervalRecorder trees = new IntervalRecorder();
    private final Map<String, PathCounters> paths;
    private final Map<String, LongAdder> errorsByKind = new ConcurrentHashMap<>();
    private final Map<String, String> errorExamples = new ConcurrentHashMap<>();
    private final LongAdder requests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder iterations = new LongAdder();
    private final AtomicLong inFlight = new AtomicLong();
    /** Iterations started and not yet ended (warm-up included): the drain waits for these to be counted and told. */
    private final AtomicLong openIterations = new AtomicLong();
    private final AtomicLong measuredStart = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong lastRootBegin = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong lastEnd = new AtomicLong(Long.MIN_VALUE);
    private final LongAdder rootsBegun = new LongAdder();
    private final LongAdder lateRoots = new LongAdder();
    private final AtomicLong maxSenderLag = new AtomicLong();
    private final AtomicLong maxQueueLag = new AtomicLong();
    private final AtomicLong intervalMaxLag = new AtomicLong();

    /**
     * The counters of one part: a resource, by its {@link io.wharf.loadgen.Resource#name()}, or a
     * chat run's messages or deliveries.
     */
    private record PathCounters(IntervalRecorder latency, LongAdder requests, LongAdder errors) {
    }

    /** @param parts the parts of an iteration counted apart (a {@link Scenario}'s), in report order */
    Statistics(List<String> parts, long thresholdNanos) {
        this.thresholdNanos = thresholdNanos;
        Map<String, PathCounters> byPath = new LinkedHashMap<>();
        for (String part : parts) {
            byPath.putIfAbsent(part, new PathCounters(new IntervalRecorder(), new LongAdder(), new LongAdder()));
        }
        this.paths = Collections.unmodifiableMap(byPath);
    }

    /** The measured part begins at {@code nanos}, unless it began earlier. */
    void measuredStart(long nanos) {
        measuredStart.compareAndSet(Long.MIN_VALUE, nanos);
    }

    /** @return when the measured part began, or {@link Long#MIN_VALUE} before it did */
    long measuredStart() {
        return measuredStart.get();
    }

    void requestSent() {
        inFlight.incrementAndGet();
    }

    void requestOver() {
        inFlight.decrementAndGet();
    }

    long inFlight() {
        return inFlight.get();
    }

    void iterationOpened() {
        openIterations.incrementAndGet();
    }

    void iterationClosed() {
        openIterations.decrementAndGet();
    }

    /** @return the iterations started and not yet ended, whose counts and events may still be coming */
    long openIterations() {
        return openIterations.get();
    }

    /** A measured iteration started. */
    void iterationStarted() {
        iterations.increment();
    }

    /**
     * The first request of a measured iteration got its connection.
     *
     * @param intended when the iteration should have started
     * @param dispatched when the sending thread handed it to the client
     * @param began when it got its connection
     */
    void rootBegan(long intended, long dispatched, long began) {
        rootsBegun.increment();
        lastRootBegin.accumulateAndGet(began, Math::max);
        maxSenderLag.accumulateAndGet(dispatched - intended, Math::max);
        maxQueueLag.accumulateAndGet(began - dispatched, Math::max);
        long lag = began - intended;
        if (lag > thresholdNanos) {
            lateRoots.increment();
            intervalMaxLag.accumulateAndGet(lag, Math::max);
        }
    }

    /**
     * A measured request ended.
     *
     * @param name its part: its resource's {@link io.wharf.loadgen.Resource#name()}, or a chat
     *     run's messages
     * @param status its response's status, 0 without one (a chat message has none)
     * @param failure why it failed, or null
     * @param correctedNanos since it should have been sent
     * @param uncorrectedNanos since it got its connection, or a negative value when it never did
     * @param now when it ended
     */
    void requestEnded(String name, int status, Throwable failure, long correctedNanos, long uncorrectedNanos, long now) {
        requests.increment();
        lastEnd.accumulateAndGet(now, Math::max);
        PathCounters counters = paths.get(name);
        counters.requests().increment();
        String kind = failure != null ? failure.getClass().getSimpleName() : status >= 400 ? "HTTP " + status : null;
        if (kind != null) {
            errors.increment();
            counters.errors().increment();
            errorsByKind.computeIfAbsent(kind, k -> new LongAdder()).increment();
            if (failure != null) {
                errorExamples.putIfAbsent(kind, String.valueOf(failure.getMessage()));
            }
        }
        if (kind == null) {
            long correctedMicros = micros(correctedNanos);
            corrected.record(correctedMicros);
            counters.latency().record(correctedMicros);
            if (uncorrectedNanos >= 0) {
                uncorrected.record(micros(uncorrectedNanos));
            }
        }
    }

    /** One measured arrival of {@code part} beside the requests (a chat delivery), {@code correctedNanos} after it was due. */
    void partArrived(String part, long correctedNanos) {
        PathCounters counters = paths.get(part);
        counters.requests().increment();
        counters.latency().record(micros(correctedNanos));
    }

    /** {@code count} measured arrivals of {@code part} that never came: errors of that part. */
    void partMissed(String part, long count) {
        PathCounters counters = paths.get(part);
        counters.requests().add(count);
        counters.errors().add(count);
    }

    /** A measured tree ended, {@code nanos} after it should have started. */
    void treeEnded(long nanos) {
        trees.record(micros(nanos));
    }

    static long micros(long nanos) {
        return Math.min(MAX_MICROS, Math.max(0, TimeUnit.NANOSECONDS.toMicros(nanos)));
    }

    /** @return the corrected latencies since the last call, in µs (for the reporter; valid until its next call) */
    Histogram takeCorrected() {
        return corrected.take();
    }

    /** @return the uncorrected latencies since the last call, in µs (for the reporter; valid until its next call) */
    Histogram takeUncorrected() {
        return uncorrected.take();
    }

    /** @return the worst lateness beyond the threshold since the last call, in ns (0 if none) */
    long takeIntervalLag() {
        return intervalMaxLag.getAndSet(0);
    }

    long requests() {
        return requests.sum();
    }

    long errors() {
        return errors.sum();
    }

    long iterations() {
        return iterations.sum();
    }

    long rootsBegun() {
        return rootsBegun.sum();
    }

    long lateRoots() {
        return lateRoots.sum();
    }

    long lastRootBegin() {
        return lastRootBegin.get();
    }

    long lastEnd() {
        return lastEnd.get();
    }

    long maxSenderLag() {
        return maxSenderLag.get();
    }

    long maxQueueLag() {
        return maxQueueLag.get();
    }

    /** @return the errors by kind, sorted by kind */
    Map<String, Long> errorsByKind() {
        Map<String, Long> copy = new TreeMap<>();
        errorsByKind.forEach((kind, count) -> copy.put(kind, count.sum()));
        return copy;
    }

    /** @return the message of the first failure of each kind, sorted by kind */
    Map<String, String> errorExamples() {
        return new TreeMap<>(errorExamples);
    }

    /** @return the tree latencies since the last call, in µs (for the reporter; valid until its next call) */
    Histogram takeTrees() {
        return trees.take();
    }

    /**
     * @return the latencies of each part since the last call, in µs, by name in the parts' order (for the reporter; each
     *     histogram valid until its next call)
     */
    Map<String, Histogram> takeResources() {
        Map<String, Histogram> taken = new LinkedHashMap<>();
        paths.forEach((name, counters) -> taken.put(name, counters.latency().take()));
        return taken;
    }

    /**
     * @param latencies the latencies of each part, by name, summed over the intervals
     * @return the statistics of each part, by name in the parts' order
     */
    Map<String, ResourceStatistics> resources(Map<String, Histogram> latencies) {
        Map<String, ResourceStatistics> copy = new LinkedHashMap<>();
        paths.forEach((name, counters) -> copy.put(name, new ResourceStatistics(name, counters.requests().sum(),
                counters.errors().sum(), latencies.getOrDefault(name, new Histogram(3)).copy())));
        return copy;
    }
}
