package io.wharf.client.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.util.thread.Scheduler;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's total timeouts, kept with one scheduled check at a time instead of a scheduled
 * task per request. A request adds itself with its deadline and removes itself when it ends,
 * which costs a set insert and a removal; the scheduler is asked only when a deadline comes
 * before the check already scheduled. A check expires every deadline that has passed and
 * schedules the next at the earliest left. With requests that end well within their timeout,
 * as nearly all do, that is one check per timeout's length, where a task per request woke the
 * scheduler's thread about every third request (its queue's head changed) and took its lock
 * twice per request.
 *
 * <p><b>Threads.</b> Any thread adds and removes; checks run on the scheduler's thread, and so
 * does {@link Expirable#expire()}. Whoever takes a deadline out of the set first (its end, or a
 * check) decides: a deadline is expired at most once, and never after it was removed. A check
 * may run late or more than once for the same time (a later check scheduled before an earlier
 * one); it then finds nothing to do.
 */
public final class Deadlines {

    private static final Logger LOG = LoggerFactory.getLogger(Deadlines.class);
    /** {@link #checkAt} when no check is scheduled. */
    private static final long NONE = Long.MAX_VALUE;

    /** Something with a deadline: a conversation and its total timeout. */
    interface Expirable {
        /** @return when it expires, on {@link System#nanoTime()}'s clock */
        long deadlineNanos();

        /** Its deadline passed before it ended. */
        void expire();
    }

    private final Set<Expirable> pending = ConcurrentHashMap.newKeySet();
    /** When the next scheduled check runs, or {@link #NONE}. */
    private final AtomicLong checkAt = new AtomicLong(NONE);

    /**
     * Starts counting {@code expirable}'s deadline.
     *
     * @throws RejectedExecutionException when the scheduler is not running; nothing is counted then
     */
    void add(Expirable expirable, Scheduler scheduler) {
        pending.add(expirable);
        try {
            checkBy(expirable.deadlineNanos(), scheduler);
        } catch (RejectedExecutionException x) {
            pending.remove(expirable);
            throw x;
        }
    }

    /** Stops counting {@code expirable}'s deadline: it ended; a no-op once it expired. */
    void remove(Expirable expirable) {
        pending.remove(expirable);
    }

    /** Forgets every deadline: the client stopped, and its scheduler dropped the scheduled check. */
    public void clear() {
        pending.clear();
        checkAt.set(NONE);
    }

    /** Makes sure a check runs no later than {@code deadline}. */
    private void checkBy(long deadline, Scheduler scheduler) {
        while (true) {
            long at = checkAt.get();
            if (at != NONE && at - deadline <= 0) {
                return;
            }
            if (checkAt.compareAndSet(at, deadline)) {
                try {
                    scheduler.schedule(() -> check(scheduler), Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException x) {
                    checkAt.compareAndSet(deadline, NONE);
                    throw x;
                }
                return;
            }
        }
    }

    /** On the scheduler's thread: expires what passed, then schedules the next check. */
    private void check(Scheduler scheduler) {
        // Before looking: a deadline added during the look, that this look misses, schedules its own check.
        checkAt.set(NONE);
        long now = System.nanoTime();
        long next = NONE;
        for (Expirable expirable : pending) {
            long deadline = expirable.deadlineNanos();
            if (deadline - now <= 0) {
                if (pending.remove(expirable)) {
                    expire(expirable);
                }
            } else if (next == NONE || deadline - next < 0) {
                next = deadline;
            }
        }
        if (next != NONE) {
            try {
                checkBy(next, scheduler);
            } catch (RejectedExecutionException x) {
                // The client is stopping: what is left fails with it.
                LOG.debug("No further check of {} deadlines: the scheduler stopped", pending.size());
            }
        }
    }

    private static void expire(Expirable expirable) {
        try {
            expirable.expire();
        } catch (Throwable x) {
            LOG.warn("Expiring {} failed", expirable, x);
        }
    }

    @Override
    public String toString() {
        long at = checkAt.get();
        return "Deadlines{" + pending.size() + " pending, next check " + (at == NONE ? "none" : "in " + TimeUnit.NANOSECONDS.toMillis(at - System.nanoTime()) + " ms") + "}";
    }
}
