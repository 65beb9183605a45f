package io.wharf.loadgen.internal;

/** Starts one iteration (one fetch of the resource tree) for a user; what both models' loops call. */
@FunctionalInterface
interface IterationStarter {

    /**
     * @param user which user fetches (its connections carry the requests)
     * @param intendedNanos when the iteration should start: latencies count from then
     * @param dispatchedNanos now
     * @param measured false for a warm-up iteration
     * @param done run once when the whole tree is over
     */
    void start(int user, long intendedNanos, long dispatchedNanos, boolean measured, Runnable done);
}
