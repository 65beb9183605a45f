package io.wharf.util.thread;

/**
 * Decides which thread runs the tasks that a {@link Producer} produces, for example a
 * selector producing "this connection is readable" tasks.
 *
 * <p>{@link #produce()} runs production on the calling thread until the producer has no
 * more tasks; {@link #dispatch()} asks a pool thread to do so. At most one thread produces
 * at a time; a call to either while another thread produces makes that thread produce again
 * before it stops, so no task is left unproduced.
 */
public interface ExecutionStrategy {

    /** Produces and runs tasks on the calling thread (and others) until none are left. */
    void produce();

    /** Arranges for {@link #produce()} to run on a pool thread. */
    void dispatch();

    /** Makes the tasks an {@link ExecutionStrategy} runs. */
    interface Producer {
        /**
         * Called by one thread at a time.
         *
         * @return the next task, or null when there is nothing to do now
         */
        Runnable produce();
    }
}
