package io.wharf.loadgen.internal;

import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.client.Request;
import io.wharf.client.Response;
import io.wharf.client.Result;
import io.wharf.loadgen.LoadListener;
import io.wharf.loadgen.Resource;

/**
 * One iteration: one user's fetch of the resource tree, as a browser does it — the root, then
 * the children of each resource, all at once, as soon as it has arrived (the children of a resource that failed or
 * was answered with a status of 400 or more are not fetched). Each request's latency counts from its intended send time: the
 * iteration's scheduled start for the root, its parent's arrival for a sub-resource.
 *
 * <p><b>Threads.</b> {@link #start} runs on a sending thread; the rest on the client's threads
 * (its listeners), which it never blocks. {@code done} runs once, on the thread that ended the
 * last request.
 */
final class TreeFetch {

    private final Target target;
    private final Statistics statistics;
    private final LoadEvents events;
    private final Resource tree;
    private final int user;
    private final boolean measured;
    private final Runnable done;
    private final AtomicInteger pending;
    private final AtomicInteger failures = new AtomicInteger();
    private long intended;

    TreeFetch(Target target, Statistics statistics, LoadEvents events, Resource tree, int user, boolean measured,
            Runnable done) {
        this.target = target;
        this.statistics = statistics;
        this.events = events;
        this.tree = tree;
        this.user = user;
        this.measured = measured;
        this.done = done;
        this.pending = new AtomicInteger(tree.size());
    }

    /**
     * Sends the root.
     *
     * @param intendedNanos when the iteration should have started
     * @param dispatchedNanos now: when the sending thread hands it over
     */
    void start(long intendedNanos, long dispatchedNanos) {
        this.intended = intendedNanos;
        if (measured) {
            statistics.iterationStarted();
        }
        send(tree, intendedNanos, dispatchedNanos, true);
    }

    private void send(Resource resource, long intendedNanos, long dispatchedNanos, boolean root) {
        events.request(new LoadListener.RequestEvent(resource, intendedNanos, !measured));
        Exchange exchange = new Exchange(resource, intendedNanos, dispatchedNanos, root);
        statistics.requestSent();
        try {
            Request request = target.newRequest(resource, user);
            request.listener(exchange);
            request.send(exchange);
        } catch (RuntimeException failure) {
            exchange.ended(0, failure, System.nanoTime());
        }
    }

    /** Subtracts what ended and ends the tree when nothing is left. */
    private void settled(int count, long now) {
        if (pending.addAndGet(-count) != 0) {
            return;
        }
        long latency = now - intended;
        if (measured) {
            statistics.treeEnded(latency);
        }
        events.tree(new LoadListener.TreeEvent(tree, Statistics.micros(latency), failures.get(), !measured));
        done.run();
    }

    /** One request of the tree: when it got its connection, and how it ended. */
    private final class Exchange implements Request.Listener, Response.Listener {

        private final Resource resource;
        private final long intendedNanos;
        private final long dispatchedNanos;
        private final boolean root;
        private volatile long began = -1;

        Exchange(Resource resource, long intendedNanos, long dispatchedNanos, boolean root) {
            this.resource = resource;
            this.intendedNanos = intendedNanos;
            this.dispatchedNanos = dispatchedNanos;
            this.root = root;
        }

        @Override
        public void onBegin(Request request) {
            long now = System.nanoTime();
            boolean first = began < 0;
            // A retry on another connection begins again: the uncorrected latency counts from the last begin.
            began = now;
            if (first && root && measured) {
                statistics.rootBegan(intendedNanos, dispatchedNanos, now);
            }
        }

        @Override
        public void onComplete(Result result) {
            ended(result.response().getStatus(), result.getFailure(), System.nanoTime());
        }

        void ended(int status, Throwable failure, long now) {
            statistics.requestOver();
            long start = began;
            long corrected = now - intendedNanos;
            long uncorrected = start < 0 ? -1 : now - start;
            boolean failed = failure != null || status >= 400;
            if (failed) {
                failures.incrementAndGet();
            }
            if (measured) {
                statistics.requestEnded(resource.name(), status, failure, corrected, uncorrected, now);
            }
            events.response(new LoadListener.ResponseEvent(resource, status, failure, Statistics.micros(corrected),
                    uncorrected < 0 ? -1 : Statistics.micros(uncorrected), !measured));
            if (failed) {
                // A browser fetches nothing below a resource that did not arrive.
                settled(resource.size(), now);
                return;
            }
            for (Resource child : resource.children()) {
                send(child, now, System.nanoTime(), false);
            }
            // Counted last, so that children ending meanwhile cannot end the tree early.
            settled(1, now);
        }
    }
}
