package io.wharf.http.pathmap;

import java.util.Map;

/**
 * A fixed hash table from strings to values that looks up a region of a longer string —
 * a prefix or a suffix of a path — without making a substring. The caller passes the
 * region's hash computed as {@link String#hashCode()} would compute it for that substring,
 * which it can do incrementally while walking the path, so one pass over the path looks up
 * every candidate prefix (or suffix) and allocates nothing.
 *
 * <p>Built once from a map and never changed; safe to share between threads once published.
 *
 * @param <V> the type of the values
 */
final class RegionTable<V> {

    private record Node<V>(String key, int hash, V value, Node<V> next) {
    }

    private final Node<V>[] buckets;
    private final int mask;
    private final int longestKey;

    RegionTable(Map<String, V> entries) {
        int capacity = Integer.highestOneBit(Math.max(2, entries.size() * 2 - 1)) << 1;
        @SuppressWarnings("unchecked")
        Node<V>[] table = (Node<V>[]) new Node<?>[capacity];
        int longest = -1;
        for (Map.Entry<String, V> entry : entries.entrySet()) {
            String key = entry.getKey();
            int hash = key.hashCode();
            int bucket = spread(hash) & (capacity - 1);
            table[bucket] = new Node<>(key, hash, entry.getValue(), table[bucket]);
            longest = Math.max(longest, key.length());
        }
        this.buckets = table;
        this.mask = capacity - 1;
        this.longestKey = longest;
    }

    /** @return the length of the longest key, or -1 when there is none */
    int longestKey() {
        return longestKey;
    }

    /**
     * @param hash {@code text.substring(offset, offset + length).hashCode()}, computed by the caller
     * @return the value of the key equal to {@code text[offset, offset + length)}, or null
     */
    V get(String text, int offset, int length, int hash) {
        for (Node<V> node = buckets[spread(hash) & mask]; node != null; node = node.next()) {
            if (node.hash() == hash && node.key().length() == length && text.startsWith(node.key(), offset)) {
                return node.value();
            }
        }
        return null;
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }
}
