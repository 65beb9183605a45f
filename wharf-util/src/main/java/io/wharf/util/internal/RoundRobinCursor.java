package io.wharf.util.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Where the object pool's ROUND_ROBIN acquires start their scan: a few cursors, each on a
 * cache line of its own, a thread using the one its id picks. Any thread may call
 * {@link #next(int)} at any time; it takes no lock, does no compare-and-set and allocates
 * nothing. It holds numbers only, no buffers.
 *
 * <p><b>Why not one counter.</b> One shared counter incremented by every acquire moves its
 * cache line from core to core on every acquire, which costs more than the acquire itself as
 * soon as two cores acquire at once. Here a thread writes only its own stripe's cursor, so
 * threads on different stripes never touch the same line.
 *
 * <p><b>What it promises.</b> Each cursor starts at its stripe's share of the entries
 * (stripe {@code s} of {@code S} at {@code s * limit / S}), so that threads on different
 * stripes start apart and, moving at the same pace, keep out of each other's way; then it
 * moves on by one entry per {@link #next}, wrapping around. Hence:
 * <ul>
 *   <li>a thread that is alone on its stripe (in particular, the only thread acquiring)
 *       starts at the entries in strict rotation: start, start + 1, ..., wrapping around;</li>
 *   <li>under concurrency each thread still rotates, so each entry gets an even share on
 *       average. A start found busy sends the scan to the next entry, which gets that visit
 *       instead; threads that share a stripe may read the same position (the read and the
 *       write of a cursor are not one atomic step), which only makes them start at the same
 *       entry once.</li>
 * </ul>
 * It is not one global rotation: two threads may start at the same entry at the same time,
 * which one shared counter would have avoided, at the price above.
 */
public final class RoundRobinCursor {

    /** Ints per stripe: 128 bytes, so that two cursors share neither a line nor a prefetched pair of lines. */
    private static final int STRIDE = 32;
    /** Stripes: the power of two at or above twice the processors, at most 16. */
    private static final int STRIPES = Math.min(16, powerOfTwoAtLeast(2 * Runtime.getRuntime().availableProcessors()));
    private static final VarHandle CURSORS = MethodHandles.arrayElementVarHandle(int[].class);

    /** Stripe {@code s}'s cursor is at {@code (s + 1) * STRIDE}: a stride of padding before the first one too. */
    private final int[] cursors;
    private final int mask;
    private final int stripeBits;

    /** Cursors for as many stripes as suit this machine. */
    public RoundRobinCursor() {
        this(STRIPES);
    }

    /**
     * @param stripes how many cursors, a power of two
     * @throws IllegalArgumentException when {@code stripes} is not a positive power of two
     */
    public RoundRobinCursor(int stripes) {
        if (stripes < 1 || Integer.bitCount(stripes) != 1) {
            throw new IllegalArgumentException("Round robin stripes must be a positive power of two, not " + stripes);
        }
        this.cursors = new int[(stripes + 1) * STRIDE];
        this.mask = stripes - 1;
        this.stripeBits = Integer.numberOfTrailingZeros(stripes);
    }

    private static int powerOfTwoAtLeast(int value) {
        return value <= 1 ? 1 : Integer.highestOneBit(value - 1) << 1;
    }

    /** @return the number of stripes */
    public int stripes() {
        return mask + 1;
    }

    /** @return the stripe of the calling thread: consecutive thread ids get different stripes */
    public int stripeOfCurrentThread() {
        return (int) Thread.currentThread().threadId() & mask;
    }

    /**
     * Takes the calling thread's next start index and moves its cursor on by one, whichever
     * entry the scan from there then acquires: the starts rotate strictly, so that an entry
     * found busy costs that entry one visit and gives it to the next one, rather than lose it.
     *
     * @param limit the number of entries to rotate over, at least 1; it may grow between calls
     * @return an index in {@code [0, limit)}: on a stripe's first call, the stripe's share of
     *     the limit; then one more than the stripe's previous start, wrapping around
     */
    public int next(int limit) {
        int stripe = stripeOfCurrentThread();
        int at = (stripe + 1) * STRIDE;
        // The cursor holds the next start plus one, so that 0 means "never used".
        int stored = (int) CURSORS.getOpaque(cursors, at);
        int start = stored > 0 && stored <= limit ? stored - 1 : (int) (((long) stripe * limit) >>> stripeBits);
        CURSORS.setOpaque(cursors, at, start + 1 == limit ? 1 : start + 2);
        return start;
    }

    @Override
    public String toString() {
        return "RoundRobinCursor[" + stripes() + " stripes]";
    }
}
