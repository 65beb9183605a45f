package io.wharf.loadgen.internal;

import java.util.List;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.wharf.loadgen.LoadListener;

/**
 * Tells a run's {@link LoadListener}s its events, each in turn; a listener that throws is logged
 * and the others are still told, so that a faulty listener can neither end the run nor stop its
 * reporting. Immutable; called on the threads that have the events (see {@link LoadListener}).
 */
final class LoadEvents {

    private static final Logger LOG = LoggerFactory.getLogger(LoadEvents.class);

    private final List<LoadListener> listeners;

    LoadEvents(List<LoadListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    void request(LoadListener.RequestEvent event) {
        each("onRequest", listener -> listener.onRequest(event));
    }

    void response(LoadListener.ResponseEvent event) {
        each("onResponse", listener -> listener.onResponse(event));
    }

    void tree(LoadListener.TreeEvent event) {
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
