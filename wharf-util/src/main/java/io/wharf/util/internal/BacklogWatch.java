package io.wharf.util.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The thread pool's watch over jobs queued behind running ones: a claim that at most one
 * worker holds at a time (the watcher), and the mark that tells the watcher whether the jobs
 * it saw queued at its last look are still queued. {@link IdleWorkers} says who watches and
 * why; this holds two numbers and a flag, no threads and no buffers.
 *
 * <p><b>Threads.</b> Any worker may call {@link #isClaimed()} and {@link #claim}; the claim's
 * holder, and only it, calls {@link #look} and {@link #release()}.
 */
public final class BacklogWatch {

    private static final VarHandle CLAIMED;

    static {
        try {
            CLAIMED = MethodHandles.lookup().findVarHandle(BacklogWatch.class, "claimed", boolean.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    @SuppressWarnings("unused") // accessed through CLAIMED
    private volatile boolean claimed;
    /** The last position that was appended when the watch last looked (or was claimed). */
    private volatile long mark;

    /** What the watcher saw. */
    public enum Look {
        /** Nothing is queued: the watch is no longer needed. */
        EMPTY,
        /** Every job queued at the last look has been taken since: the running workers keep up. */
        MOVING,
        /** A job queued at the last look is still queued: no worker took it for a whole period. */
        STALLED
    }

    /** @return whether a worker holds the watch (or is being handed it) */
    public boolean isClaimed() {
        return claimed;
    }

    /**
     * Claims the watch for a watcher the caller will find, and marks what is queued now.
     *
     * @return true when the caller got the claim; it then hands it on or {@link #release}s it
     */
    public boolean claim(JobQueue<?> jobs) {
        if (claimed || !CLAIMED.compareAndSet(this, false, true)) {
            return false;
        }
        mark = jobs.appended();
        return true;
    }

    /** Gives the claim back: the next worker that sees jobs left behind its own claims it again. */
    public void release() {
        claimed = false;
    }

    /**
     * The watcher's look at the queue, once per period; it moves the mark on when the queue moves.
     *
     * @return what it saw
     */
    public Look look(JobQueue<?> jobs) {
        long taken = jobs.taken();
        long appended = jobs.appended();
        if (taken >= appended) {
            return Look.EMPTY;
        }
        if (taken < mark) {
            return Look.STALLED;
        }
        mark = appended;
        return Look.MOVING;
    }

    @Override
    public String toString() {
        return "BacklogWatch{" + (claimed ? "claimed" : "unclaimed") + ",mark=" + mark + "}";
    }
}
