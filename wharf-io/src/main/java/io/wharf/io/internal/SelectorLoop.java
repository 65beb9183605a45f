package io.wharf.io.internal;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.wharf.util.component.AbstractLifeCycle;
import io.wharf.util.component.Dumpable;
import io.wharf.util.thread.ExecutionStrategy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link Selector} and the loop that produces tasks from it.
 *
 * <p>The loop is an {@link ExecutionStrategy.Producer}: each call to {@link Producer#produce()}
 * returns the task of the next selected key ({@link Selectable#onSelected()}); when the keys
 * of one select are used up it applies interest updates ({@link Selectable#updateKey()}),
 * runs submitted actions and selects again. The execution strategy decides whether a task
 * runs on the producing thread or another, and may move production to another thread: at
 * any time exactly one thread produces, so the producer's fields need no locking.
 *
 * <p>Idle timeouts of the loop's endpoints are checked by an {@link IdleSweep} after each
 * select, and the select waits no longer than the next sweep is due.
 *
 * <p>Other threads talk to the selector only through {@link #submit(Object)}: a lock-free
 * queue of actions plus a wake-up that is issued only when the selector is (about to be)
 * blocked in select, decided by one atomic flag.
 */
public final class SelectorLoop extends AbstractLifeCycle implements Dumpable {

    private static final Logger LOG = LoggerFactory.getLogger(SelectorLoop.class);

    private final int id;
    private final Executor executor;
    private final Function<ExecutionStrategy.Producer, ExecutionStrategy> strategyFactory;
    private final Queue<Object> actions = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean selecting = new AtomicBoolean();
    private final Producer producer = new Producer();
    private final IdleSweep idleSweep = new IdleSweep();
    private volatile Selector selector;
    private volatile CountDownLatch stopped;
    private final AtomicInteger openEndPoints = new AtomicInteger();
    private final EndPointListener listener;

    /** Told when endpoints of this loop close. */
    public interface EndPointListener {
        void closed(SocketChannelEndPoint endPoint, Throwable cause);
    }

    public SelectorLoop(int id, Executor executor, Function<ExecutionStrategy.Producer, ExecutionStrategy> strategyFactory, EndPointListener listener) {
        this.id = id;
        this.executor = executor;
        this.strategyFactory = strategyFactory;
        this.listener = listener;
    }

    @Override
    protected void doStart() throws IOException {
        selector = Selector.open();
        stopped = new CountDownLatch(1);
        ExecutionStrategy strategy = strategyFactory.apply(producer);
        // The loop waits in the selector: a platform thread's work, even when blocking jobs get virtual threads.
        executor.execute((io.wharf.util.thread.ThreadPool.PlatformJob) strategy::produce);
    }

    @Override
    protected void doStop() throws InterruptedException {
        CountDownLatch latch = stopped;
        submit((Runnable) producer::closeAll);
        if (!latch.await(10, TimeUnit.SECONDS)) {
            LOG.warn("{} did not stop within 10 s", this);
        }
    }

    /** @return the selector; valid while started */
    public Selector selector() {
        return selector;
    }

    /**
     * Hands an action to the selector thread: a {@link Selectable} (its key is updated) or a
     * {@link Runnable} (run there; must not block). Any thread.
     */
    public void submit(Object action) {
        actions.offer(action);
        wakeup();
    }

    /** An endpoint closed its channel: make the selector cycle so the socket is released now. */
    void wakeupForClose() {
        wakeup();
    }

    /**
     * An endpoint of this loop now has this idle timeout; any thread. Wakes the selector only
     * when the timeout shortens the sweep period, so that a select waiting for the old period
     * does not delay the sweep.
     */
    void idleTimeoutSet(long idleTimeoutMillis) {
        if (idleSweep.noticeTimeout(idleTimeoutMillis)) {
            wakeup();
        }
    }

    private void wakeup() {
        if (selecting.compareAndSet(true, false)) {
            Selector selector = this.selector;
            if (selector != null) {
                selector.wakeup();
            }
        }
    }

    void onEndPointClosed(SocketChannelEndPoint endPoint, Throwable cause) {
        openEndPoints.decrementAndGet();
        listener.closed(endPoint, cause);
    }

    /** Counts an endpoint opened on this loop. */
    public void onEndPointOpened() {
        openEndPoints.incrementAndGet();
    }

    /** @return the number of endpoints open on this loop */
    public int openEndPoints() {
        return openEndPoints.get();
    }

    private final class Producer implements ExecutionStrategy.Producer {
        private SelectionKey[] keys = new SelectionKey[64];
        private Selectable[] selected = new Selectable[64];
        private int keyCount;
        private int keyIndex;
        private int selectedCount;
        private boolean closed;

        @Override
        public Runnable produce() {
            while (true) {
                Runnable task = nextTask();
                if (task != null) {
                    return task;
                }
                updateKeys();
                if (closed || !select()) {
                    return null;
                }
            }
        }

        private Runnable nextTask() {
            while (keyIndex < keyCount) {
                SelectionKey key = keys[keyIndex];
                keys[keyIndex++] = null;
                Object attachment = key.attachment();
                if (!(attachment instanceof Selectable selectable)) {
                    continue;
                }
                selected[selectedCount++] = selectable;
                if (!key.isValid()) {
                    continue;
                }
                try {
                    Runnable task = selectable.onSelected();
                    if (task != null) {
                        return task;
                    }
                } catch (Throwable x) {
                    LOG.warn("Selection of {} failed", selectable, x);
                }
            }
            return null;
        }

        private void updateKeys() {
            for (int i = 0; i < selectedCount; i++) {
                Selectable selectable = selected[i];
                selected[i] = null;
                try {
                    selectable.updateKey();
                } catch (Throwable x) {
                    LOG.warn("Key update of {} failed", selectable, x);
                }
            }
            selectedCount = 0;
            keyCount = 0;
            keyIndex = 0;
        }

        /** @return false when the selector closed and the loop must end */
        private boolean select() {
            try {
                runActions();
                if (closed) {
                    return false;
                }
                selecting.set(true);
                int count;
                if (actions.isEmpty()) {
                    long timeout = idleSweep.millisToNextSweep(System.nanoTime());
                    count = timeout > 0 ? selector.select(this::collect, timeout) : selector.select(this::collect);
                } else {
                    count = selector.selectNow(this::collect);
                }
                selecting.set(false);
                idleSweep.sweepIfDue(selector, System.nanoTime());
                if (LOG.isDebugEnabled()) {
                    LOG.debug("Selected {} on {}", count, SelectorLoop.this);
                }
                return true;
            } catch (ClosedSelectorException x) {
                return false;
            } catch (Throwable x) {
                LOG.warn("Select failed on {}", SelectorLoop.this, x);
                closeAll();
                return false;
            }
        }

        private void collect(SelectionKey key) {
            if (keyCount == keys.length) {
                keys = Arrays.copyOf(keys, keyCount * 2);
                selected = Arrays.copyOf(selected, keyCount * 2);
            }
            keys[keyCount++] = key;
        }

        private void runActions() {
            Object action;
            while ((action = actions.poll()) != null) {
                try {
                    if (action instanceof Selectable selectable) {
                        selectable.updateKey();
                    } else {
                        ((Runnable) action).run();
                    }
                } catch (Throwable x) {
                    LOG.warn("Selector action {} failed", action, x);
                }
            }
        }

        /** Closes every channel of this selector and the selector itself; runs on the selector thread. */
        private void closeAll() {
            if (closed) {
                return;
            }
            closed = true;
            Selector selector = SelectorLoop.this.selector;
            List<Selectable> attachments = new ArrayList<>();
            try {
                for (SelectionKey key : selector.keys()) {
                    if (key.attachment() instanceof Selectable selectable) {
                        attachments.add(selectable);
                    }
                }
            } catch (ClosedSelectorException ignored) {
                // already closed
            }
            for (Selectable selectable : attachments) {
                try {
                    selectable.onSelectorClosing();
                } catch (Throwable x) {
                    LOG.warn("Closing {} failed", selectable, x);
                }
            }
            try {
                selector.close();
            } catch (IOException x) {
                LOG.warn("Closing selector failed", x);
            }
            stopped.countDown();
        }
    }

    @Override
    public String dumpSelf() {
        return toString();
    }

    @Override
    public String toString() {
        Selector selector = this.selector;
        int keys = -1;
        try {
            keys = selector == null ? 0 : selector.keys().size();
        } catch (ClosedSelectorException ignored) {
            // reported as -1
        }
        return "SelectorLoop#" + id + "@" + Integer.toHexString(hashCode()) + "{" + state() + ",keys=" + keys
            + ",endpoints=" + openEndPoints.get() + ",actions=" + actions.size() + "," + idleSweep + "}";
    }
}
