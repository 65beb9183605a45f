package io.wharf.util.concurrent;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded, lock-free, allocation-free bag of items kept in an array of slots, handing
 * items out roughly last-in first-out: the idle buffers of one pool bucket, the server's idle
 * per-connection codecs.
 *
 * <p>Any thread may {@link #push} and {@link #pop} at any time. Each slot is claimed with a
 * single compare-and-set (null to item when pushing, item to null when popping), so an item
 * that was pushed once is popped at most once, by exactly one thread. There is no linked
 * node to recycle and therefore no ABA problem, which a Treiber stack whose nodes are the
 * pooled objects themselves would have.
 *
 * <p>An approximate count serves as the scan hint: pushes look for a free slot from
 * {@code count} upwards, pops look for an item from {@code count - 1} downwards, so items
 * gather at the front of the array and the common case touches one slot. Under races an
 * item may sit beyond the hint; both scans wrap around the whole array, so nothing is lost,
 * it only costs a longer scan once. The count is incremented after an item lands in its
 * slot and decremented after it left, so it never exceeds the items present by more than
 * the pops in flight, may briefly drop below 0 (a pop can take an item whose push has not
 * counted it yet), and is exact whenever the stack is quiet. A pop that finds the count at 0
 * reports the stack empty even if a push is about to count its item: a miss, never a loss.
 *
 * <p>Ownership: the stack holds references only; whoever pops an item owns it.
 *
 * @param <T> the items
 */
public final class SlotStack<T> {

    private final AtomicReferenceArray<T> slots;
    private final AtomicInteger count = new AtomicInteger();

    /** @param capacity the most items held at once; 0 makes a stack that refuses every push */
    public SlotStack(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("Slot stack capacity must not be negative: " + capacity);
        }
        this.slots = new AtomicReferenceArray<>(capacity);
    }

    /**
     * Puts {@code item} into a free slot.
     *
     * @return false when every slot was taken, and the caller keeps the item
     */
    public boolean push(T item) {
        if (item == null) {
            throw new IllegalArgumentException("Cannot push null into a slot stack");
        }
        int length = slots.length();
        // The count dips below 0 while a pop takes an item whose push has not counted it yet.
        int start = Math.max(count.get(), 0);
        if (start >= length) {
            return false;
        }
        for (int step = 0; step < length; step++) {
            int index = start + step;
            if (index >= length) {
                index -= length;
            }
            if (slots.get(index) == null && slots.compareAndSet(index, null, item)) {
                count.incrementAndGet();
                return true;
            }
        }
        return false;
    }

    /** @return an item now owned by the caller, or null when none was found */
    public T pop() {
        int length = slots.length();
        int start = count.get() - 1;
        if (start < 0) {
            return null;
        }
        if (start >= length) {
            start = length - 1;
        }
        for (int step = 0; step < length; step++) {
            int index = start - step;
            if (index < 0) {
                index += length;
            }
            if (slots.get(index) != null) {
                T item = slots.getAndSet(index, null);
                if (item != null) {
                    count.decrementAndGet();
                    return item;
                }
            }
        }
        return null;
    }

    /** @return the number of items held; exact when no push or pop is in flight */
    public int size() {
        return Math.max(count.get(), 0);
    }

    /** @return the most items this stack holds at once */
    public int capacity() {
        return slots.length();
    }

    @Override
    public String toString() {
        return "SlotStack[" + size() + "/" + capacity() + "]";
    }
}
