package io.wharf.client.internal;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import io.wharf.client.Response;
import io.wharf.client.Result;
import io.wharf.http.HttpField;
import io.wharf.io.Content;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the response listeners of one exchange each event, in their order, catching what a
 * listener throws so that one bad listener neither breaks the connection nor silences the
 * others. Called on the thread that has the event (the reading thread, an aborting thread);
 * holds no state of its own but the listeners.
 *
 * <p>Content goes to every listener with its own demand; the connection's demand runs when
 * the last of them has demanded, so the slowest listener sets the pace.
 */
public final class ResponseEvents {

    private static final Logger LOG = LoggerFactory.getLogger(ResponseEvents.class);

    private final List<Response.Listener> listeners;

    ResponseEvents(List<Response.Listener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    public void informational(Response interim) {
        each("informational", listener -> listener.onInformational(interim));
    }

    public void begin(Response response) {
        each("begin", listener -> listener.onBegin(response));
    }

    /** @return whether every listener wants the field kept */
    public boolean header(Response response, HttpField field) {
        boolean keep = true;
        for (Response.Listener listener : listeners) {
            try {
                keep &= listener.onHeader(response, field);
            } catch (Throwable x) {
                LOG.warn("Response listener {} failed on a header", listener, x);
            }
        }
        return keep;
    }

    public void headers(Response response) {
        each("headers", listener -> listener.onHeaders(response));
    }

    /** Tells each listener of {@code chunk}; {@code demand} runs once all of them demanded. */
    public void content(Response response, Content.Chunk chunk, Runnable demand) {
        Runnable each = listeners.size() == 1 ? demand : new JointDemand(listeners.size(), demand);
        for (Response.Listener listener : listeners) {
            try {
                listener.onContent(response, chunk, each);
            } catch (Throwable x) {
                LOG.warn("Response listener {} failed on content", listener, x);
                response.abort(x);
            }
        }
    }

    void success(Response response) {
        each("success", listener -> listener.onSuccess(response));
    }

    void failure(Response response, Throwable failure) {
        each("failure", listener -> listener.onFailure(response, failure));
    }

    void complete(Result result) {
        each("complete", listener -> listener.onComplete(result));
    }

    private void each(String event, Consumer<Response.Listener> call) {
        for (Response.Listener listener : listeners) {
            try {
                call.accept(listener);
            } catch (Throwable x) {
                LOG.warn("Response listener {} failed on {}", listener, event, x);
            }
        }
    }

    /** Runs the connection's demand when the last of {@code count} listeners demanded. */
    private static final class JointDemand implements Runnable {
        private final AtomicInteger missing;
        private final Runnable demand;

        JointDemand(int count, Runnable demand) {
            this.missing = new AtomicInteger(count);
            this.demand = demand;
        }

        @Override
        public void run() {
            if (missing.decrementAndGet() == 0) {
                demand.run();
            }
        }
    }
}
