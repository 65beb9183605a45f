package io.wharf.util.internal;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

import io.wharf.util.Callback;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What becomes of a job that will not run, because its executor rejected it or stopped with
 * it still queued: a {@link Closeable} job is closed, a {@link Callback} job is failed with
 * the rejection, so that what they hold (a connection, a buffer, a waiting caller) is
 * released; any other job is dropped, and said so. Called on the thread that found the job
 * unrunnable (a stopping pool, a producing thread).
 */
public final class UnrunJobs {

    private static final Logger LOG = LoggerFactory.getLogger(UnrunJobs.class);
    private static final int EXAMPLES = 5;

    /** What was done with a job that did not run. */
    public enum Outcome {
        CLOSED, FAILED, DROPPED
    }

    private UnrunJobs() {
    }

    /**
     * Closes, fails or drops {@code job}. A failure to close or fail is logged, not thrown.
     *
     * @return what was done
     */
    public static Outcome settle(Runnable job, RejectedExecutionException cause) {
        try {
            if (job instanceof Closeable closeable) {
                closeable.close();
                return Outcome.CLOSED;
            }
            if (job instanceof Callback callback) {
                callback.failed(cause);
                return Outcome.FAILED;
            }
        } catch (Throwable x) {
            LOG.warn("Could not close or fail the job {} that did not run", job, x);
        }
        return Outcome.DROPPED;
    }

    /**
     * Takes every job out of {@code queue}, settles each, and logs one warning with the counts
     * and a few examples, naming {@code owner}.
     *
     * @return how many jobs were taken out
     */
    public static int settleAll(JobQueue<Runnable> queue, Object owner, String reason) {
        int[] outcomes = new int[Outcome.values().length];
        List<String> examples = new ArrayList<>();
        Runnable job;
        while ((job = queue.poll()) != null) {
            if (examples.size() < EXAMPLES) {
                examples.add(String.valueOf(job));
            }
            outcomes[settle(job, new RejectedExecutionException(reason + ": " + job)).ordinal()]++;
            if (LOG.isDebugEnabled()) {
                LOG.debug("{} did not run {}", owner, job);
            }
        }
        int total = outcomes[0] + outcomes[1] + outcomes[2];
        if (total > 0) {
            LOG.warn("{} did not run {} queued jobs: {} closed, {} failed, {} dropped; for example {}", owner, total, outcomes[Outcome.CLOSED.ordinal()],
                outcomes[Outcome.FAILED.ordinal()], outcomes[Outcome.DROPPED.ordinal()], examples);
        }
        return total;
    }
}
