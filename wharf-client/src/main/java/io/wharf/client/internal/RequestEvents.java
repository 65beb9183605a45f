package io.wharf.client.internal;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.wharf.client.Request;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of one request and the telling of its events, each listener's exceptions
 * caught and logged. Listeners are added while the request is built; events come on the
 * thread that has them (the sender, the writer, an aborting thread).
 */
public final class RequestEvents {

    private static final Logger LOG = LoggerFactory.getLogger(RequestEvents.class);

    private final List<Request.Listener> listeners = new CopyOnWriteArrayList<>();

    void add(Request.Listener listener) {
        listeners.add(listener);
    }

    /** Adds these listeners to {@code other}: the listeners of a follow-up request. */
    void copyTo(RequestEvents other) {
        other.listeners.addAll(listeners);
    }

    void queued(Request request) {
        each("queued", listener -> listener.onQueued(request));
    }

    public void begin(Request request) {
        each("begin", listener -> listener.onBegin(request));
    }

    public void headers(Request request) {
        each("headers", listener -> listener.onHeaders(request));
    }

    public void commit(Request request) {
        each("commit", listener -> listener.onCommit(request));
    }

    public void content(Request request, ByteBuffer content) {
        each("content", listener -> listener.onContent(request, content.asReadOnlyBuffer()));
    }

    void success(Request request) {
        each("success", listener -> listener.onSuccess(request));
    }

    void failure(Request request, Throwable failure) {
        each("failure", listener -> listener.onFailure(request, failure));
    }

    private void each(String event, Consumer<Request.Listener> call) {
        for (Request.Listener listener : listeners) {
            try {
                call.accept(listener);
            } catch (Throwable x) {
                LOG.warn("Request listener {} failed on {}", listener, event, x);
            }
        }
    }
}
