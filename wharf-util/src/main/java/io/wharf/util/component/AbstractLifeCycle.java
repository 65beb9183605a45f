package io.wharf.util.component;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state machine of a {@link LifeCycle}: subclasses write {@link #doStart()} and
 * {@link #doStop()}; this class keeps the state, serialises start and stop, tells listeners
 * and records failures.
 *
 * <p>A failed start leaves the component {@link State#FAILED}; calling {@link #stop()} then
 * still runs {@link #doStop()} so that what was half started is released.
 */
public abstract class AbstractLifeCycle implements LifeCycle, Dumpable {

    private static final Logger LOG = LoggerFactory.getLogger(AbstractLifeCycle.class);

    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private volatile State state = State.STOPPED;

    /** Starts what this component owns; called once per start, under the start lock. */
    protected void doStart() throws Exception {
    }

    /** Stops what this component owns; called once per stop, under the start lock. */
    protected void doStop() throws Exception {
    }

    @Override
    public final void start() throws Exception {
        synchronized (lock) {
            if (state == State.STARTED || state == State.STARTING) {
                return;
            }
            setState(State.STARTING, null);
            try {
                doStart();
                setState(State.STARTED, null);
            } catch (Throwable x) {
                setState(State.FAILED, x);
                throw x;
            }
        }
    }

    @Override
    public final void stop() throws Exception {
        synchronized (lock) {
            if (state == State.STOPPED || state == State.STOPPING) {
                return;
            }
            setState(State.STOPPING, null);
            try {
                doStop();
                setState(State.STOPPED, null);
            } catch (Throwable x) {
                setState(State.FAILED, x);
                throw x;
            }
        }
    }

    private void setState(State next, Throwable cause) {
        state = next;
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} {}", next, this, cause);
        }
        if (next == State.FAILED) {
            LOG.warn("{} failed: {}", this, String.valueOf(cause));
        }
        for (Listener listener : listeners) {
            try {
                switch (next) {
                    case STARTING -> listener.starting(this);
                    case STARTED -> listener.started(this);
                    case STOPPING -> listener.stopping(this);
                    case STOPPED -> listener.stopped(this);
                    case FAILED -> listener.failed(this, cause);
                }
            } catch (Throwable x) {
                LOG.warn("Listener {} failed on {} of {}", listener, next, this, x);
            }
        }
    }

    @Override
    public State state() {
        return state;
    }

    @Override
    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(Listener listener) {
        listeners.remove(listener);
    }

    @Override
    public void dump(Appendable out, String indent) throws IOException {
        out.append(dumpSelf()).append(System.lineSeparator());
    }

    @Override
    public String dumpSelf() {
        return toString();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "@" + Integer.toHexString(hashCode()) + "{" + state + "}";
    }
}
