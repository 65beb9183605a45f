package io.wharf.loadgen.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.client.Request;
import io.wharf.client.Response;
import io.wharf.client.Result;

/**
 * One iteration: one user's fetch of the resource tree, as a browser does it — the root, then
 * the children of each resource, all at once, as soon as it has arrived (the children of a resource that failed or
 * was answered with a status of 400 or more are not fetched). Each request's latency counts from its intended send time: the
 * iteration's scheduled start for the root, its parent's arrival for a sub-resource.
 *
 * What it measures goes through its {@link Iteration}. Each request is bounded by the run's timeout, counted
 * from when it was handed over: the root's from when the iteration was (it may have waited for its user's
 * connections since, in a {@link UserQueue}), a sub-resource's from its send.
 *
 * <p><b>Threads.</b> {@link #start} and {@link #fail} run on a sending thread, or on a client's
 * thread for an iteration that waited for its user's connections; the rest on the client's threads
 * (its listeners), which it never blocks. The iteration ends once, on the thread that ended the
 * last request.
 */
final class TreeFetch {

    private final Target target;
    private final PreparedResource tree;
    private final Iteration iteration;
    private final long timeoutNanos;
    private final Runnable over;
    private final AtomicInteger pending;
    private final AtomicInteger failures = new AtomicInteger();

    /**
     * @param timeoutNanos the bound of each request
     * @param over run once when the iteration ends, before {@link Iteration#ended} (its user's next may start)
     */
    TreeFetch(Target target, PreparedResource tree, Iteration iteration, long timeoutNanos, Runnable over) {
        this.target = target;
        this.tree = tree;
        this.iteration = iteration;
        this.timeoutNanos = timeoutNanos;
        this.over = over;
        this.pending = new AtomicInteger(tree.size());
    }

    /**
     * Sends the root, due at the iteration's intended start, with what is left of the timeout since the iteration was
     * handed over; fails it with a {@link TimeoutException} when nothing is left (it waited that long for its user's
     * connections), as the client fails a request that waited that long in its queue.
     */
    void start() {
        long left = timeoutNanos - (System.nanoTime() - iteration.dispatchedNanos());
        if (left <= 0) {
            fail(new TimeoutException("waited more than the timeout of " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                    + " ms for user " + iteration.user() + "'s connections"));
            return;
        }
        send(tree, iteration.intendedNanos(), true, left);
    }

    /** Fails the root without sending it: an error of the root, like a request the client refused. */
    void fail(Exception failure) {
        iteration.exchangeSent(tree.resource(), iteration.intendedNanos());
        new Exchange(tree, iteration.intendedNanos(), true).ended(0, failure, System.nanoTime());
    }

    private void send(PreparedResource resource, long intendedNanos, boolean root, long timeoutNanos) {
        iteration.exchangeSent(resource.resource(), intendedNanos);
        Exchange exchange = new Exchange(resource, intendedNanos, root);
        try {
            Request request = target.newRequest(resource, iteration.user(), timeoutNanos);
            request.listener(exchange);
            request.send(exchange);
        } catch (RuntimeException failure) {
            exchange.ended(0, failure, System.nanoTime());
        }
    }

    /** Subtracts what ended and ends the tree when nothing is left. */
    private void settled(int count, long now) {
        if (pending.addAndGet(-count) == 0) {
            // The place first: the closed model's next iteration, started from ended, then finds it free.
            over.run();
            iteration.ended(tree.resource(), failures.get(), now);
        }
    }

    /** One request of the tree: when it got its connection, and how it ended. */
    private final class Exchange implements Request.Listener, Response.Listener {

        private final PreparedResource resource;
        private final long intendedNanos;
        private final boolean root;
        private volatile long began = -1;

        Exchange(PreparedResource resource, long intendedNanos, boolean root) {
            this.resource = resource;
            this.intendedNanos = intendedNanos;
            this.root = root;
        }

        @Override
        public void onBegin(Request request) {
            long now = System.nanoTime();
            boolean first = began < 0;
            // A retry on another connection begins again: the uncorrected latency counts from the last begin.
            began = now;
            if (first && root) {
                iteration.firstBegan(now);
            }
        }

        @Override
        public void onComplete(Result result) {
            ended(result.response().getStatus(), result.getFailure(), System.nanoTime());
        }

        void ended(int status, Throwable failure, long now) {
            long start = began;
            iteration.exchangeEnded(resource.resource(), resource.name(), status, failure, now - intendedNanos, start < 0 ? -1 : now - start, now);
            if (failure != null || status >= 400) {
                failures.incrementAndGet();
                // A browser fetches nothing below a resource that did not arrive.
                settled(resource.size(), now);
                return;
            }
            for (PreparedResource child : resource.children()) {
                send(child, now, false, timeoutNanos);
            }
            // Counted last, so that children ending meanwhile cannot end the tree early.
            settled(1, now);
        }
    }
}
