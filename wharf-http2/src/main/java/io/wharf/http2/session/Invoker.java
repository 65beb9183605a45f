package io.wharf.http2.session;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.Scheduler;

/**
 * How an {@link Http2Session} runs the application's code (demand tasks, callbacks): inline
 * when it declares itself NON_BLOCKING, else on the executor, so that the reading thread is
 * never blocked by the application; inline after all when the executor refuses (it is shutting
 * down). Holds the scheduler of the session's timeouts too.
 *
 * <p>Any thread, never with the session's lock held. Thread-safe (immutable).
 */
final class Invoker {

    private final Executor executor;
    private final Scheduler scheduler;

    /** @param scheduler the scheduler of timeouts, or null for none */
    Invoker(Executor executor, Scheduler scheduler) {
        this.executor = executor;
        this.scheduler = scheduler;
    }

    /** Runs {@code task} inline when it is NON_BLOCKING, else on the executor. */
    void invoke(Runnable task) {
        if (Invocable.typeOf(task) == InvocationType.NON_BLOCKING) {
            task.run();
        } else {
            execute(task);
        }
    }

    void succeed(Callback callback) {
        if (callback.invocationType() == InvocationType.NON_BLOCKING) {
            callback.succeeded();
        } else {
            execute(callback::succeeded);
        }
    }

    void fail(Callback callback, Throwable cause) {
        if (callback.invocationType() == InvocationType.NON_BLOCKING) {
            callback.failed(cause);
        } else {
            execute(() -> callback.failed(cause));
        }
    }

    /** Runs {@code task} on the executor, or inline when it refuses. */
    void execute(Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException x) {
            task.run();
        }
    }

    /** @return the scheduler of timeouts, or null */
    Scheduler scheduler() {
        return scheduler;
    }
}
