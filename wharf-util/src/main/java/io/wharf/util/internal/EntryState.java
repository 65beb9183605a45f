package io.wharf.util.internal;

/**
 * The encoding of a pool entry's whole state in one {@code long}, so that every transition
 * (enable, acquire, release, remove) is a single compare-and-set of one word.
 *
 * <p>Static functions only, called by the pool's entries on whichever thread acquires,
 * releases or removes them; they allocate nothing and own nothing.
 *
 * <pre>
 *  bit 63      62        61 ........... 31   30 ............ 0
 * +--------+---------+-------------------+-------------------+
 * |REMOVED | ENABLED |  usage count (31) |  holders    (31)  |
 * +--------+---------+-------------------+-------------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code 0} is a freshly reserved entry: not enabled, never used, no holder.</li>
 *   <li>ENABLED is set once, by enable; REMOVED is set once, by remove (or by the release
 *       that retires a worn-out entry) and is terminal: nothing acquires a removed entry.</li>
 *   <li>holders is how many callers hold the entry now (the multiplex count); usage is how
 *       many times it was ever acquired, saturating at {@link #MAX_COUNT}.</li>
 *   <li>An entry whose state is REMOVED with no holder is gone: its slot is free.</li>
 * </ul>
 */
public final class EntryState {

    /** The state of an entry that was reserved and not yet enabled. */
    public static final long RESERVED = 0L;
    /** The largest holder or usage count a state can carry. */
    public static final int MAX_COUNT = Integer.MAX_VALUE;

    private static final long COUNT_MASK = MAX_COUNT;
    private static final int USAGE_SHIFT = 31;
    private static final long ONE_USE = 1L << USAGE_SHIFT;
    private static final long ENABLED = 1L << 62;
    private static final long REMOVED = 1L << 63;

    private EntryState() {
    }

    /** @return how many callers hold the entry */
    public static int holders(long state) {
        return (int) (state & COUNT_MASK);
    }

    /** @return how many times the entry was acquired, enable-with-acquire included */
    public static int usage(long state) {
        return (int) ((state >>> USAGE_SHIFT) & COUNT_MASK);
    }

    /** @return whether enable has been called successfully */
    public static boolean isEnabled(long state) {
        return (state & ENABLED) != 0;
    }

    /** @return whether the entry was removed (terminal) */
    public static boolean isRemoved(long state) {
        return (state & REMOVED) != 0;
    }

    /** @return whether the entry is enabled and not removed: the only states acquire looks at */
    public static boolean isAvailable(long state) {
        return (state & (ENABLED | REMOVED)) == ENABLED;
    }

    /** @return whether the entry has been used {@code maxUsage} times; never when {@code maxUsage <= 0} */
    public static boolean isWornOut(long state, int maxUsage) {
        return maxUsage > 0 && usage(state) >= maxUsage;
    }

    /**
     * @return whether one more caller may acquire an entry in {@code state}: it is enabled, not
     *     removed, has fewer than {@code maxMultiplex} holders and is not worn out
     */
    public static boolean canAcquire(long state, int maxMultiplex, int maxUsage) {
        return isAvailable(state) && holders(state) < maxMultiplex && !isWornOut(state, maxUsage);
    }

    /** @return the state of a reserved entry just enabled, held once when {@code acquired} */
    public static long enabled(boolean acquired) {
        return acquired ? ENABLED | ONE_USE | 1L : ENABLED;
    }

    /** @return {@code state} with one more holder and one more use (the usage count saturates) */
    public static long acquired(long state) {
        long next = state + 1L;
        return usage(state) == MAX_COUNT ? next : next + ONE_USE;
    }

    /** @return {@code state} with one holder less; the caller checked that there is a holder */
    public static long released(long state) {
        return state - 1L;
    }

    /** @return {@code state} marked removed, counts kept */
    public static long removed(long state) {
        return state | REMOVED;
    }

    /** @return a readable form, for dumps and failure messages */
    public static String toString(long state) {
        String flags = isRemoved(state) ? "removed" : isEnabled(state) ? "enabled" : "reserved";
        return flags + ",holders=" + holders(state) + ",usage=" + usage(state);
    }
}
