package io.wharf.util.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The idle side of a thread pool: where a worker that found the job queue empty waits, and
 * the rules for waking one. The pool's workers call it on their own threads; any thread that
 * makes the queue non-empty calls {@link #jobMadeQueueNonEmpty()}. It holds threads and
 * counts, no buffers; the pool owns the queue and starts the threads.
 *
 * <p><b>Waking for a job.</b> A job that makes the queue non-empty may find no worker awake
 * to take it: it wakes the most recently idle worker, or has the pool start one. A job queued
 * behind others wakes nobody: the worker that takes the job ahead of it sees it.
 *
 * <p><b>Watching the backlog.</b> A worker that takes a job and sees others left behind it
 * cannot know whether its job will take 100 ns or block for a second. Waking another worker
 * at once, every time, thrashes when jobs are tiny: the woken worker finds the queue drained
 * and parks again, and a park with its unpark costs more than the jobs. Waking nobody strands
 * the backlog behind a job that blocks, maybe on a job queued behind it. So the worker only
 * makes sure that somebody <em>watches</em> ({@link #jobsLeftBehind}): it claims the pool's
 * one {@link BacklogWatch} and hands it to an idle worker, or to a new thread. The watcher,
 * still counted idle, looks at the queue once per period. While the queue moves it watches
 * on; once empty, it goes back to waiting; when a job it saw queued is still queued a period
 * later, the running workers are stuck, and the watcher takes that job itself and wakes as
 * many more workers as there were running ones, so that a pool stuck on blocking jobs doubles
 * its running workers each period rather than adding one. Tiny jobs cost one watcher per
 * burst; a backlog waits about one period before the pool grows.
 *
 * <p><b>No lost wake-up.</b> An idle worker pushes its waiter, then looks at the queue once
 * more before it parks: a job that made the queue non-empty meanwhile is either seen by that
 * look or finds the waiter to wake. A watcher gives the watch back before it polls again, so a
 * worker that saw jobs left while the watch was still held (and so did not claim it) left
 * them for that poll.
 *
 * <p><b>Shrinking.</b> A worker idle for a whole idle timeout, above the pool's minimum, ends
 * if it wins the {@link ThreadCount}'s shrink for the period (one thread per period for the
 * whole pool).
 */
public final class IdleWorkers {

    /** Returned to a worker that won a shrink: the pool no longer counts it, and it ends. Never run. */
    public static final Runnable SHRUNK = new Runnable() {
        @Override
        public void run() {
            throw new IllegalStateException("SHRUNK is a marker, not a job");
        }

        @Override
        public String toString() {
            return "SHRUNK";
        }
    };

    private static final Object WAKE_UP = new ParkedThreads.Signal("WAKE_UP");
    private static final Object WATCH = new ParkedThreads.Signal("WATCH");

    private final Pool pool;
    private final ThreadCount threads;
    private final long watchPeriodNanos;
    private final ParkedThreads parked = new ParkedThreads();
    private final BacklogWatch backlog = new BacklogWatch();
    private final AtomicInteger count = new AtomicInteger();
    private volatile Thread watcher;

    /** What the idle workers need from their pool. */
    public interface Pool {
        /** @return whether the pool runs; once it does not, waits end and nobody is woken for a job */
        boolean isRunning();

        /**
         * Starts one more worker unless the pool has its maximum of threads or does not run;
         * with {@code watching}, the new worker first {@link #watch}es the backlog (it is handed
         * the caller's claim of the watch).
         *
         * @return whether a worker was started
         */
        boolean startWorker(boolean watching);
    }

    /**
     * @param pool the pool that starts the workers
     * @param threads the pool's thread count, which a shrink counts down
     * @param watchPeriodNanos how long the watcher waits between two looks at the queue
     */
    public IdleWorkers(Pool pool, ThreadCount threads, long watchPeriodNanos) {
        if (watchPeriodNanos <= 0) {
            throw new IllegalArgumentException("The watch period must be positive, not " + watchPeriodNanos + " ns");
        }
        this.pool = pool;
        this.threads = threads;
        this.watchPeriodNanos = watchPeriodNanos;
    }

    /** @return the workers waiting for a job or watching the backlog */
    public int count() {
        return Math.max(0, count.get());
    }

    /** @return the worker thread watching the backlog now, or null */
    public Thread watcher() {
        return watcher;
    }

    /** Called after a job went into an empty queue: wakes an idle worker for it, or has the pool start one. */
    public void jobMadeQueueNonEmpty() {
        if (!parked.handOff(WAKE_UP)) {
            pool.startWorker(false);
        }
    }

    /**
     * Called by a worker that took a job and saw others queued behind it: makes sure a worker
     * watches them. Costs two reads when the backlog is already watched, or when every thread
     * is busy and the pool has its maximum of threads (nobody could help).
     */
    public void jobsLeftBehind(JobQueue<?> jobs, int maxThreads) {
        if ((!parked.isEmpty() || threads.get() < maxThreads) && backlog.claim(jobs)) {
            appointWatcher();
        }
    }

    /** Hands the caller's claim of the watch to an idle worker, else to a new worker, else gives it back. */
    private void appointWatcher() {
        if (parked.handOff(WATCH) || pool.startWorker(true)) {
            return;
        }
        // Every thread is busy and none can be added: each looks at the queue before it goes idle.
        backlog.release();
    }

    /**
     * Called on a worker's thread when it has no job: takes one from {@code jobs}, waiting for
     * it (or watching the backlog, when handed the watch) as long as the pool runs.
     *
     * @return a job; {@link #SHRUNK} when the worker won a shrink; null when the pool stopped
     */
    public Runnable awaitJob(JobQueue<Runnable> jobs, int minThreads, int maxThreads, long idleTimeoutNanos) {
        while (pool.isRunning()) {
            Runnable next = jobs.poll();
            if (next != null) {
                return next;
            }
            ParkedThreads.Waiter waiter = new ParkedThreads.Waiter();
            Object signal;
            count.incrementAndGet();
            try {
                parked.push(waiter);
                // Look again: a job offered before the push found no waiter to wake.
                next = pool.isRunning() ? jobs.poll() : null;
                if (next != null || !pool.isRunning()) {
                    if (!waiter.cancel() && waiter.value() == WATCH) {
                        // Handed the watch although it took a job (or stops): pass the watch on.
                        if (next != null) {
                            appointWatcher();
                        } else {
                            backlog.release();
                        }
                    }
                    // A WAKE_UP needs no passing on: this worker took a job and sees any left behind it.
                    return next;
                }
                signal = idleWait(waiter, minThreads, idleTimeoutNanos);
            } finally {
                count.decrementAndGet();
            }
            if (signal == WATCH) {
                next = watch(jobs);
                if (next != null) {
                    return next;
                }
            } else if (signal == null && !keepAfterShrink(jobs, maxThreads)) {
                return SHRUNK;
            }
        }
        return null;
    }

    /** @return the signal handed to the waiter; null when the worker won a shrink */
    private Object idleWait(ParkedThreads.Waiter waiter, int minThreads, long idleTimeoutNanos) {
        while (true) {
            Object signal = waiter.await(idleTimeoutNanos);
            if (signal != null) {
                return signal;
            }
            if (!pool.isRunning()) {
                return waiter.cancel() ? WAKE_UP : waiter.value();
            }
            if (Thread.interrupted() || !threads.mayShrink(minThreads, idleTimeoutNanos)) {
                // Keep the same waiter: no garbage is left in the stack by long idle waits.
                continue;
            }
            if (!waiter.cancel()) {
                return waiter.value();
            }
            return threads.shrink(minThreads, idleTimeoutNanos) ? null : WAKE_UP;
        }
    }

    /**
     * A job offered while this worker was shrinking may have found no idle waiter and no room
     * to start a thread (this one was still counted): then this worker stays.
     *
     * @return true when the worker counted itself again and goes on
     */
    private boolean keepAfterShrink(JobQueue<Runnable> jobs, int maxThreads) {
        return !jobs.isEmpty() && pool.isRunning() && threads.incrementBelow(maxThreads);
    }

    /**
     * Watches the backlog on the calling worker's thread, which holds the watch (handed by
     * {@link #jobsLeftBehind}, directly or through {@link Pool#startWorker}), counted idle
     * meanwhile; see the class comment. Gives the watch back when it returns.
     *
     * @return the job to run after a stall; null when the queue emptied or the pool stopped
     */
    public Runnable watch(JobQueue<Runnable> jobs) {
        watcher = Thread.currentThread();
        count.incrementAndGet();
        try {
            while (pool.isRunning()) {
                long deadline = System.nanoTime() + watchPeriodNanos;
                for (long left = watchPeriodNanos; left > 0 && pool.isRunning(); left = deadline - System.nanoTime()) {
                    LockSupport.parkNanos(this, left);
                    // Nobody interrupts an idle worker but a stop, which isRunning() tells.
                    Thread.interrupted();
                }
                if (!pool.isRunning()) {
                    // Jobs still queued at a stop are the pool's to report, not to run.
                    return null;
                }
                switch (backlog.look(jobs)) {
                    case MOVING -> {
                        continue;
                    }
                    case STALLED -> {
                        Runnable next = jobs.poll();
                        if (next != null) {
                            wakeMore(jobs);
                        }
                        return next;
                    }
                    case EMPTY -> {
                        return null;
                    }
                }
            }
            return null;
        } finally {
            count.decrementAndGet();
            watcher = null;
            backlog.release();
        }
    }

    /** After a stall: the running workers are stuck, so as many more as there are join them (this one included). */
    private void wakeMore(JobQueue<Runnable> jobs) {
        int more = Math.min(threads.get() - count() - 1, jobs.size());
        for (; more > 0; more--) {
            if (!parked.handOff(WAKE_UP) && !pool.startWorker(false)) {
                return;
            }
        }
    }

    /** Wakes every idle worker and the watcher, so that they see the pool stopped and end. */
    public void wakeAll() {
        parked.handToAll(WAKE_UP);
        Thread watching = watcher;
        if (watching != null) {
            LockSupport.unpark(watching);
        }
    }

    /** Forgets a watch that a worker of a previous run may have ended holding; call before the pool starts. */
    public void reset() {
        backlog.release();
    }

    @Override
    public String toString() {
        return "IdleWorkers{idle=" + count() + "," + backlog + "}";
    }
}
