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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;
import io.wharf.util.component.ContainerLifeCycle;
import io.wharf.util.component.Dumpable;
import io.wharf.util.component.LifeCycle;
import io.wharf.util.internal.IdleWorkers;
import io.wharf.util.internal.JobQueue;
import io.wharf.util.internal.ThreadCount;
import io.wharf.util.internal.UnrunJobs;
import io.wharf.util.internal.VirtualThreadJobs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wharf's thread pool: platform threads, started on demand between a minimum and a maximum,
 * taking jobs from a lock-free queue; plus a {@link ReservedThreads} component for
 * {@link #tryExecute(Runnable)}, and optionally virtual threads for blocking jobs.
 *
 * <p><b>Who calls what.</b> Any thread may {@link #execute(Runnable)}: the job is appended
 * to the queue (a {@code JobQueue}, padded so that producers and consumers do not share a
 * cache line). Workers take jobs in order, run them, and go idle only after they saw the
 * queue empty. So a job needs a wake-up only when it makes the queue non-empty: then the
 * most recently idle worker is woken or, if none is idle and fewer than
 * {@link #getMaxThreads()} threads exist, one more is started.
 *
 * <p><b>Growing.</b> A worker that takes a job and sees others queued behind it does not wake
 * another worker at once: for tiny jobs such wake-ups cost more than the jobs, and the woken
 * workers find the queue drained. It makes sure that one idle worker (or a new thread)
 * watches the queue; the watcher joins in, and wakes as many more workers as were running,
 * only when a job stayed queued for a whole watch period of 100 µs. So tiny jobs keep few
 * threads awake, while slow or blocking jobs double the running workers each period up to
 * the maximum, and a job queued behind one that blocks until it runs still runs. The
 * {@code IdleWorkers} class comment gives the rules, and why no wake-up is lost.
 *
 * <p><b>Shrinking.</b> An idle worker above {@link #getMinThreads()} that waits longer than
 * the idle timeout ends, but at most one per idle timeout period for the whole pool, so that
 * the pool shrinks gently after a burst instead of collapsing. The pool owns no buffers; a
 * job owns what it carries.
 *
 * <p><b>Bound.</b> With {@link #setMaxQueued(int)} the queue holds at most that many jobs; a
 * job beyond is rejected with a {@link RejectedExecutionException} naming the pool and the
 * limit. A stopped pool rejects every job.
 *
 * <p><b>Virtual threads.</b> With {@link #setUseVirtualThreads(boolean)} a job whose
 * {@link Invocable#typeOf(Object)} is {@link InvocationType#BLOCKING} never waits for a
 * platform thread: it runs on a pool thread that is idle at that moment, and otherwise on a new
 * virtual thread, so a burst of blocking work never queues behind the pool's maximum. The idle
 * pool thread comes first because it is cheaper: a worker that finds the next job queued runs
 * it without sleeping, where each virtual thread is a hand-off to its carrier (one core, small
 * servlet requests: 11.2 against 17.5 µs of server CPU per request). With
 * {@link #setPreferIdlePlatformThreads(boolean) setPreferIdlePlatformThreads(false)} every
 * BLOCKING job gets its own virtual thread. Non-blocking and EITHER jobs, the reserved threads
 * and {@link #tryExecute} stay on platform threads. (Seeing a thread idle and queueing the job
 * are two steps: when two jobs race for the last idle thread, one waits in the queue as any
 * queued job does, until a worker frees or the watcher starts one.)
 *
 * <p><b>Failures.</b> A job that throws is logged and its thread carries on. A worker that
 * ends abnormally (a failure outside any job) is replaced while the pool runs.
 *
 * <p><b>Stop.</b> {@link #stop()} rejects new jobs, stops the reserved threads, wakes the
 * idle workers through their waiters so that they end (rather than interrupting them, which
 * could hit a worker that has just taken a job), waits up to the stop timeout for running
 * jobs to finish, then interrupts the threads still running and waits up to the stop
 * timeout once more; a thread that still has not ended is logged with the top of its stack. Queued jobs that did not run
 * are taken out and reported: a {@link Closeable} job is closed, a {@link Callback} job is
 * failed with a {@link RejectedExecutionException}, any other is logged as dropped; one
 * warning gives the counts. {@link #join()} waits until the pool stopped and every thread
 * (virtual ones included) ended.
 */
public class QueuedThreadPool extends ContainerLifeCycle implements ThreadPool, TryExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(QueuedThreadPool.class);
    private static final AtomicInteger POOLS = new AtomicInteger();
    /** How long a job queued behind running ones may wait before the watcher joins: about what waking a thread costs. */
    private static final long WATCH_PERIOD_MICROSECONDS = 100;
    private static final int STACK_FRAMES_REPORTED = 6;

    private final ThreadCount threads = new ThreadCount();
    private final AtomicInteger threadNumbers = new AtomicInteger();
    private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
    private final IdleWorkers idleWorkers = new IdleWorkers(new WorkerStarter(), threads, TimeUnit.MICROSECONDS.toNanos(WATCH_PERIOD_MICROSECONDS));
    private final Object joinLock = new Object();
    private final VirtualThreadJobs virtualJobs = new VirtualThreadJobs(this, this::signalJoiners);
    private volatile JobQueue<Runnable> jobs = new JobQueue<>();
    private volatile ReservedThreads reservedThreads;
    private volatile String name = "wharf-pool-" + POOLS.incrementAndGet();
    private volatile int minThreads;
    private volatile int maxThreads;
    private volatile int reservedCapacity = -1;
    private volatile boolean daemon;
    private volatile long idleTimeoutNanos = Duration.ofMinutes(1).toNanos();
    private volatile long stopTimeoutNanos = Duration.ofSeconds(5).toNanos();
    private volatile boolean useVirtualThreads;
    private volatile boolean preferIdlePlatformThreads = true;
    private volatile Executor virtualThreadsExecutor;

    /** A pool of 8 to 200 threads. */
    public QueuedThreadPool() {
        this(8, 200);
    }

    /** A pool of up to {@code maxThreads} threads, at least 8 (or {@code maxThreads} if fewer). */
    public QueuedThreadPool(int maxThreads) {
        this(Math.min(8, maxThreads), maxThreads);
    }

    /** A pool of {@code minThreads} to {@code maxThreads} threads. */
    public QueuedThreadPool(int minThreads, int maxThreads) {
        checkSizes(minThreads, maxThreads);
        this.minThreads = minThreads;
        this.maxThreads = maxThreads;
        addListener(new LifeCycle.Listener() {
            @Override
            public void stopped(LifeCycle component) {
                signalJoiners();
            }

            @Override
            public void failed(LifeCycle component, Throwable cause) {
                signalJoiners();
            }
        });
    }

    private static void checkSizes(int minThreads, int maxThreads) {
        if (minThreads < 0 || maxThreads < 1 || minThreads > maxThreads) {
            throw new IllegalArgumentException("A pool needs 0 <= minThreads <= maxThreads and maxThreads >= 1, not min=" + minThreads + ", max=" + maxThreads);
        }
    }

    // ---- configuration ----------------------------------------------------------------------

    /** @return the prefix of the pool's thread names, also the pool's name in messages */
    public String getName() {
        return name;
    }

    /** @param name the prefix of the pool's thread names; set it before starting */
    public void setName(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    public int getMinThreads() {
        return minThreads;
    }

    /** @param minThreads the threads kept even when idle; started at once when running */
    public void setMinThreads(int minThreads) {
        checkSizes(minThreads, maxThreads);
        this.minThreads = minThreads;
        if (isRunning()) {
            ensureMinThreads();
        }
    }

    public int getMaxThreads() {
        return maxThreads;
    }

    /** @param maxThreads the most platform threads the pool runs at once */
    public void setMaxThreads(int maxThreads) {
        checkSizes(minThreads, maxThreads);
        this.maxThreads = maxThreads;
    }

    /** @return the most jobs the queue holds; {@link Integer#MAX_VALUE} when unbounded (the default) */
    public int getMaxQueued() {
        return jobs.maxSize();
    }

    /** @param maxQueued the most jobs the queue holds before execute rejects; only while stopped */
    public void setMaxQueued(int maxQueued) {
        if (!isStopped()) {
            throw new IllegalStateException("The queue bound of " + name + " is set while the pool is stopped, not " + state());
        }
        this.jobs = new JobQueue<>(maxQueued);
    }

    public boolean isDaemon() {
        return daemon;
    }

    /** @param daemon whether the pool's platform threads are daemon threads */
    public void setDaemon(boolean daemon) {
        this.daemon = daemon;
    }

    public Duration getIdleTimeout() {
        return Duration.ofNanos(idleTimeoutNanos);
    }

    /** @param idleTimeout how long a thread above the minimum waits idle before it ends; also one shrink period */
    public void setIdleTimeout(Duration idleTimeout) {
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("The idle timeout of " + name + " must be positive, not " + idleTimeout);
        }
        this.idleTimeoutNanos = idleTimeout.toNanos();
        ReservedThreads reserved = reservedThreads;
        if (reserved != null) {
            reserved.setIdleTimeout(idleTimeout);
        }
    }

    public Duration getStopTimeout() {
        return Duration.ofNanos(stopTimeoutNanos);
    }

    /** @param stopTimeout how long stop waits for running jobs, and again after interrupting them */
    public void setStopTimeout(Duration stopTimeout) {
        if (stopTimeout.isNegative()) {
            throw new IllegalArgumentException("The stop timeout of " + name + " must not be negative, not " + stopTimeout);
        }
        this.stopTimeoutNanos = stopTimeout.toNanos();
    }

    /** @return the capacity asked of the reserved threads; negative means derived from cores and pool size */
    public int getReservedThreads() {
        return reservedCapacity;
    }

    /** @param capacity the most reserved threads (0 disables tryExecute); negative derives it; only while stopped */
    public void setReservedThreads(int capacity) {
        if (!isStopped()) {
            throw new IllegalStateException("The reserved threads of " + name + " are set while the pool is stopped, not " + state());
        }
        this.reservedCapacity = capacity;
    }

    public boolean isUseVirtualThreads() {
        return useVirtualThreads;
    }

    /** @param useVirtualThreads whether BLOCKING jobs run on virtual threads when no pool thread is idle (default false) */
    public void setUseVirtualThreads(boolean useVirtualThreads) {
        this.useVirtualThreads = useVirtualThreads;
    }

    public boolean isPreferIdlePlatformThreads() {
        return preferIdlePlatformThreads;
    }

    /**
     * @param prefer with virtual threads on, whether a BLOCKING job runs on a pool thread that is
     *     idle when it comes (true, the default) rather than always on a new virtual thread (false)
     */
    public void setPreferIdlePlatformThreads(boolean prefer) {
        this.preferIdlePlatformThreads = prefer;
    }

    /**
     * Runs BLOCKING jobs with {@code executor}, which should start a virtual thread per job,
     * and turns the option on; null turns it off.
     */
    public void setVirtualThreadsExecutor(Executor executor) {
        this.virtualThreadsExecutor = executor;
        this.useVirtualThreads = executor != null;
    }

    // ---- counters ---------------------------------------------------------------------------

    /** @return the platform threads alive (or being started), reserved threads included */
    @Override
    public int getThreads() {
        return threads.get();
    }

    /** @return the platform threads parked waiting for a job, or watching the queue */
    @Override
    public int getIdleThreads() {
        return idleWorkers.count();
    }

    /** @return the reserved threads parked, ready for {@link #tryExecute} */
    public int getReservedAvailable() {
        ReservedThreads reserved = reservedThreads;
        return reserved == null ? 0 : reserved.getAvailable();
    }

    /** @return the platform threads running a job, not counting parked reserved threads */
    public int getBusyThreads() {
        return Math.max(0, getThreads() - getIdleThreads() - getReservedAvailable());
    }

    /** @return the threads that could take work now: idle ones and parked reserved ones */
    public int getReadyThreads() {
        return getIdleThreads() + getReservedAvailable();
    }

    /** @return the BLOCKING jobs given to virtual threads that have not ended */
    public int getVirtualThreads() {
        return virtualJobs.count();
    }

    /** @return the jobs waiting in the queue */
    public int getQueueSize() {
        return jobs.size();
    }

    /** @return whether every platform thread the pool may have exists and the queue holds more jobs than idle threads */
    @Override
    public boolean isLowOnThreads() {
        return getThreads() >= maxThreads && getQueueSize() > getIdleThreads();
    }

    // ---- life cycle -------------------------------------------------------------------------

    @Override
    protected void doStart() throws Exception {
        threads.restartShrinkClock();
        idleWorkers.reset();
        int capacity = reservedCapacity < 0 ? ReservedThreads.defaultCapacity(maxThreads) : reservedCapacity;
        ReservedThreads reserved = new ReservedThreads(this::executeOnPlatformThread, capacity);
        reserved.setIdleTimeout(getIdleTimeout());
        reservedThreads = reserved;
        addBean(reserved, true);
        super.doStart();
        ensureMinThreads();
    }

    @Override
    protected void doStop() throws Exception {
        // The state is STOPPING: execute rejects, and workers end after their current job.
        ReservedThreads reserved = reservedThreads;
        try {
            super.doStop();
        } finally {
            reservedThreads = null;
            removeBean(reserved);
            idleWorkers.wakeAll();
            long timeout = stopTimeoutNanos;
            if (!awaitThreads(timeout)) {
                interruptThreads();
                if (!awaitThreads(timeout)) {
                    reportThreadsNotEnded();
                }
            }
            reportJobsNotRun();
        }
    }

    /** Waits until the pool has stopped and all its threads, virtual ones included, have ended. */
    @Override
    public void join() throws InterruptedException {
        synchronized (joinLock) {
            while (!(isStopped() || isFailed()) || !workers.isEmpty() || virtualJobs.count() > 0) {
                joinLock.wait();
            }
        }
    }

    private void signalJoiners() {
        synchronized (joinLock) {
            joinLock.notifyAll();
        }
    }

    /** @return whether every thread (but the caller's) ended within the timeout */
    private boolean awaitThreads(long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        synchronized (joinLock) {
            while (!threadsToStop().isEmpty() || virtualJobs.count() > (virtualJobs.threads().contains(Thread.currentThread()) ? 1 : 0)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(joinLock, left);
            }
            return true;
        }
    }

    private void interruptThreads() {
        for (Thread thread : threadsToStop()) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("{} interrupts {}", this, thread);
            }
            thread.interrupt();
        }
    }

    private void reportThreadsNotEnded() {
        for (Thread thread : threadsToStop()) {
            String running = "";
            for (Worker worker : workers) {
                Runnable job = worker.job;
                if (worker.thread == thread && job != null) {
                    running = " running " + job;
                }
            }
            StringBuilder stack = new StringBuilder();
            StackTraceElement[] frames = thread.getStackTrace();
            for (int i = 0; i < Math.min(STACK_FRAMES_REPORTED, frames.length); i++) {
                stack.append(System.lineSeparator()).append("\tat ").append(frames[i]);
            }
            LOG.warn("{} stopped but its thread {} did not end ({}{}){}", this, thread.getName(), thread.getState(), running, stack);
        }
    }

    /** @return the threads, platform and virtual, that stop waits for: all but the caller's own */
    private List<Thread> threadsToStop() {
        List<Thread> result = new ArrayList<>();
        for (Worker worker : workers) {
            Thread thread = worker.thread;
            if (thread != null && thread != Thread.currentThread()) {
                result.add(thread);
            }
        }
        for (Thread thread : virtualJobs.threads()) {
            if (thread != Thread.currentThread()) {
                result.add(thread);
            }
        }
        return result;
    }

    /** Takes the queued jobs out after a stop: closes, fails or drops them, and says so once. */
    private void reportJobsNotRun() {
        UnrunJobs.settleAll(jobs, this, name + " stopped before running the job");
    }

    // ---- executing --------------------------------------------------------------------------

    /**
     * Queues {@code job} for a platform thread, or starts a virtual thread for it when that
     * option is on, the job is BLOCKING (and not a {@link ThreadPool.PlatformJob}) and no pool
     * thread is idle (or idle ones are not preferred).
     *
     * @throws RejectedExecutionException when the pool is not running or its queue is full
     */
    @Override
    public void execute(Runnable job) {
        Objects.requireNonNull(job, "job");
        if (useVirtualThreads && !(job instanceof ThreadPool.PlatformJob) && Invocable.typeOf(job) == InvocationType.BLOCKING
                && !(preferIdlePlatformThreads && idleWorkers.count() > 0)) {
            executeOnVirtualThread(job);
        } else {
            executeOnPlatformThread(job);
        }
    }

    /** @return whether a reserved thread took {@code task} to run it now (see {@link ReservedThreads}) */
    @Override
    public boolean tryExecute(Runnable task) {
        ReservedThreads reserved = reservedThreads;
        return reserved != null && reserved.tryExecute(task);
    }

    private void executeOnPlatformThread(Runnable job) {
        if (!isRunning()) {
            throw new RejectedExecutionException(name + " is " + state() + " and rejects " + job);
        }
        JobQueue<Runnable> jobs = this.jobs;
        switch (jobs.append(job)) {
            case REFUSED -> throw new RejectedExecutionException(name + " queue is full (maxQueued=" + jobs.maxSize() + ") and rejects " + job);
            // The queue was empty, so maybe no worker is awake to see the job: wake one, or start one.
            case FIRST -> idleWorkers.jobMadeQueueNonEmpty();
            // The worker that takes the job ahead sees this one, and makes sure a worker watches it.
            case BEHIND -> {
            }
        }
        if (!isRunning()) {
            // A stop raced with this job: it may have taken out the queue already.
            reportJobsNotRun();
        }
    }

    private void executeOnVirtualThread(Runnable job) {
        if (!isRunning()) {
            throw new RejectedExecutionException(name + " is " + state() + " and rejects " + job);
        }
        Executor executor = virtualThreadsExecutor;
        if (executor == null) {
            executor = VirtualThreadJobs.threadPerJob(name + "-virtual-");
            virtualThreadsExecutor = executor;
        }
        virtualJobs.execute(executor, job);
    }

    private void ensureMinThreads() {
        while (threads.incrementBelow(minThreads)) {
            startThread(false);
        }
    }

    /** Starts a worker, which watches the backlog first when {@code watching}, unless the pool is at its maximum. */
    private boolean startThreadIfBelowMax(boolean watching) {
        return threads.incrementBelow(maxThreads) && startThread(watching);
    }

    /** Starts a worker whose place in {@link #threads} the caller has already counted; uncounts it if it fails. */
    private boolean startThread(boolean watching) {
        Worker worker = new Worker(watching);
        boolean started = false;
        try {
            Thread thread = new Thread(worker, name + "-" + threadNumbers.incrementAndGet());
            thread.setDaemon(daemon);
            // Not the starting thread's loader: a thread started while a web application's code runs
            // would otherwise keep that application's class loader for as long as it lives.
            thread.setContextClassLoader(QueuedThreadPool.class.getClassLoader());
            worker.thread = thread;
            workers.add(worker);
            thread.start();
            started = true;
        } catch (Throwable x) {
            LOG.warn("{} could not start a thread", this, x);
        } finally {
            if (!started) {
                workers.remove(worker);
                threads.decrement();
            }
        }
        return started;
    }

    /** How the idle workers have this pool start a worker. */
    private final class WorkerStarter implements IdleWorkers.Pool {
        @Override
        public boolean isRunning() {
            return QueuedThreadPool.this.isRunning();
        }

        @Override
        public boolean startWorker(boolean watching) {
            return isRunning() && startThreadIfBelowMax(watching);
        }
    }

    // ---- dump -------------------------------------------------------------------------------

    @Override
    public void dump(Appendable out, String indent) throws IOException {
        List<Object> children = new ArrayList<>();
        for (Worker worker : workers) {
            children.add(worker.describe());
        }
        for (Thread thread : virtualJobs.threads()) {
            children.add(thread + " " + thread.getState() + " virtual");
        }
        children.add(jobs);
        children.addAll(getBeans(Object.class));
        Dumpable.dumpObjects(out, indent, this, children);
    }

    @Override
    public String toString() {
        ReservedThreads reserved = reservedThreads;
        return "QueuedThreadPool[" + name + "]@" + Integer.toHexString(hashCode()) + "{" + state() + ",threads=" + getThreads() + " (min " + minThreads +
            ", max " + maxThreads + "),idle=" + getIdleThreads() + ",busy=" + getBusyThreads() + ",reserved=" + getReservedAvailable() + "/" +
            (reserved == null ? 0 : reserved.getThreads()) + ",queued=" + getQueueSize() + (useVirtualThreads ? ",virtual=" + getVirtualThreads() : "") + "}";
    }

    // ---- the worker -------------------------------------------------------------------------

    /** The loop of one platform thread: take a job, run it, wait idle (or watch the queue) when there is none. */
    private final class Worker implements Runnable {
        private final boolean watchFirst;
        private volatile Thread thread;
        private volatile Runnable job;
        /** Set when this worker won a shrink and so is no longer counted in {@link #threads}. */
        private boolean uncounted;

        private Worker(boolean watchFirst) {
            this.watchFirst = watchFirst;
        }

        @Override
        public void run() {
            boolean abnormal = false;
            try {
                Runnable next = watchFirst ? idleWorkers.watch(jobs) : null;
                if (next == null) {
                    next = nextJob();
                }
                while (next != null) {
                    JobQueue<Runnable> jobs = QueuedThreadPool.this.jobs;
                    if (!jobs.isEmpty()) {
                        // Jobs wait behind this one, which may take long: make sure a worker watches them.
                        idleWorkers.jobsLeftBehind(jobs, maxThreads);
                    }
                    runJob(next);
                    next = nextJob();
                }
            } catch (Throwable x) {
                abnormal = true;
                LOG.error("{} thread {} failed outside any job; replacing it", QueuedThreadPool.this, thread, x);
            } finally {
                workers.remove(this);
                if (!uncounted) {
                    threads.decrement();
                }
                if (abnormal && isRunning()) {
                    ensureMinThreads();
                    if (!jobs.isEmpty()) {
                        startThreadIfBelowMax(false);
                    }
                }
                signalJoiners();
            }
        }

        /** @return the next job, waiting for it while idle; null when this thread ends */
        private Runnable nextJob() {
            Runnable next = idleWorkers.awaitJob(jobs, minThreads, maxThreads, idleTimeoutNanos);
            if (next == IdleWorkers.SHRUNK) {
                uncounted = true;
                return null;
            }
            return next;
        }

        private void runJob(Runnable next) {
            job = next;
            try {
                next.run();
            } catch (Throwable x) {
                LOG.warn("{} job {} failed", QueuedThreadPool.this, next, x);
            } finally {
                job = null;
                // An interrupt meant for the job must not wake this thread's next idle wait.
                Thread.interrupted();
            }
        }

        private String describe() {
            Thread thread = this.thread;
            if (thread == null) {
                return "starting";
            }
            Runnable job = this.job;
            if (job == null) {
                return thread.getName() + " " + thread.getState() + (thread == idleWorkers.watcher() ? " idle, watching the queue" : " idle");
            }
            StackTraceElement[] frames = thread.getStackTrace();
            return thread.getName() + " " + thread.getState() + " busy: " + job + (frames.length == 0 ? "" : " at " + frames[0]);
        }
    }
}
