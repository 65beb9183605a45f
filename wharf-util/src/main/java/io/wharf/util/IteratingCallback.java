package io.wharf.util;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A multi-step asynchronous job written as one {@link #process()} step at a time: flush a
 * queue of frames, copy a body, write a file. Each call to {@code process()} starts at most
 * one asynchronous operation and hands it this object as its {@link Callback}; when the
 * operation succeeds the loop calls {@code process()} again, until it reports the job done.
 *
 * <pre>
 *   iterate() ──► process() ──SCHEDULED──► (operation runs) ──succeeded()──► onSuccess() ──► process() ...
 *                    │ IDLE: wait for the next iterate()             failed() / abort() ──► onFailure()
 *                    │ SUCCEEDED ──► onCompleteSuccess()                            └──► onCompleteFailure()
 * </pre>
 *
 * <h2>Threads</h2>
 * Any thread may call {@link #iterate()}, {@link #succeeded()}, {@link #failed(Throwable)},
 * {@link #abort(Throwable)} and {@link #close()}. {@code process()} runs on the thread that
 * started or resumed the loop: the caller of {@code iterate()}, or the thread that completed
 * a step asynchronously. At most one thread runs {@code process()} at a time, and a step that
 * completes synchronously (inside {@code process()}) does not recurse: the running loop goes
 * round once more, so a million synchronous steps use a constant stack.
 *
 * <h2>Hooks and their rules</h2>
 * <ul>
 * <li>{@link #process()}, {@link #onSuccess()}, {@link #onCompleteSuccess()} and
 *     {@link #onCompleteFailure(Throwable)} never run concurrently with one another; the
 *     state is published through one atomic, so fields written by one call are seen by the
 *     next even on another thread.</li>
 * <li>Exactly one of {@code onCompleteSuccess()} or {@code onCompleteFailure(cause)} runs,
 *     once per run of the job (see {@link #reset()}).</li>
 * <li>{@code onCompleteFailure(cause)} runs only when nothing else uses the job's resources:
 *     after a {@code process()} running on another thread has returned, and, when the job was
 *     aborted while a step was scheduled, after that step has completed (its
 *     {@code succeeded()} or {@code failed()} was called). It is the place to release buffers
 *     handed to the steps.</li>
 * <li>{@link #onFailure(Throwable)} runs once, on the failing thread, as soon as the failure
 *     happens: it may run concurrently with {@code process()} or {@code onSuccess()} and while
 *     a step is in flight, so it must only do thread-safe things, typically cancel or fail the
 *     operation in flight so that it completes soon. It always finishes before
 *     {@code onCompleteFailure(cause)} starts.</li>
 * <li>An exception thrown by {@code process()} or {@code onSuccess()} fails the job with that
 *     exception. An exception thrown by {@code onFailure}, {@code onCompleteSuccess} or
 *     {@code onCompleteFailure} is logged and dropped: they run on whichever thread completed
 *     the job, which cannot handle it.</li>
 * </ul>
 *
 * <h2>Completions</h2>
 * {@code succeeded()} and {@code failed(cause)} are the outcome of the step that
 * {@code process()} scheduled: a step calls exactly one of them, once. Code that is not the
 * step and wants the job to stop (a timeout, a closing connection) calls
 * {@link #abort(Throwable)}, never {@code failed()}: {@code failed()} tells this callback that
 * the step is over, so {@code onCompleteFailure(cause)} may release its resources at once.
 * A {@code succeeded()} that no step can explain (nothing scheduled, or the step already
 * completed while {@code process()} still runs) throws {@link IllegalStateException}; a
 * completion that arrives after the job failed is ignored. A stray {@code succeeded()} while a
 * step is pending cannot be told apart from the step's own and resumes the loop.
 *
 * <h2>Buffers</h2>
 * This class owns none; the subclass owns what its steps use and releases it in
 * {@code onCompleteSuccess()} or {@code onCompleteFailure(cause)}.
 *
 * <p>The invocation type is the subclass's: {@code succeeded()} may run {@code process()}
 * inline, so a subclass whose {@code process()} never blocks declares
 * {@link InvocationType#NON_BLOCKING} (the default is {@link InvocationType#BLOCKING}).
 */
public abstract class IteratingCallback implements Callback {

    private static final Logger LOG = LoggerFactory.getLogger(IteratingCallback.class);

    /** What {@link #process()} did. */
    public enum Action {
        /** Nothing to do now; the job is not done and waits for the next {@link #iterate()}. */
        IDLE,
        /** An asynchronous step was started; it will call {@link #succeeded()} or {@link #failed(Throwable)}. */
        SCHEDULED,
        /** The whole job is done. */
        SUCCEEDED
    }

    /** Where the loop is; the low bits of {@link #status}. */
    private enum State {
        /** No thread processes and no step is scheduled: {@link #iterate()} starts the loop. */
        IDLE,
        /** A thread runs the loop (calls, or is about to call, or just returned from process()). */
        PROCESSING,
        /** A thread runs process(), and the step it scheduled already succeeded. */
        CALLED,
        /** process() scheduled a step and returned; the step's completion resumes the loop. */
        PENDING,
        /** process() returned SUCCEEDED. */
        SUCCEEDED,
        /** The job failed: a step failed or process() threw. */
        FAILED,
        /** The job was aborted from the outside. */
        ABORTED,
        /** The job was closed. */
        CLOSED;

        private static final State[] VALUES = values();

        boolean isFailure() {
            return this == FAILED || this == ABORTED || this == CLOSED;
        }
    }

    // Layout of the status word: the State ordinal in the low four bits, flags above.
    private static final int STATE_MASK = 0xF;
    /** PROCESSING only: iterate() was called while processing, so IDLE means "process again". */
    private static final int ITERATE_AGAIN = 1 << 4;
    /** Failure states: a thread still runs the loop and will settle when process() returns. */
    private static final int PROCESS_RUNNING = 1 << 5;
    /** Failure states with PROCESS_RUNNING: the step the running process() scheduled already completed. */
    private static final int STEP_COMPLETED = 1 << 6;
    /** Failure states: a scheduled step is still in flight and will complete this callback. */
    private static final int STEP_PENDING = 1 << 7;
    /** Failure states: onFailure() is running on the thread that failed the job. */
    private static final int NOTIFYING_FAILURE = 1 << 8;
    /** What must be over before onCompleteFailure() may run; whoever clears the last one calls it. */
    private static final int BLOCKERS = PROCESS_RUNNING | STEP_PENDING | NOTIFYING_FAILURE;

    /** What the loop does after process() returned and the outcome was settled. */
    private enum Next {
        PROCESS, PROCESS_AFTER_SUCCESS, STOP
    }

    private final AtomicInteger status = new AtomicInteger(State.IDLE.ordinal());
    /** Written once by the thread that failed the job, before it clears NOTIFYING_FAILURE. */
    private volatile Throwable failure;

    protected IteratingCallback() {
    }

    /**
     * Does one step of the job, on the thread that runs the loop, never concurrently with
     * itself: starts at most one asynchronous operation, giving it this callback.
     *
     * @return {@link Action#SCHEDULED} when an operation was started (it may already have
     *     completed), {@link Action#IDLE} when there is nothing to do now, or
     *     {@link Action#SUCCEEDED} when the whole job is done
     * @throws Throwable to fail the job with it (no operation must be in flight then)
     */
    protected abstract Action process() throws Throwable;

    /** Called after each step succeeded, before the next {@link #process()}, on the loop's thread. */
    protected void onSuccess() {
    }

    /** Called once when {@link #process()} returned {@link Action#SUCCEEDED}, on the loop's thread. */
    protected void onCompleteSuccess() {
    }

    /**
     * Called once when the job failed, aborted or was closed while active, as soon as it
     * happens, on the failing thread; possibly concurrently with {@link #process()}. See the
     * class documentation for what is safe here.
     */
    protected void onFailure(Throwable cause) {
    }

    /**
     * Called once when the job failed, aborted or was closed while active, when nothing runs
     * or is in flight any more: the place to release what the steps used.
     */
    protected void onCompleteFailure(Throwable cause) {
    }

    /**
     * Starts or resumes the loop: calls {@link #process()} on this thread when the loop is
     * idle; when another thread is processing, makes it process once more before it goes
     * idle; otherwise (a step is scheduled, or the job is over) does nothing.
     */
    public void iterate() {
        while (true) {
            int current = status.get();
            State state = stateOf(current);
            if (state == State.IDLE) {
                if (status.compareAndSet(current, State.PROCESSING.ordinal())) {
                    processLoop(false);
                    return;
                }
            } else if (state == State.PROCESSING && (current & ITERATE_AGAIN) == 0) {
                if (status.compareAndSet(current, current | ITERATE_AGAIN)) {
                    return;
                }
            } else {
                return;
            }
        }
    }

    /**
     * The step scheduled by {@link #process()} succeeded. Inside {@code process()} this only
     * records it and the running loop goes on; later, on another thread, this thread resumes
     * the loop: {@link #onSuccess()} then {@code process()}.
     *
     * @throws IllegalStateException when no step was scheduled or it already completed
     */
    @Override
    public void succeeded() {
        while (true) {
            int current = status.get();
            State state = stateOf(current);
            switch (state) {
                case PROCESSING -> {
                    if (status.compareAndSet(current, State.CALLED.ordinal())) {
                        return;
                    }
                }
                case PENDING -> {
                    if (status.compareAndSet(current, State.PROCESSING.ordinal())) {
                        processLoop(true);
                        return;
                    }
                }
                case FAILED, ABORTED, CLOSED -> {
                    if (stepCompletedAfterFailure(current)) {
                        return;
                    }
                }
                case IDLE, CALLED, SUCCEEDED -> throw new IllegalStateException(
                    "succeeded() without a step in flight (no step scheduled, or it already completed): " + this);
            }
        }
    }

    /**
     * The step scheduled by {@link #process()} failed: the job fails with {@code cause}.
     * {@link #onCompleteFailure(Throwable)} runs on this thread, or, when a
     * {@code process()} is still running, on its thread once it returns. Ignored when the job
     * is already over.
     */
    @Override
    public void failed(Throwable cause) {
        while (true) {
            int current = status.get();
            State state = stateOf(current);
            if (state.isFailure()) {
                if (stepCompletedAfterFailure(current)) {
                    return;
                }
            } else if (state == State.SUCCEEDED) {
                if (LOG.isDebugEnabled()) {
                    LOG.debug("Ignoring a failure after success of {}", this, cause);
                }
                return;
            } else if (end(current, State.FAILED, cause, true)) {
                return;
            }
        }
    }

    /**
     * Fails the job from the outside (a timeout, a closing connection), whatever it is doing:
     * no further {@link #process()} starts; {@link #onFailure(Throwable)} runs now on this
     * thread; {@link #onCompleteFailure(Throwable)} runs at the earliest safe point: now when
     * the loop is idle, when {@code process()} returns when it is running, when the step
     * completes when one is scheduled.
     *
     * @return true when this call failed the job; false when it was already over
     */
    public boolean abort(Throwable cause) {
        return end(State.ABORTED, cause, false);
    }

    /**
     * Closes the callback: when idle or succeeded it just stops, and later
     * {@link #iterate()} calls do nothing; when the job is active it is aborted with an
     * {@link IOException}, as by {@link #abort(Throwable)}; a failed job is marked closed.
     */
    public void close() {
        while (true) {
            int current = status.get();
            State state = stateOf(current);
            switch (state) {
                case IDLE, SUCCEEDED -> {
                    if (status.compareAndSet(current, State.CLOSED.ordinal())) {
                        return;
                    }
                }
                case FAILED, ABORTED -> {
                    if ((current & BLOCKERS) != 0 || status.compareAndSet(current, State.CLOSED.ordinal())) {
                        return;
                    }
                }
                case CLOSED -> {
                    return;
                }
                case PROCESSING, CALLED, PENDING -> {
                    if (end(current, State.CLOSED, new IOException("Closed while " + state + ": " + this), false)) {
                        return;
                    }
                }
            }
        }
    }

    /**
     * Makes a succeeded job ready to run again: call it from {@link #onCompleteSuccess()} or
     * after it returned, then {@link #iterate()}.
     *
     * @return true when the callback is now idle; false when it is active, failed or closed
     */
    public boolean reset() {
        while (true) {
            int current = status.get();
            State state = stateOf(current);
            if (state == State.IDLE) {
                return true;
            }
            if (state != State.SUCCEEDED) {
                return false;
            }
            if (status.compareAndSet(current, State.IDLE.ordinal())) {
                return true;
            }
        }
    }

    /** @return whether the loop waits for {@link #iterate()}: no process() runs and no step is scheduled */
    public boolean isIdle() {
        return state() == State.IDLE;
    }

    /** @return whether the job succeeded ({@link #process()} returned {@link Action#SUCCEEDED}) */
    public boolean isSucceeded() {
        return state() == State.SUCCEEDED;
    }

    /** @return whether the job failed through {@link #failed(Throwable)} or a throwing {@link #process()} */
    public boolean isFailed() {
        return state() == State.FAILED;
    }

    /** @return whether the job was {@link #abort(Throwable) aborted} */
    public boolean isAborted() {
        return state() == State.ABORTED;
    }

    /** @return whether the callback was {@link #close() closed} */
    public boolean isClosed() {
        return state() == State.CLOSED;
    }

    @Override
    public String toString() {
        int current = status.get();
        StringBuilder out = new StringBuilder();
        String name = getClass().getSimpleName();
        out.append(name.isEmpty() ? getClass().getName() : name).append('@').append(Integer.toHexString(hashCode()));
        out.append('[').append(stateOf(current));
        appendFlag(out, current, ITERATE_AGAIN, "iterateAgain");
        appendFlag(out, current, PROCESS_RUNNING, "processRunning");
        appendFlag(out, current, STEP_COMPLETED, "stepCompleted");
        appendFlag(out, current, STEP_PENDING, "stepPending");
        appendFlag(out, current, NOTIFYING_FAILURE, "notifyingFailure");
        Throwable cause = failure;
        if (cause != null && stateOf(current).isFailure()) {
            out.append(",cause=").append(cause);
        }
        return out.append(']').toString();
    }

    private static void appendFlag(StringBuilder out, int status, int flag, String name) {
        if ((status & flag) != 0) {
            out.append(',').append(name);
        }
    }

    private static State stateOf(int status) {
        return State.VALUES[status & STATE_MASK];
    }

    private State state() {
        return stateOf(status.get());
    }

    /**
     * Runs process() until it schedules a step that has not completed yet, goes idle, or the
     * job ends. Called by the one thread that moved the state to PROCESSING.
     */
    private void processLoop(boolean stepSucceeded) {
        boolean notifySuccess = stepSucceeded;
        while (true) {
            Action action = null;
            try {
                if (notifySuccess && !state().isFailure()) {
                    onSuccess();
                }
                // The job may have been aborted meanwhile: then start nothing new.
                if (!state().isFailure()) {
                    action = process();
                }
            } catch (Throwable x) {
                end(State.FAILED, x, true);
            }
            Next next = settle(action);
            if (next == Next.STOP) {
                return;
            }
            notifySuccess = next == Next.PROCESS_AFTER_SUCCESS;
        }
    }

    /** Applies what process() returned ({@code null} when it threw or was skipped) to the state. */
    private Next settle(Action action) {
        while (true) {
            int current = status.get();
            State state = stateOf(current);
            switch (state) {
                case PROCESSING -> {
                    if (action == null) {
                        end(State.FAILED, new IllegalStateException("process() returned null: " + this), true);
                        continue;
                    }
                    switch (action) {
                        case IDLE -> {
                            boolean again = (current & ITERATE_AGAIN) != 0;
                            int next = again ? State.PROCESSING.ordinal() : State.IDLE.ordinal();
                            if (status.compareAndSet(current, next)) {
                                return again ? Next.PROCESS : Next.STOP;
                            }
                        }
                        case SCHEDULED -> {
                            if (status.compareAndSet(current, State.PENDING.ordinal())) {
                                return Next.STOP;
                            }
                        }
                        case SUCCEEDED -> {
                            if (status.compareAndSet(current, State.SUCCEEDED.ordinal())) {
                                notifyCompleteSuccess();
                                return Next.STOP;
                            }
                        }
                    }
                }
                case CALLED -> {
                    if (action == Action.SCHEDULED) {
                        if (status.compareAndSet(current, State.PROCESSING.ordinal())) {
                            return Next.PROCESS_AFTER_SUCCESS;
                        }
                    } else {
                        end(State.FAILED, new IllegalStateException("process() returned " + action + " but a step already succeeded: " + this), true);
                    }
                }
                case FAILED, ABORTED, CLOSED -> {
                    int next = current & ~(PROCESS_RUNNING | STEP_COMPLETED);
                    if (action == Action.SCHEDULED && (current & STEP_COMPLETED) == 0) {
                        next |= STEP_PENDING;
                    }
                    if (status.compareAndSet(current, next)) {
                        if ((next & BLOCKERS) == 0) {
                            notifyCompleteFailure();
                        }
                        return Next.STOP;
                    }
                }
                case IDLE, PENDING, SUCCEEDED -> throw new IllegalStateException("The processing thread found " + this);
            }
        }
    }

    /**
     * Moves an active job to the failure state {@code terminal} and notifies the failure.
     *
     * @param stepOver whether the step of the current round is over (true when the step
     *     itself failed or process() threw; false for an abort from the outside)
     * @return false when the job was already over
     */
    private boolean end(State terminal, Throwable cause, boolean stepOver) {
        while (true) {
            int current = status.get();
            State state = stateOf(current);
            if (state == State.SUCCEEDED || state.isFailure()) {
                if (LOG.isDebugEnabled()) {
                    LOG.debug("Ignoring {} of {}", terminal, this, cause);
                }
                return false;
            }
            if (end(current, terminal, cause, stepOver)) {
                return true;
            }
        }
    }

    /**
     * One attempt to move the active status {@code current} to {@code terminal}: what must
     * finish before onCompleteFailure() becomes the blocker flags of the new status.
     *
     * @return whether this call made the move (and notified the failure)
     */
    private boolean end(int current, State terminal, Throwable cause, boolean stepOver) {
        int blockers = switch (stateOf(current)) {
            case IDLE -> NOTIFYING_FAILURE;
            case PROCESSING -> NOTIFYING_FAILURE | PROCESS_RUNNING | (stepOver ? STEP_COMPLETED : 0);
            case CALLED -> NOTIFYING_FAILURE | PROCESS_RUNNING | STEP_COMPLETED;
            case PENDING -> NOTIFYING_FAILURE | (stepOver ? 0 : STEP_PENDING);
            case SUCCEEDED, FAILED, ABORTED, CLOSED -> throw new IllegalStateException("Cannot end " + this);
        };
        if (!status.compareAndSet(current, terminal.ordinal() | blockers)) {
            return false;
        }
        notifyFailure(cause);
        return true;
    }

    /**
     * A step completed after the job failed: clears what waited for it.
     *
     * @return false when the status changed under us and the caller must look again
     */
    private boolean stepCompletedAfterFailure(int current) {
        int next;
        if ((current & STEP_PENDING) != 0) {
            next = current & ~STEP_PENDING;
        } else if ((current & PROCESS_RUNNING) != 0 && (current & STEP_COMPLETED) == 0) {
            next = current | STEP_COMPLETED;
        } else {
            if (LOG.isDebugEnabled()) {
                LOG.debug("Ignoring a completion of {}", this);
            }
            return true;
        }
        if (!status.compareAndSet(current, next)) {
            return false;
        }
        if ((next & BLOCKERS) == 0) {
            notifyCompleteFailure();
        }
        return true;
    }

    /** Run by the one thread that moved the job to a failure state. */
    private void notifyFailure(Throwable cause) {
        failure = cause;
        if (LOG.isDebugEnabled()) {
            LOG.debug("Failing {}", this, cause);
        }
        try {
            onFailure(cause);
        } catch (Throwable x) {
            LOG.warn("onFailure() of {} threw", this, x);
        }
        while (true) {
            int current = status.get();
            int next = current & ~NOTIFYING_FAILURE;
            if (status.compareAndSet(current, next)) {
                if ((next & BLOCKERS) == 0) {
                    notifyCompleteFailure();
                }
                return;
            }
        }
    }

    private void notifyCompleteSuccess() {
        try {
            onCompleteSuccess();
        } catch (Throwable x) {
            LOG.warn("onCompleteSuccess() of {} threw", this, x);
        }
    }

    private void notifyCompleteFailure() {
        Throwable cause = failure;
        try {
            onCompleteFailure(cause);
        } catch (Throwable x) {
            LOG.warn("onCompleteFailure() of {} threw", this, x);
        }
    }
}
