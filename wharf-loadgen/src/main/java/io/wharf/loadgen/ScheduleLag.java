package io.wharf.loadgen;

import java.time.Duration;

/**
 * How far a run fell behind its schedule, by cause. A request is late when it got its
 * connection more than the threshold after its intended send time: because the sending thread
 * woke late (the generator's own CPU) or because it waited in the client's queue for a
 * connection (too few connections for the rate, or a server that holds them) — a chat message,
 * for a place in the send window (the room delivering too slowly for the rate). Immutable.
 *
 * @param threshold the lateness tolerated before a request counts as late
 * @param maxSenderLag the worst delay of the sending thread behind the schedule
 * @param maxQueueLag the worst wait of a request for a connection
 * @param lateRequests how many measured requests were late beyond the threshold
 * @param requests how many measured requests got a connection
 */
public record ScheduleLag(Duration threshold, Duration maxSenderLag, Duration maxQueueLag, long lateRequests, long requests) {

    /** @return whether any request was late beyond the threshold */
    public boolean isBehind() {
        return lateRequests > 0;
    }

    /** @return the warning to show, naming how far behind and why; empty when the run kept up */
    public String warning() {
        if (!isBehind()) {
            return "";
        }
        return String.format("WARNING: the generator fell behind its schedule: %d of %d requests (%.2f%%) were sent more than %d ms late;"
                + " the sending threads were up to %.1f ms late (its CPU), requests waited up to %.1f ms for a connection"
                + " or a chat run's send window (too few for the rate, or a server holding them)",
                lateRequests, requests, requests == 0 ? 0.0 : 100.0 * lateRequests / requests, threshold.toMillis(),
                maxSenderLag.toNanos() / 1e6, maxQueueLag.toNanos() / 1e6);
    }
}
