package io.wharf.loadgen.internal;

/**
 * The open model's schedule: when iteration {@code n} (counted from 0 across all sending
 * threads) should start, as an offset from the run's start, for a total rate reached after a
 * linear ramp-up. It is a function of {@code n}, the rate and the ramp-up alone — never of when
 * earlier iterations started or ended — so a generator that falls behind still knows when each
 * request should have gone, and measures its latency from then. Immutable; any thread.
 *
 * <p>During the ramp-up of length {@code T} the rate grows from 0 to {@code r}, so
 * {@code r·t²/(2T)} iterations are due by {@code t}; after it, {@code r·T/2 + r·(t − T)}.
 * Iteration {@code n} is due when that count reaches {@code n}.
 */
public record RateSchedule(double ratePerSecond, long rampUpNanos) {

    public RateSchedule {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("the rate must be positive, not " + ratePerSecond);
        }
        if (rampUpNanos < 0) {
            throw new IllegalArgumentException("the ramp-up must not be negative, not " + rampUpNanos);
        }
    }

    /** @return when iteration {@code n} is due, in nanoseconds after the start */
    public long offsetNanos(long n) {
        double perNano = ratePerSecond / 1e9;
        double rampIterations = perNano * rampUpNanos / 2;
        if (n < rampIterations) {
            return (long) Math.sqrt(2.0 * n * rampUpNanos / perNano);
        }
        return rampUpNanos + (long) ((n - rampIterations) / perNano);
    }

    /** @return how many iterations are due strictly before {@code offsetNanos} after the start */
    public long iterationsBefore(long offsetNanos) {
        long low = 0;
        long high = 1;
        while (offsetNanos(high) < offsetNanos) {
            high <<= 1;
        }
        // The first n whose offset is not before offsetNanos, by bisection (offsets never decrease).
        while (low < high) {
            long middle = (low + high) >>> 1;
            if (offsetNanos(middle) < offsetNanos) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }
}
