package io.wharf.util.component;

import java.util.EventListener;

/**
 * A component that starts and stops. Components form a tree (see {@link ContainerLifeCycle}):
 * starting a parent starts its managed children first, stopping it stops them after.
 *
 * <p>{@link #start()} and {@link #stop()} are called by one thread at a time (the owner);
 * the state may be read from any thread.
 */
public interface LifeCycle {

    /** Where a component is in its life. */
    enum State {
        STOPPED, STARTING, STARTED, STOPPING, FAILED
    }

    /**
     * Starts the component; does nothing when already started.
     *
     * @throws Exception the cause when starting failed; the component is then {@link State#FAILED}
     */
    void start() throws Exception;

    /**
     * Stops the component; does nothing when already stopped.
     *
     * @throws Exception the cause when stopping failed; the component is then {@link State#FAILED}
     */
    void stop() throws Exception;

    /** @return the current state */
    State state();

    /** @return whether the component is starting or started */
    default boolean isRunning() {
        State state = state();
        return state == State.STARTED || state == State.STARTING;
    }

    /** @return whether the component is started */
    default boolean isStarted() {
        return state() == State.STARTED;
    }

    /** @return whether the component is stopped (never started, or stopped since) */
    default boolean isStopped() {
        return state() == State.STOPPED;
    }

    /** @return whether the last start or stop failed */
    default boolean isFailed() {
        return state() == State.FAILED;
    }

    /** Adds a listener told of every state change. */
    void addListener(Listener listener);

    /** Removes a listener. */
    void removeListener(Listener listener);

    /** Told of a component's state changes, on the thread that changes it. */
    interface Listener extends EventListener {
        default void starting(LifeCycle component) {
        }

        default void started(LifeCycle component) {
        }

        default void stopping(LifeCycle component) {
        }

        default void stopped(LifeCycle component) {
        }

        default void failed(LifeCycle component, Throwable cause) {
        }
    }

    /** Starts {@code component} when it is a {@link LifeCycle}, wrapping checked failures. */
    static void start(Object component) {
        if (component instanceof LifeCycle lifeCycle) {
            try {
                lifeCycle.start();
            } catch (RuntimeException x) {
                throw x;
            } catch (Exception x) {
                throw new IllegalStateException("Failed to start " + component, x);
            }
        }
    }

    /** Stops {@code component} when it is a {@link LifeCycle}, wrapping checked failures. */
    static void stop(Object component) {
        if (component instanceof LifeCycle lifeCycle) {
            try {
                lifeCycle.stop();
            } catch (RuntimeException x) {
                throw x;
            } catch (Exception x) {
                throw new IllegalStateException("Failed to stop " + component, x);
            }
        }
    }
}
