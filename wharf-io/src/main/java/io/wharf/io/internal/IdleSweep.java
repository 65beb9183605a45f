package io.wharf.io.internal;

import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The idle timeouts of the endpoints of one {@link SelectorLoop}, checked by walking the
 * loop's selection keys every sweep period instead of scheduling a task per endpoint.
 *
 * <p>Threads: {@link #sweepIfDue} and {@link #millisToNextSweep} run on the loop's producing
 * thread only (exactly one at a time), so the time of the last sweep is a plain field.
 * {@link #noticeTimeout} runs on any thread that sets an endpoint's idle timeout.
 *
 * <p>Period: an eighth of the smallest idle timeout ever set on the loop, between
 * {@value #MIN_PERIOD_MILLIS} ms and {@value #MAX_PERIOD_MILLIS} ms, so that an endpoint
 * expires at most about two periods late: max(timeout / 4, 10 ms), and at most 2 s late for
 * long timeouts (activity is seen at the first sweep after it, see
 * {@link io.wharf.io.AbstractEndPoint#notIdle()}).
 * No sweep at all while no endpoint of the loop has a timeout. The walk holds nothing per
 * endpoint and allocates one key-set iterator per sweep.
 */
final class IdleSweep {

    static final long MIN_PERIOD_MILLIS = 5;
    static final long MAX_PERIOD_MILLIS = 1000;

    private final AtomicLong smallestTimeoutMillis = new AtomicLong(Long.MAX_VALUE);
    private long lastSweepNanos = System.nanoTime();

    /**
     * An endpoint of the loop now has this idle timeout. Any thread.
     *
     * @return true when the sweep period became shorter, so a loop blocked in select should wake
     */
    boolean noticeTimeout(long timeoutMillis) {
        if (timeoutMillis <= 0) {
            return false;
        }
        while (true) {
            long smallest = smallestTimeoutMillis.get();
            if (timeoutMillis >= smallest) {
                return false;
            }
            if (smallestTimeoutMillis.compareAndSet(smallest, timeoutMillis)) {
                return periodMillis(timeoutMillis) < periodMillis(smallest);
            }
        }
    }

    /** @return the time between sweeps, or 0 when no endpoint has a timeout */
    long periodMillis() {
        return periodMillis(smallestTimeoutMillis.get());
    }

    private static long periodMillis(long smallestTimeout) {
        if (smallestTimeout == Long.MAX_VALUE) {
            return 0;
        }
        return Math.clamp(smallestTimeout / 8, MIN_PERIOD_MILLIS, MAX_PERIOD_MILLIS);
    }

    /**
     * Loop thread.
     *
     * @return the select timeout up to the next sweep, at least 1 ms; 0 for no timeout (no sweep needed)
     */
    long millisToNextSweep(long nowNanos) {
        long period = periodMillis();
        if (period == 0) {
            return 0;
        }
        long leftNanos = lastSweepNanos + TimeUnit.MILLISECONDS.toNanos(period) - nowNanos;
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(leftNanos + 999_999));
    }

    /** Walks the selector's keys when a sweep period has passed since the last walk. Loop thread. */
    void sweepIfDue(Selector selector, long nowNanos) {
        long period = periodMillis();
        if (period == 0 || nowNanos - lastSweepNanos < TimeUnit.MILLISECONDS.toNanos(period)) {
            return;
        }
        lastSweepNanos = nowNanos;
        try {
            for (SelectionKey key : selector.keys()) {
                if (key.attachment() instanceof SocketChannelEndPoint endPoint) {
                    endPoint.checkIdleTimeout(nowNanos);
                }
            }
        } catch (ClosedSelectorException ignored) {
            // the loop is ending
        }
    }

    @Override
    public String toString() {
        return "IdleSweep{period=" + periodMillis() + "ms}";
    }
}
