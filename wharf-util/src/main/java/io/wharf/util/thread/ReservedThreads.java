package io.wharf.util.thread;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.wharf.util.component.AbstractLifeCycle;
import io.wharf.util.component.Dumpable;
import io.wharf.util.internal.ParkedThreads;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small, self-sizing set of threads parked and ready to take a task <em>at once</em>: the
 * {@link TryExecutor} behind {@link QueuedThreadPool#tryExecute(Runnable)}, which the
 * {@link AdaptiveExecutionStrategy} uses to hand production to another thread before it
 * runs a blocking task itself.
 *
 * <p><b>Threads.</b> Each reserved thread is a job of the executor given at construction
 * (normally a pool thread): the job parks in a lock-free stack until it is handed a task,
 * runs it, and parks again. Any thread may call {@link #tryExecute(Runnable)}: it pops the
 * most recently parked thread and hands it the task with one compare-and-set, so a task
 * handed is run exactly once, by that thread, at once; when no thread is parked it returns
 * false and, if fewer than {@link #getCapacity()} reserved threads exist and none is already
 * being started, asks the executor for one more, for next time. A thread running a handed
 * task is lent out and does not count against the capacity: the task is often the
 * production of an {@link AdaptiveExecutionStrategy}, which may run for long, and the next
 * hand-off must still find a thread. Back from its task, the thread parks again if the set
 * is below capacity, and otherwise leaves. A reserved thread that waits
 * longer than the idle timeout without a task leaves (its job returns, the pool thread goes
 * back to the pool), so the set follows demand. The component holds no buffers.
 *
 * <p><b>Counts.</b> The number of reserved threads and the number being started are kept
 * together in one atomic long, so that the capacity check and the "one start at a time" check
 * are one compare-and-set.
 *
 * <p><b>Stop.</b> {@link #stop()} makes {@link #tryExecute} return false and tells every
 * parked thread to leave; a thread that is running a handed task finishes it, then leaves. It
 * does not wait for the threads: they belong to the executor, which waits for them.
 */
public class ReservedThreads extends AbstractLifeCycle implements TryExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(ReservedThreads.class);
    private static final Object STOP = new ParkedThreads.Signal("STOP");

    private final Executor executor;
    private final int capacity;
    private final ParkedThreads parked = new ParkedThreads();
    /** High 32 bits: reserved threads parked or being started (not those lent out); low 32 bits: those being started. */
    private final AtomicLong counts = new AtomicLong();
    private final AtomicInteger available = new AtomicInteger();
    private final Set<ReservedThread> threads = ConcurrentHashMap.newKeySet();
    private final LongAdder handed = new LongAdder();
    private final LongAdder missed = new LongAdder();
    private volatile long idleTimeoutNanos = Duration.ofMinutes(1).toNanos();

    /**
     * @param executor runs the reserved threads' jobs (a pool that gives each its own thread)
     * @param capacity the most reserved threads; 0 turns reservation off; negative picks
     *     {@link #defaultCapacity(int)} with no pool bound
     */
    public ReservedThreads(Executor executor, int capacity) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.capacity = capacity < 0 ? defaultCapacity(Integer.MAX_VALUE) : capacity;
    }

    /**
     * @param poolMaxThreads the most threads of the pool that runs the reserved threads
     * @return one reserved thread per core, at most an eighth of the pool, at least one
     */
    public static int defaultCapacity(int poolMaxThreads) {
        int cores = Runtime.getRuntime().availableProcessors();
        return Math.max(1, Math.min(cores, poolMaxThreads / 8));
    }

    /** @return the most reserved threads */
    public int getCapacity() {
        return capacity;
    }

    /** @return how long a reserved thread waits for a task before it leaves */
    public Duration getIdleTimeout() {
        return Duration.ofNanos(idleTimeoutNanos);
    }

    /** @param idleTimeout how long a reserved thread waits for a task before it leaves (positive) */
    public void setIdleTimeout(Duration idleTimeout) {
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("The idle timeout of reserved threads must be positive, not " + idleTimeout);
        }
        this.idleTimeoutNanos = idleTimeout.toNanos();
    }

    /** @return the reserved threads counted against the capacity: parked, or being started (not those lent out to a task) */
    public int getThreads() {
        return threadsOf(counts.get());
    }

    /** @return the reserved threads asked of the executor that have not begun yet (0 or 1) */
    public int getPending() {
        return pendingOf(counts.get());
    }

    /** @return the reserved threads parked, ready to take a task */
    public int getAvailable() {
        return Math.max(0, available.get());
    }

    /** @return how many tasks {@link #tryExecute} handed to a reserved thread */
    public long getHandedCount() {
        return handed.sum();
    }

    /** @return how many times {@link #tryExecute} found no reserved thread */
    public long getMissedCount() {
        return missed.sum();
    }

    /**
     * Hands {@code task} to a parked reserved thread.
     *
     * @return true when a reserved thread took it and runs it now; false when none was parked
     *     (or this is not running), in which case one more may be started for next time
     */
    @Override
    public boolean tryExecute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (parked.handOff(task)) {
            handed.increment();
            return true;
        }
        missed.increment();
        startReservedThread();
        return false;
    }

    @Override
    protected void doStop() {
        int told = parked.handToAll(STOP);
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} told {} parked threads to leave", this, told);
        }
    }

    private void startReservedThread() {
        while (true) {
            long current = counts.get();
            int threads = threadsOf(current);
            int pending = pendingOf(current);
            if (!isRunning() || pending > 0 || threads >= capacity) {
                return;
            }
            if (counts.compareAndSet(current, encode(threads + 1, pending + 1))) {
                break;
            }
        }
        try {
            executor.execute(new ReservedThread());
        } catch (RejectedExecutionException x) {
            add(-1, -1);
            if (LOG.isDebugEnabled()) {
                LOG.debug("{} could not start a reserved thread", this, x);
            }
        }
    }

    private void add(int threads, int pending) {
        while (true) {
            long current = counts.get();
            long next = encode(threadsOf(current) + threads, pendingOf(current) + pending);
            if (counts.compareAndSet(current, next)) {
                return;
            }
        }
    }

    private static long encode(int threads, int pending) {
        return ((long) threads << 32) | (pending & 0xFFFF_FFFFL);
    }

    private static int threadsOf(long counts) {
        return (int) (counts >>> 32);
    }

    private static int pendingOf(long counts) {
        return (int) counts;
    }

    @Override
    public void dump(Appendable out, String indent) throws IOException {
        List<Object> children = new ArrayList<>(threads);
        Dumpable.dumpObjects(out, indent, this, children);
    }

    @Override
    public String toString() {
        long current = counts.get();
        return "ReservedThreads@" + Integer.toHexString(hashCode()) + "{" + state() + ",threads=" + threadsOf(current) + "/" + capacity +
            ",available=" + getAvailable() + ",pending=" + pendingOf(current) + ",handed=" + handed.sum() + ",missed=" + missed.sum() + "}";
    }

    /** What a reserved thread does now, for dumps. */
    private enum Activity {
        STARTING, PARKED, RUNNING
    }

    /**
     * The job of one reserved thread: park, run what is handed, park again; leave on idle
     * timeout or stop. Runs on an executor thread.
     */
    final class ReservedThread implements Runnable {
        private volatile Thread thread;
        private volatile Activity activity = Activity.STARTING;
        private volatile Runnable task;

        @Override
        public void run() {
            thread = Thread.currentThread();
            add(0, -1);
            threads.add(this);
            boolean counted = true;
            try {
                while (true) {
                    Object value = awaitTask();
                    if (!(value instanceof Runnable handedTask)) {
                        return;
                    }
                    // Lent out: it no longer counts, so the next miss reserves another thread while this one runs.
                    add(-1, 0);
                    counted = false;
                    runTask(handedTask);
                    if (!rejoin()) {
                        return;
                    }
                    counted = true;
                }
            } finally {
                threads.remove(this);
                if (counted) {
                    add(-1, 0);
                }
                if (LOG.isDebugEnabled()) {
                    LOG.debug("{} left {}", thread, ReservedThreads.this);
                }
            }
        }

        /** @return whether this thread, back from a handed task, counts again: the set is running and below capacity */
        private boolean rejoin() {
            while (true) {
                long current = counts.get();
                int counted = threadsOf(current);
                if (!isRunning() || counted >= capacity) {
                    return false;
                }
                if (counts.compareAndSet(current, encode(counted + 1, pendingOf(current)))) {
                    return true;
                }
            }
        }

        /** @return the task handed, or something else (STOP, CANCELLED, null) to leave */
        private Object awaitTask() {
            if (!isRunning()) {
                return null;
            }
            ParkedThreads.Waiter waiter = new ParkedThreads.Waiter();
            activity = Activity.PARKED;
            available.incrementAndGet();
            try {
                parked.push(waiter);
                if (!isRunning()) {
                    // Stopped while pushing: the stop may not have seen this waiter.
                    return waiter.cancel() ? null : waiter.value();
                }
                long deadline = System.nanoTime() + idleTimeoutNanos;
                while (true) {
                    Object value = waiter.await(deadline - System.nanoTime());
                    if (value != null) {
                        return value;
                    }
                    boolean interrupted = Thread.interrupted();
                    if (!interrupted || !isRunning() || deadline - System.nanoTime() <= 0) {
                        // Idle too long (or stopping): leave, unless a task came in the meantime.
                        return waiter.cancel() ? null : waiter.value();
                    }
                }
            } finally {
                available.decrementAndGet();
            }
        }

        private void runTask(Runnable handedTask) {
            activity = Activity.RUNNING;
            task = handedTask;
            try {
                handedTask.run();
            } catch (Throwable x) {
                LOG.warn("{} task {} failed", ReservedThreads.this, handedTask, x);
            } finally {
                task = null;
                Thread.interrupted();
            }
        }

        @Override
        public String toString() {
            Thread thread = this.thread;
            Runnable task = this.task;
            return "ReservedThread@" + Integer.toHexString(hashCode()) + "{" + (thread == null ? "-" : thread.getName()) + "," + activity +
                (task == null ? "" : "," + task) + "}";
        }
    }
}
