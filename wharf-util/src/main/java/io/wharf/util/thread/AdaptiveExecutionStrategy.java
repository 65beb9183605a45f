package io.wharf.util.thread;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;
import io.wharf.util.component.Dumpable;
import io.wharf.util.internal.UnrunJobs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The "eat what you kill" {@link ExecutionStrategy}: it runs a {@link Producer} (for example a
 * selector that produces "this connection is readable" tasks) and, task by task, chooses the
 * thread that consumes it, so that a task runs on the thread that produced it (its data still
 * hot in that core's cache) whenever that is safe, and on another thread when it is not.
 *
 * <p><b>Who calls what.</b> Any thread may call {@link #produce()} (production runs on the
 * caller) or {@link #dispatch()} (production runs on the executor). At most one thread
 * produces at a time. A call that arrives while another thread produces only marks the
 * production as pending and returns; the producing thread, when the producer has no task,
 * sees the mark and asks the producer again before it gives up production, so no wake-up is
 * lost. The strategy holds no buffers: the producer and its tasks own theirs.
 *
 * <p><b>Modes.</b> For each task produced, by the task's {@link Invocable#typeOf(Object)
 * invocation type} and whether the producing thread promised not to block
 * ({@link Invocable#isNonBlockingInvocation()}):
 * <pre>
 *   task type     thread may block            thread in non-blocking mode
 *   NON_BLOCKING  PC                          PC
 *   EITHER        EPC if a reserved thread    PC, run through Invocable.invokeNonBlocking
 *                 takes production, else PEC
 *   BLOCKING      EPC if a reserved thread    PEC (this thread must not block)
 *                 takes production, else PEC
 *
 *   PC  produce-consume:          run the task here, then produce again.
 *   EPC execute-produce-consume:  hand production to a reserved thread (TryExecutor), then
 *                                 run the task here; this thread stops producing.
 *   PEC produce-execute-consume:  hand the task to the executor, then produce again.
 * </pre>
 * <pre>
 *   selector thread S:   produce ─ t1(NB) run ─ produce ─ t2(B): tryExecute(production) ok ─ run t2 ...
 *   reserved thread R:                                     └── produce ─ t3(NB) run ─ produce ...
 * </pre>
 *
 * <p><b>Why production never starves.</b> The failure to avoid: every thread is blocked in
 * application code, waiting for something only a task not yet produced would bring (a
 * handler blocked reading a body whose bytes are in a buffer the selector has not produced
 * yet), and no thread is left to produce it. Here the production is always owned by exactly
 * one thread, or by none when the producer said "nothing now" and no call is pending (then
 * the next event calls produce or dispatch again). The owner runs inline only tasks that
 * promised not to block (NON_BLOCKING, or EITHER in non-blocking mode), which return. A task
 * that may block runs inline only after {@link TryExecutor#tryExecute} has given production
 * to another thread that runs it at once (EPC): ownership moves before this thread can block.
 * Otherwise the task goes to the executor (PEC) and the owner goes on producing. So the
 * producing thread never blocks in a task, and every produced release reaches the tasks that
 * wait for it. Blocked consumers can still fill the executor; a bounded pool bounds how many
 * block at once, not whether production goes on. {@code StarvationTest} shows the difference
 * against a strategy that runs blocking tasks inline.
 *
 * <p><b>Chaining.</b> A task may itself call another strategy's {@link #produce()} (the I/O
 * strategy produces a connection task that drives the HTTP/2 stream strategy). Nothing here
 * is per thread: state lives in this object, so strategies nest on one thread freely.
 *
 * <p><b>Rejection.</b> When the executor rejects a task (PEC) the strategy logs it; a task
 * that is {@link Closeable} is closed and a task that is a {@link Callback} is failed with
 * the rejection, so that what it holds is released; any other task is dropped (and counted,
 * see {@link #getRejectedCount()}). A rejected {@link #dispatch()} is logged and the strategy
 * goes back to idle, ready for the next call.
 *
 * <p><b>State.</b> One atomic holds the {@link State}: IDLE, DISPATCHED (a production job
 * waits in the executor), PRODUCING, or PENDING (producing, and asked to produce again).
 */
public class AdaptiveExecutionStrategy implements ExecutionStrategy, Dumpable {

    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveExecutionStrategy.class);

    /** Who produces, as one value. */
    enum State {
        /** No thread produces and none is asked to. */
        IDLE,
        /** A production job was given to the executor and has not begun. */
        DISPATCHED,
        /** One thread produces. */
        PRODUCING,
        /** One thread produces, and a call asked for production since: it produces once more before it stops. */
        PENDING
    }

    /** How one task is consumed. */
    private enum Mode {
        PRODUCE_CONSUME, PRODUCE_INVOKE_NON_BLOCKING, EXECUTE_PRODUCE_CONSUME, PRODUCE_EXECUTE_CONSUME
    }

    private final AtomicReference<State> state = new AtomicReference<>(State.IDLE);
    private final Producer producer;
    private final Executor executor;
    private final TryExecutor tryExecutor;
    private final Runnable dispatchedProduction;
    private final Runnable handedProduction;
    private final LongAdder produceConsume = new LongAdder();
    private final LongAdder executeProduceConsume = new LongAdder();
    private final LongAdder produceExecuteConsume = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private volatile Thread producerThread;

    /**
     * @param producer makes the tasks
     * @param executor runs tasks in PEC mode and dispatched production; when it is also a
     *     {@link TryExecutor} its reserved threads take production in EPC mode, else EPC never happens
     */
    public AdaptiveExecutionStrategy(Producer producer, Executor executor) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.tryExecutor = executor instanceof TryExecutor candidate ? candidate : TryExecutor.NONE;
        InvocationType productionType = Invocable.typeOf(producer);
        this.dispatchedProduction = new Production(productionType, false);
        this.handedProduction = new Production(productionType, true);
    }

    @Override
    public void produce() {
        while (true) {
            State current = state.get();
            switch (current) {
                case IDLE, DISPATCHED -> {
                    if (state.compareAndSet(current, State.PRODUCING)) {
                        produceWhileOwner();
                        return;
                    }
                }
                case PRODUCING -> {
                    if (state.compareAndSet(State.PRODUCING, State.PENDING)) {
                        return;
                    }
                }
                case PENDING -> {
                    return;
                }
            }
        }
    }

    @Override
    public void dispatch() {
        while (true) {
            State current = state.get();
            switch (current) {
                case IDLE -> {
                    if (state.compareAndSet(State.IDLE, State.DISPATCHED)) {
                        try {
                            executor.execute(dispatchedProduction);
                        } catch (RejectedExecutionException x) {
                            state.compareAndSet(State.DISPATCHED, State.IDLE);
                            LOG.warn("{} could not dispatch production: {}", this, x.toString());
                        }
                        return;
                    }
                }
                case PRODUCING -> {
                    if (state.compareAndSet(State.PRODUCING, State.PENDING)) {
                        return;
                    }
                }
                case DISPATCHED, PENDING -> {
                    return;
                }
            }
        }
    }

    /** Produces while this thread owns production (state PRODUCING or PENDING); returns once it gave it up. */
    private void produceWhileOwner() {
        producerThread = Thread.currentThread();
        while (true) {
            Runnable task = nextTask();
            if (task == null) {
                producerThread = null;
                if (state.compareAndSet(State.PRODUCING, State.IDLE)) {
                    return;
                }
                producerThread = Thread.currentThread();
                // PENDING: someone asked while this thread was producing; only the owner leaves PENDING.
                state.compareAndSet(State.PENDING, State.PRODUCING);
                continue;
            }
            switch (selectMode(task)) {
                case PRODUCE_CONSUME -> {
                    produceConsume.increment();
                    runTask(task);
                }
                case PRODUCE_INVOKE_NON_BLOCKING -> {
                    produceConsume.increment();
                    Invocable.invokeNonBlocking(() -> runTask(task));
                }
                case PRODUCE_EXECUTE_CONSUME -> {
                    produceExecuteConsume.increment();
                    execute(task);
                }
                case EXECUTE_PRODUCE_CONSUME -> {
                    // Production now belongs to the reserved thread: this thread must not touch the state again.
                    executeProduceConsume.increment();
                    runTask(task);
                    return;
                }
            }
        }
    }

    private Mode selectMode(Runnable task) {
        InvocationType type = Invocable.typeOf(task);
        boolean nonBlockingThread = Invocable.isNonBlockingInvocation();
        if (type == InvocationType.NON_BLOCKING) {
            return Mode.PRODUCE_CONSUME;
        }
        if (nonBlockingThread) {
            return type == InvocationType.EITHER ? Mode.PRODUCE_INVOKE_NON_BLOCKING : Mode.PRODUCE_EXECUTE_CONSUME;
        }
        // On success the reserved thread owns production, and may already be producing.
        return tryExecutor.tryExecute(handedProduction) ? Mode.EXECUTE_PRODUCE_CONSUME : Mode.PRODUCE_EXECUTE_CONSUME;
    }

    private Runnable nextTask() {
        try {
            return producer.produce();
        } catch (Throwable x) {
            LOG.warn("{} producer {} failed", this, producer, x);
            return null;
        }
    }

    private void runTask(Runnable task) {
        try {
            task.run();
        } catch (Throwable x) {
            LOG.warn("{} task {} failed", this, task, x);
        }
    }

    private void execute(Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException x) {
            rejected.increment();
            UnrunJobs.Outcome outcome = UnrunJobs.settle(task, x);
            LOG.warn("{} could not execute {} ({}): {}", this, task, outcome, x.toString());
        }
    }

    /** @return the tasks run by the producing thread (produce-consume), EITHER ones in non-blocking mode included */
    public long getProduceConsumeCount() {
        return produceConsume.sum();
    }

    /** @return the tasks run by the producing thread after it handed production to a reserved thread */
    public long getExecuteProduceConsumeCount() {
        return executeProduceConsume.sum();
    }

    /** @return the tasks handed to the executor while the producing thread kept producing */
    public long getProduceExecuteConsumeCount() {
        return produceExecuteConsume.sum();
    }

    /** @return the tasks the executor rejected */
    public long getRejectedCount() {
        return rejected.sum();
    }

    /** @return who produces now */
    State state() {
        return state.get();
    }

    @Override
    public void dump(Appendable out, String indent) throws IOException {
        Thread thread = producerThread;
        Dumpable.dumpObjects(out, indent, this, List.of("producer: " + producer, "producing thread: " + (thread == null ? "-" : thread.getName()),
            "executor: " + executor, "tryExecutor: " + tryExecutor));
    }

    @Override
    public String toString() {
        return "AdaptiveExecutionStrategy@" + Integer.toHexString(hashCode()) + "{" + state.get() + ",produceConsume=" + produceConsume.sum() +
            ",executeProduceConsume=" + executeProduceConsume.sum() + ",produceExecuteConsume=" + produceExecuteConsume.sum() + ",rejected=" +
            rejected.sum() + "}";
    }

    /**
     * Production as a job: dispatched to the executor (it then competes like any produce
     * call), or handed to a reserved thread in EPC mode (it then already owns production).
     * A {@link ThreadPool.PlatformJob}: production may wait in a selector, which is no work
     * for a virtual thread.
     */
    private final class Production implements Invocable.Task, ThreadPool.PlatformJob {
        private final InvocationType type;
        private final boolean handed;

        private Production(InvocationType type, boolean handed) {
            this.type = type;
            this.handed = handed;
        }

        @Override
        public void run() {
            if (handed) {
                produceWhileOwner();
            } else {
                produce();
            }
        }

        @Override
        public InvocationType invocationType() {
            return type;
        }

        @Override
        public String toString() {
            return (handed ? "HandedProduction" : "DispatchedProduction") + "[" + AdaptiveExecutionStrategy.this + "]";
        }
    }
}
