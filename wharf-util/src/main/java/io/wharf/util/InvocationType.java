package io.wharf.util;

/**
 * What a task or callback may do to the thread that runs it.
 *
 * <p>The execution strategy reads this to decide whether a produced task may run inline on
 * the producing thread (for example a selector thread) or must be handed to another thread.
 * Declaring {@link #NON_BLOCKING} is a promise: the code never waits on a lock held across
 * I/O, a blocking read or write, a future, or a sleep.
 */
public enum InvocationType {
    /** May block; never run on a thread whose blocking would stall others (a selector). */
    BLOCKING,
    /** Never blocks; may run inline on any thread, a selector thread included. */
    NON_BLOCKING,
    /**
     * Runs in either mode: when invoked through {@link Invocable#invokeNonBlocking(Runnable)}
     * it must not block and instead arranges for any blocking part to run elsewhere.
     */
    EITHER;

    /**
     * The type of running this and {@code other} together: blocking if either blocks,
     * non-blocking only if both are, otherwise either.
     */
    public InvocationType combine(InvocationType other) {
        if (this == other) {
            return this;
        }
        if (this == BLOCKING || other == BLOCKING) {
            return BLOCKING;
        }
        // One is NON_BLOCKING and the other EITHER: the pair never has to block.
        return EITHER;
    }
}
