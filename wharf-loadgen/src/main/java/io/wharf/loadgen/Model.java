package io.wharf.loadgen;

/** How a {@link LoadGenerator} paces its requests. */
public enum Model {
    /**
     * Iterations are started at a constant total rate, on a schedule computed from the start
     * and the rate, whatever the server answers; each latency is measured from the iteration's
     * intended start (corrected for coordinated omission) and from the actual send.
     */
    OPEN,
    /**
     * Each user runs its iterations back to back, waiting for one to end (and the think time)
     * before the next: the rate is whatever the server allows.
     */
    CLOSED
}
