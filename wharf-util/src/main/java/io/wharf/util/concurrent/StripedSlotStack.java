package io.wharf.util.concurrent;

/**
 * A few {@link SlotStack}s side by side, each thread starting at the one its id picks: the
 * idle buffers of one pool bucket, spread so that threads acquiring and releasing buffers of
 * the same size at the same time do not all fight over one stack top and one counter.
 *
 * <p>Any thread may push and pop. A push tries the caller's stripe first, then the others
 * in turn; a pop does the same, so an item in any stripe can be found by any thread, and a
 * thread that releases and re-acquires usually gets its own last buffer back, still hot in
 * its cache. Claiming an item is the compare-and-set of the underlying slot stack, so an
 * item pushed once is popped at most once.
 *
 * @param <T> the items
 */
public final class StripedSlotStack<T> {

    /** Stripes per stack: the power of two at or above twice the processors, at most 16. */
    private static final int STRIPES = Math.min(16, powerOfTwoAtLeast(2 * Runtime.getRuntime().availableProcessors()));

    private final SlotStack<T>[] stripes;
    private final int mask;

    /** @param capacity the most items held at once, spread evenly over the stripes */
    public StripedSlotStack(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("Striped stack capacity must be at least 1: " + capacity);
        }
        int count = Math.min(STRIPES, Integer.highestOneBit(capacity));
        int perStripe = (capacity + count - 1) / count;
        @SuppressWarnings("unchecked")
        SlotStack<T>[] created = (SlotStack<T>[]) new SlotStack<?>[count];
        for (int i = 0; i < count; i++) {
            created[i] = new SlotStack<>(perStripe);
        }
        this.stripes = created;
        this.mask = count - 1;
    }

    private static int powerOfTwoAtLeast(int value) {
        return value <= 1 ? 1 : Integer.highestOneBit(value - 1) << 1;
    }

    /**
     * The caller's stripe: its thread id modulo the stripes, so that threads created one after
     * the other (the workers of a pool, the selectors) get different stripes. A hash of the id
     * would scatter them at random, and two threads sharing a stripe fight over its top.
     */
    private int home() {
        return (int) Thread.currentThread().threadId() & mask;
    }

    /** @return false when every stripe was full, and the caller keeps the item */
    public boolean push(T item) {
        int home = home();
        for (int i = 0; i <= mask; i++) {
            if (stripes[(home + i) & mask].push(item)) {
                return true;
            }
        }
        return false;
    }

    /** @return an item now owned by the caller, or null when none was found */
    public T pop() {
        int home = home();
        for (int i = 0; i <= mask; i++) {
            T item = stripes[(home + i) & mask].pop();
            if (item != null) {
                return item;
            }
        }
        return null;
    }

    /** @return the number of items held; exact when no push or pop is in flight */
    public int size() {
        int size = 0;
        for (SlotStack<T> stripe : stripes) {
            size += stripe.size();
        }
        return size;
    }

    /** @return the number of stripes */
    public int stripes() {
        return stripes.length;
    }

    @Override
    public String toString() {
        return "StripedSlotStack[" + size() + " in " + stripes.length + " stripes]";
    }
}
