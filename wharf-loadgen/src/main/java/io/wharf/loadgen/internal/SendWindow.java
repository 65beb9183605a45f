package io.wharf.loadgen.internal;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Bounds how many chat messages are on their way at once: a send that finds a place runs at
 * once, on the caller's thread; the others wait in order (at most {@code maxWaiting}) and run on
 * the executor as places are given back — never inline in {@link #release()}, so that a run of
 * sends failing at once cannot nest in one another. Any thread; its state is under its lock, held
 * only to count.
 */
final class SendWindow {

    private final int maxWaiting;
    private final Executor executor;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private int free;

    SendWindow(int size, int maxWaiting, Executor executor) {
        this.free = size;
        this.maxWaiting = maxWaiting;
        this.executor = executor;
    }

    /**
     * Runs {@code send} now if there is a place, or once one is given back.
     *
     * @throws RejectedExecutionException when {@code maxWaiting} sends wait already
     */
    void acquire(Runnable send) {
        synchronized (this) {
            if (free == 0) {
                if (waiting.size() >= maxWaiting) {
                    throw new RejectedExecutionException("more than " + maxWaiting + " messages wait for the send window");
                }
                waiting.add(send);
                return;
            }
            free--;
        }
        send.run();
    }

    /** Gives a place back: to the first send waiting, if any. */
    void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                free++;
            }
        }
        if (next != null) {
            executor.execute(next);
        }
    }
}
