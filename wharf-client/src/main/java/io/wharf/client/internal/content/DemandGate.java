package io.wharf.client.internal.content;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a response's read loop is as it hands content to listeners that demand the next piece
 * (the back-pressure of both transports): one atomic state, so that a demand from any thread
 * either lets a delivering loop go on or resumes a stalled one, and never runs two loops.
 *
 * <pre>
 *  RUNNING ──chunk──► DELIVERING ──demand──► DEMANDED ──listener returns──► RUNNING
 *                         └──listener returns──► STALLED ──demand──► RUNNING (the loop resumed)
 * </pre>
 * An HTTP/1.1 connection's loop also rests IDLE between reads and ends CLOSED; an HTTP/2
 * stream's starts RUNNING.
 *
 * <p><b>Threads.</b> {@link #delivering()} and {@link #delivered()} run on the loop's thread;
 * {@link #demand()} on any.
 */
public final class DemandGate {

    /** The loop's states; see the class comment. */
    public enum State {
        IDLE, RUNNING, DELIVERING, DEMANDED, STALLED, CLOSED
    }

    private final AtomicReference<State> state;
    private final Runnable resume;

    /**
     * @param initial where the loop starts
     * @param resume runs the loop again, on the demanding thread, after a stall
     */
    public DemandGate(State initial, Runnable resume) {
        this.state = new AtomicReference<>(initial);
        this.resume = resume;
    }

    /** The loop is about to tell the listeners one piece of content. On the loop's thread. */
    public void delivering() {
        state.set(State.DELIVERING);
    }

    /**
     * The listeners returned from the piece. On the loop's thread.
     *
     * @return true when they demanded more meanwhile (the loop goes on), false when the loop
     *     stalls until they do
     */
    public boolean delivered() {
        if (state.compareAndSet(State.DELIVERING, State.STALLED)) {
            return false;
        }
        state.set(State.RUNNING);
        return true;
    }

    /** The listeners' demand: lets a delivering loop go on, or resumes a stalled one. Any thread. */
    public void demand() {
        while (true) {
            State now = state.get();
            if (now == State.DELIVERING) {
                if (state.compareAndSet(now, State.DEMANDED)) {
                    return;
                }
            } else if (now == State.STALLED) {
                if (state.compareAndSet(now, State.RUNNING)) {
                    resume.run();
                    return;
                }
            } else {
                return;
            }
        }
    }

    public State get() {
        return state.get();
    }

    public void set(State next) {
        state.set(next);
    }

    public boolean compareAndSet(State expected, State next) {
        return state.compareAndSet(expected, next);
    }

    @Override
    public String toString() {
        return state.get().toString();
    }
}
