package io.wharf.examples;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts latencies in microseconds in log-linear buckets (exact below 1,024 µs, then 512 buckets
 * per power of two: within 0.2%), so millions of samples cost a fixed 16,000 counters and
 * percentiles come from a walk over them. {@link #record} may be called from any thread at once.
 */
final class LatencyHistogram {

    private static final int LINEAR = 1024;
    private static final int PER_OCTAVE = 512;
    private static final int OCTAVES = 54;

    private final AtomicLongArray counts = new AtomicLongArray(LINEAR + OCTAVES * PER_OCTAVE);

    /** Records one latency; a negative one counts as 0. */
    void record(long micros) {
        counts.incrementAndGet(bucket(Math.max(0, micros)));
    }

    private static int bucket(long micros) {
        if (micros < LINEAR) {
            return (int) micros;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(micros);
        return LINEAR + (exponent - 10) * PER_OCTAVE + (int) ((micros >>> (exponent - 9)) & (PER_OCTAVE - 1));
    }

    /** @return the largest value of a bucket: what a percentile reports */
    private static long upperValue(int bucket) {
        if (bucket < LINEAR) {
            return bucket;
        }
        int exponent = (bucket - LINEAR) / PER_OCTAVE + 10;
        long mantissa = (bucket - LINEAR) % PER_OCTAVE + PER_OCTAVE;
        return ((mantissa + 1) << (exponent - 9)) - 1;
    }

    /** @return how many latencies were recorded */
    long count() {
        long total = 0;
        for (int i = 0; i < counts.length(); i++) {
            total += counts.get(i);
        }
        return total;
    }

    /**
     * @param fraction 0.5 for the median, 1 for the maximum
     * @return the latency that {@code fraction} of the samples do not exceed (to the bucket), 0 when none
     */
    long percentile(double fraction) {
        long total = count();
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(fraction * total));
        long seen = 0;
        for (int i = 0; i < counts.length(); i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return upperValue(i);
            }
        }
        return upperValue(counts.length() - 1);
    }
}
