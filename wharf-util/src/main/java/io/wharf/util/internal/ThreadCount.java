package io.wharf.util.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The number of threads of a pool, and the clock that rations its shrinking. Any thread may
 * read it; the pool's executing threads grow it, up to a limit, with one compare-and-set
 * before they start a thread; an idle thread may take it down, never below a floor, and only
 * one thread per period for the whole pool, so that a pool shrinks gently after a burst
 * rather than losing all its idle threads at the end of the same idle timeout. It holds two
 * numbers, nothing else.
 */
public final class ThreadCount {

    private final AtomicInteger count = new AtomicInteger();
    private final AtomicLong lastShrink = new AtomicLong(System.nanoTime());

    /** @return the threads counted */
    public int get() {
        return count.get();
    }

    /**
     * Counts one more thread unless {@code limit} threads are counted already.
     *
     * @return whether it counted one (the caller then starts it, or calls {@link #decrement()})
     */
    public boolean incrementBelow(int limit) {
        while (true) {
            int current = count.get();
            if (current >= limit) {
                return false;
            }
            if (count.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** Counts one thread less: one that ended, or failed to start. */
    public void decrement() {
        count.decrementAndGet();
    }

    /** Starts the shrink clock again: no thread shrinks before a period has passed from now. */
    public void restartShrinkClock() {
        lastShrink.set(System.nanoTime());
    }

    /** @return whether a thread idle for a period might shrink now (a hint, see {@link #shrink}) */
    public boolean mayShrink(int floor, long periodNanos) {
        return count.get() > floor && System.nanoTime() - lastShrink.get() >= periodNanos;
    }

    /**
     * Claims this period's shrink and counts the caller's thread out.
     *
     * @return true when the caller won: its thread is no longer counted and should end
     */
    public boolean shrink(int floor, long periodNanos) {
        long last = lastShrink.get();
        long now = System.nanoTime();
        if (now - last < periodNanos || !lastShrink.compareAndSet(last, now)) {
            return false;
        }
        while (true) {
            int current = count.get();
            if (current <= floor) {
                return false;
            }
            if (count.compareAndSet(current, current - 1)) {
                return true;
            }
        }
    }

    @Override
    public String toString() {
        return String.valueOf(count.get());
    }
}
