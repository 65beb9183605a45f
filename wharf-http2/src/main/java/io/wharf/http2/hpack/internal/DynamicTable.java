package io.wharf.http2.hpack.internal;

import java.util.Arrays;

import io.wharf.http.HttpField;

/**
 * HPACK's dynamic table (RFC 7541 sections 2.3.2 and 4): a first-in, first-out list of
 * fields, newest first, whose size — the sum over entries of name octets + value octets + 32
 * — never exceeds its capacity. Adding an entry evicts the oldest ones until it fits; an entry
 * larger than the whole capacity empties the table and is not added.
 *
 * <p>Names and values are ISO-8859-1 strings, one octet per {@code char}, so an entry's
 * size is computed from its string lengths. The entries live in a ring that doubles when
 * full; with entries of at least 32 octets it never holds more than capacity / 32 of them.
 *
 * <p>Not thread-safe: one encoder or one decoder owns it, on the thread that encodes or decodes.
 */
public final class DynamicTable {

    /** What an entry costs beyond its name and value octets. */
    public static final int ENTRY_OVERHEAD = 32;

    /** Told of each entry that leaves the table, oldest first. */
    public interface Evictions {
        /**
         * @param field the evicted entry
         * @param number the entry's insertion number (see {@link #insertions()})
         */
        void evicted(HttpField field, long number);
    }

    private final Evictions evictions;
    private HttpField[] ring = new HttpField[16];
    /** Ring index of the oldest entry. */
    private int oldest;
    private int length;
    private int size;
    private int capacity;
    private long insertions;

    /**
     * @param capacity the maximum size in octets
     * @param evictions told of evicted entries, or null
     */
    public DynamicTable(int capacity, Evictions evictions) {
        this.capacity = requireCapacity(capacity);
        this.evictions = evictions;
    }

    /** @return the size of an entry of {@code field}: name and value octets plus 32 */
    public static long entrySize(HttpField field) {
        return (long) field.getName().length() + field.getValue().length() + ENTRY_OVERHEAD;
    }

    /** @return the sum of the entries' sizes */
    public int size() {
        return size;
    }

    /** @return the maximum size */
    public int capacity() {
        return capacity;
    }

    /** @return the number of entries */
    public int length() {
        return length;
    }

    /** @return how many entries were ever added; the newest has number {@code insertions() - 1} */
    public long insertions() {
        return insertions;
    }

    /**
     * @param index 0 for the newest entry, up to {@code length() - 1} for the oldest
     * @return the entry
     */
    public HttpField get(int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("no dynamic table entry " + index + " of " + length);
        }
        return ring[(oldest + length - 1 - index) & (ring.length - 1)];
    }

    /**
     * Adds {@code field} as the newest entry, evicting the oldest ones until it fits; when it
     * is larger than the capacity, empties the table and drops it (RFC 7541 section 4.4).
     *
     * @return whether the field was added
     */
    public boolean add(HttpField field) {
        long entrySize = entrySize(field);
        if (entrySize > capacity) {
            evictTo(0);
            return false;
        }
        evictTo(capacity - (int) entrySize);
        if (length == ring.length) {
            grow();
        }
        ring[(oldest + length) & (ring.length - 1)] = field;
        length++;
        size += (int) entrySize;
        insertions++;
        return true;
    }

    /** Evicts every entry, as adding an entry larger than the capacity does. */
    public void clear() {
        evictTo(0);
    }

    /** Changes the capacity, evicting the oldest entries until the table fits in it. */
    public void setCapacity(int capacity) {
        this.capacity = requireCapacity(capacity);
        evictTo(capacity);
    }

    private void evictTo(int maxSize) {
        while (size > maxSize) {
            HttpField field = ring[oldest];
            ring[oldest] = null;
            oldest = (oldest + 1) & (ring.length - 1);
            long number = insertions - length;
            length--;
            size -= (int) entrySize(field);
            if (evictions != null) {
                evictions.evicted(field, number);
            }
        }
    }

    private void grow() {
        HttpField[] bigger = new HttpField[ring.length * 2];
        for (int i = 0; i < length; i++) {
            bigger[i] = ring[(oldest + i) & (ring.length - 1)];
        }
        Arrays.fill(ring, null);
        ring = bigger;
        oldest = 0;
    }

    private static int requireCapacity(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("dynamic table capacity must not be negative: " + capacity);
        }
        return capacity;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("DynamicTable[").append(length).append(" entries, ")
            .append(size).append('/').append(capacity).append(" octets]");
        for (int i = 0; i < length; i++) {
            HttpField field = get(i);
            text.append("\n  [").append(StaticTable.LENGTH + 1 + i).append("] (s = ").append(entrySize(field)).append(") ")
                .append(field.getName()).append(": ").append(field.getValue());
        }
        return text.toString();
    }
}
