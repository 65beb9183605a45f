package io.wharf.util.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The jobs a thread pool gave to virtual threads, counted from the moment they are handed to
 * the executor until they end, and the threads that run them, so that the pool can report,
 * interrupt and wait for them when it stops. Any thread may {@link #execute}; each job's own
 * virtual thread ends it. A failing job is logged, never thrown at the virtual thread. Jobs
 * own what they carry; this holds only counts and threads.
 */
public final class VirtualThreadJobs {

    private static final Logger LOG = LoggerFactory.getLogger(VirtualThreadJobs.class);

    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger jobs = new AtomicInteger();
    private final Object owner;
    private final Runnable onJobEnd;

    /**
     * @param owner named in log messages (the pool)
     * @param onJobEnd run after each job ends, on its thread (the pool wakes whoever waits for its threads)
     */
    public VirtualThreadJobs(Object owner, Runnable onJobEnd) {
        this.owner = owner;
        this.onJobEnd = onJobEnd;
    }

    /** @return an executor that starts one virtual thread per job, named {@code prefix} and a number */
    public static Executor threadPerJob(String prefix) {
        ThreadFactory factory = Thread.ofVirtual().name(prefix, 0).factory();
        ClassLoader loader = VirtualThreadJobs.class.getClassLoader();
        return task -> {
            Thread thread = factory.newThread(task);
            // As the pool's platform threads: not the loader of whatever thread handed the job over.
            thread.setContextClassLoader(loader);
            thread.start();
        };
    }

    /** Hands {@code job} to {@code executor}, counted until it ends; rethrows what the executor throws. */
    public void execute(Executor executor, Runnable job) {
        jobs.incrementAndGet();
        try {
            executor.execute(new Job(job));
        } catch (Throwable x) {
            jobs.decrementAndGet();
            onJobEnd.run();
            throw x;
        }
    }

    /** @return the jobs handed over and not ended, started or not */
    public int count() {
        return jobs.get();
    }

    /** @return the threads running a job now */
    public Set<Thread> threads() {
        return threads;
    }

    private final class Job implements Runnable {
        private final Runnable job;

        private Job(Runnable job) {
            this.job = job;
        }

        @Override
        public void run() {
            Thread thread = Thread.currentThread();
            threads.add(thread);
            try {
                job.run();
            } catch (Throwable x) {
                LOG.warn("{} job {} failed on {}", owner, job, thread, x);
            } finally {
                threads.remove(thread);
                jobs.decrementAndGet();
                onJobEnd.run();
            }
        }

        @Override
        public String toString() {
            return String.valueOf(job);
        }
    }
}
