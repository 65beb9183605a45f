package io.wharf.util.thread;

/**
 * Runs a task on another thread only when one is free right now, without queueing:
 * the execution strategy uses it to hand production to a reserved thread.
 */
public interface TryExecutor {

    /**
     * @return true when a thread took {@code task} and will run it at once; false when none
     *     was free, in which case the task was not taken
     */
    boolean tryExecute(Runnable task);

    /** A TryExecutor that never has a free thread. */
    TryExecutor NONE = task -> false;
}
