package io.wharf.http2.session;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A count of events allowed per period: {@link #spend()} says false once more than
 * {@code max} events happened within one period. The period is a fixed window that restarts
 * with the first event after it ended. What an HTTP/2 session bounds its peer with: pings,
 * settings, empty DATA frames, PRIORITY frames, unknown frames, resets.
 *
 * <p>Thread-safe (synchronized: spent on the reading thread, and for resets the session sends,
 * on the application's threads).
 */
public final class RateBudget {

    private final String name;
    private final int max;
    private final long periodNanos;
    private final LongSupplier nanoClock;
    private long windowStart;
    private int spent;

    /**
     * @param name what is counted, for the GOAWAY's debug data
     * @param max the events allowed per period; 0 or less for no limit
     */
    public RateBudget(String name, int max, long period, TimeUnit unit) {
        this(name, max, unit.toNanos(period), System::nanoTime);
    }

    /** @param nanoClock the time in nanoseconds, as {@link System#nanoTime()} (tests pass their own) */
    RateBudget(String name, int max, long periodNanos, LongSupplier nanoClock) {
        this.name = name;
        this.max = max;
        this.periodNanos = periodNanos;
        this.nanoClock = nanoClock;
        this.windowStart = nanoClock.getAsLong();
    }

    /** @return whether the event is within budget */
    public synchronized boolean spend() {
        if (max <= 0) {
            return true;
        }
        long now = nanoClock.getAsLong();
        if (now - windowStart > periodNanos) {
            windowStart = now;
            spent = 0;
        }
        return ++spent <= max;
    }

    /** @return what is counted */
    public String name() {
        return name;
    }

    /** @return the events allowed per period */
    public int max() {
        return max;
    }

    @Override
    public synchronized String toString() {
        return name + " " + spent + "/" + max;
    }
}
