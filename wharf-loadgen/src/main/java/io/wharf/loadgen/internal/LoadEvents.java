package io.wharf.loadgen.internal;

import java.util.List;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.wharf.loadgen.LoadListener;
import io.wharf.loadgen.Resource;

/**
 * Tells a run's {@link LoadListener}s its events, each in turn; a listener that throws is logged
 * and the others are still told, so that a faulty listener can neither end the run nor stop its
 * reporting. Without listeners it makes no event at all: the per-request calls cost nothing then
 * (the probe's, and runs through the Java API with no listener, as the benchmarks'). Immutable;
 * called on the threads that have the events (see {@link LoadListener}).
 */
final class LoadEvents {

    private static final Logger LOG = LoggerFactory.getLogger(LoadEvents.class);

    private final List<LoadListener> listeners;

    LoadEvents(List<LoadListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    /** Tells {@link LoadListener.RequestEvent}: {@code resource} handed over, due at {@code intendedNanos}. */
    void request(Resource resource, long intendedNanos, boolean warmup) {
        if (listeners.isEmpty()) {
            return;
        }
        LoadListener.RequestEvent event = new LoadListener.RequestEvent(resource, intendedNanos, warmup);
        each("onRequest", listener -> listener.onRequest(event));
    }

    /**
     * Tells {@link LoadListener.ResponseEvent}, its latencies in µs.
     *
     * @param uncorrectedNanos since the exchange began, or a negative value when it never did
     */
    void response(Resource resource, int status, Throwable failure, long correctedNanos, long uncorrectedNanos, boolean warmup) {
        if (listeners.isEmpty()) {
            return;
        }
        LoadListener.ResponseEvent event = new LoadListener.ResponseEvent(resource, status, failure, Statistics.micros(correctedNanos),
                uncorrectedNanos < 0 ? -1 : Statistics.micros(uncorrectedNanos), warmup);
        each("onResponse", listener -> listener.onResponse(event));
    }

    /** Tells {@link LoadListener.TreeEvent}, its latency in µs. */
    void tree(Resource root, long latencyNanos, int failures, boolean warmup) {
        if (listeners.isEmpty()) {
            return;
        }
        LoadListener.TreeEvent event = new LoadListener.TreeEvent(root, Statistics.micros(latencyNanos), failures, warmup);
        each("onTree", listener -> listener.onTree(event));
    }

    void interval(LoadListener.IntervalReport report) {
        each("onInterval", listener -> listener.onInterval(report));
    }

    private void each(String event, Consumer<LoadListener> call) {
        for (LoadListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException | Error failure) {
                LOG.warn("load listener {} failed in {}", listener, event, failure);
            }
        }
    }
}
