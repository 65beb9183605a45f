package io.wharf.loadgen.internal;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * One user's iterations in the open model: at most {@code maxRunning} run at once (as many as
 * its HTTP/1.1 connections can carry); those due meanwhile wait here, in order (at most
 * {@code maxWaiting}), and each starts as soon as one running ends. An iteration waits here as a
 * small object rather than as a request queued in the client: a generator behind its schedule
 * had thousands of requests waiting, each with its exchange, fields and listeners, which lived
 * long enough to be promoted, and once promoted and done kept the young objects they last
 * pointed to alive (and their cards scanned) through every young collection until they were
 * tenured in turn: the driver's young pauses grew from 2 to 20-30 ms for a minute after each
 * backlog. The latency of a waiting iteration still counts from its intended time.
 *
 * <p><b>Threads.</b> {@link #offer} on a sending thread, {@link #ended} on the client's threads;
 * its state is under its lock, held only to count. The waiting iterations are started by
 * {@link #ended} on its caller's thread, never nested: an iteration that ends while it is being
 * started (a send that fails at once) only gives its place back, and the thread already starting
 * starts the next, so that a run of such failures is a loop, not a recursion.
 *
 * @param <T> what waits (an {@link Iteration}; anything, for tests)
 */
final class UserQueue<T> {

    private final int maxRunning;
    private final int maxWaiting;
    private final ArrayDeque<T> waiting = new ArrayDeque<>();
    private int running;
    /** Places given back and not yet given to a waiting element or taken off {@link #running}. */
    private int freed;
    /** Whether a thread is in {@link #ended}'s loop, giving the freed places out. */
    private boolean starting;

    /**
     * @param maxRunning how many may run at once
     * @param maxWaiting how many may wait
     */
    UserQueue(int maxRunning, int maxWaiting) {
        if (maxRunning < 1 || maxWaiting < 0) {
            throw new IllegalArgumentException("a user runs at least 1 iteration and none waits in negative numbers, not "
                    + maxRunning + " and " + maxWaiting);
        }
        this.maxRunning = maxRunning;
        this.maxWaiting = maxWaiting;
    }

    /**
     * @return true when {@code element} took a place and the caller starts it now; false when
     *     it waits, for {@link #ended} to start it
     * @throws RejectedExecutionException when {@code maxWaiting} wait already
     */
    synchronized boolean offer(T element) {
        if (running < maxRunning) {
            running++;
            return true;
        }
        if (waiting.size() >= maxWaiting) {
            throw new RejectedExecutionException("more than " + maxWaiting + " iterations wait for their user's connections");
        }
        waiting.add(element);
        return false;
    }

    /**
     * One that took a place ended: gives its place to the first waiting, which {@code start}
     * starts on this thread (unless this thread or another is already giving places out, which
     * then gives this one too).
     */
    void ended(Consumer<? super T> start) {
        synchronized (this) {
            freed++;
            if (starting) {
                return;
            }
            starting = true;
        }
        while (true) {
            T next;
            synchronized (this) {
                if (freed == 0) {
                    starting = false;
                    return;
                }
                freed--;
                next = waiting.poll();
                if (next == null) {
                    running--;
                    continue;
                }
            }
            try {
                start.accept(next);
            } catch (RuntimeException | Error x) {
                synchronized (this) {
                    starting = false;
                }
                throw x;
            }
        }
    }

    /** @return how many wait (for tests) */
    synchronized int waiting() {
        return waiting.size();
    }

    /** @return how many run (for tests) */
    synchronized int running() {
        return running - freed;
    }
}
