package io.wharf.loadgen.internal;

import io.wharf.loadgen.Resource;

/**
 * One iteration as the engine hands it to a {@link Scenario}: which user runs it, when it was
 * due (its latencies count from then) and handed over, whether it is measured, and the calls
 * through which the scenario reports it. Each exchange of the iteration (an HTTP request, a chat
 * message) is {@linkplain #exchangeSent sent} and {@linkplain #exchangeEnded ended} once; the
 * first one to get its connection (or its turn) says when with {@link #firstBegan}, which the
 * engine compares with the schedule; {@link #ended} is called once, last. The engine
 * {@linkplain Statistics#iterationOpened opens} each iteration before handing it over, and
 * {@link #ended} closes it. Warm-up iterations
 * are told to the listeners and left out of the statistics here, so scenarios need not care.
 *
 * <p><b>Threads.</b> Made by the engine on the thread that starts the iteration; its methods
 * are called from the scenario's threads, for several exchanges at once. Immutable.
 */
final class Iteration {

    private final Statistics statistics;
    private final LoadEvents events;
    private final int user;
    private final long intendedNanos;
    private final long dispatchedNanos;
    private final boolean measured;
    private final Runnable done;

    /**
     * @param user which user runs it
     * @param intendedNanos when it should start
     * @param dispatchedNanos when the engine handed it over (now)
     * @param measured false for a warm-up iteration
     * @param done run once when it ended (the closed model starts the user's next one)
     */
    Iteration(Statistics statistics, LoadEvents events, int user, long intendedNanos, long dispatchedNanos, boolean measured,
            Runnable done) {
        this.statistics = statistics;
        this.events = events;
        this.user = user;
        this.intendedNanos = intendedNanos;
        this.dispatchedNanos = dispatchedNanos;
        this.measured = measured;
        this.done = done;
    }

    int user() {
        return user;
    }

    long intendedNanos() {
        return intendedNanos;
    }

    long dispatchedNanos() {
        return dispatchedNanos;
    }

    boolean measured() {
        return measured;
    }

    /** An exchange of {@code resource} is handed over now; its latencies count from {@code intendedNanos}. */
    void exchangeSent(Resource resource, long intendedNanos) {
        events.request(resource, intendedNanos, !measured);
        statistics.requestSent();
    }

    /**
     * The iteration waits for its user's connections in the generator ({@link UserQueue}): it counts in flight, for the
     * drain and the interval reports, as a request waiting in the client's queue does, until {@link #waitOver()}.
     */
    void waitBegins() {
        statistics.requestSent();
    }

    /** The iteration stopped waiting: it starts, or fails, now. */
    void waitOver() {
        statistics.requestOver();
    }

    /** The iteration's first exchange got its connection (or its turn to be sent) at {@code beganNanos}. */
    void firstBegan(long beganNanos) {
        if (measured) {
            statistics.rootBegan(intendedNanos, dispatchedNanos, beganNanos);
        }
    }

    /**
     * An exchange ended.
     *
     * @param resource what it fetched or sent, for the listeners
     * @param part the part it counts in: its resource's {@link Resource#name()}
     * @param status its response's status, 0 without one (a chat message has none)
     * @param failure why it failed, or null
     * @param correctedNanos since it should have been sent
     * @param uncorrectedNanos since it began, or a negative value when it never did
     * @param now when it ended
     */
    void exchangeEnded(Resource resource, String part, int status, Throwable failure, long correctedNanos, long uncorrectedNanos,
            long now) {
        if (measured) {
            statistics.requestEnded(part, status, failure, correctedNanos, uncorrectedNanos, now);
        }
        events.response(resource, status, failure, correctedNanos, uncorrectedNanos, !measured);
        // Last: an interval that sees it no longer in flight has it counted.
        statistics.requestOver();
    }

    /** One arrival of {@code part} beside the exchanges (a chat message's delivery to one member), {@code correctedNanos} after it was due. */
    void partArrived(String part, long correctedNanos) {
        if (measured) {
            statistics.partArrived(part, correctedNanos);
        }
    }

    /** {@code count} arrivals of {@code part} that never came (a chat message's deliveries missing). */
    void partMissed(String part, long count) {
        if (measured) {
            statistics.partMissed(part, count);
        }
    }

    /**
     * The iteration is over: its whole latency, since it was due, is recorded and told.
     *
     * @param root what the iteration fetched or sent, for the listeners
     * @param failures how many of its exchanges failed
     * @param now when its last exchange ended
     */
    void ended(Resource root, int failures, long now) {
        long latency = now - intendedNanos;
        if (measured) {
            statistics.treeEnded(latency);
        }
        events.tree(root, latency, failures, !measured);
        try {
            done.run();
        } finally {
            // Last: the run's drain waits for this, so that nothing of the iteration is counted or told after the run ended.
            statistics.iterationClosed();
        }
    }
}
