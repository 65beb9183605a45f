package io.wharf.util;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import io.wharf.util.internal.ArrayTrie;
import io.wharf.util.internal.KeyAlphabet;
import io.wharf.util.internal.TernaryTrie;
import io.wharf.util.internal.TreeTrie;

/**
 * A read-only map from string keys to values that is looked up straight from bytes — a
 * {@link ByteBuffer}, a {@code byte[]} or a {@code String} — without making a String and
 * without allocating. The HTTP/1 parser uses it to recognise header names and whole common
 * header lines ({@code "Connection: keep-alive"}) in the network buffer, and
 * {@link #getBest(ByteBuffer, int, int)} finds the longest key that is a prefix of the
 * bytes, so one lookup at the start of a line tells a known line from a known name.
 *
 * <p><b>Keys.</b> A key is a string of octets, one per {@code char}: visible ASCII, space,
 * and — because learned header lines may carry them — horizontal tab and obs-text
 * ({@code 0x80..0xFF}). Building or putting any other key fails with an
 * {@link IllegalArgumentException} naming it. A byte in a buffer matches the key character
 * with the same value (ISO-8859-1); a string looked up holding a character outside the
 * legal set simply matches nothing. A case-insensitive index folds only the ASCII letters;
 * every other octet must match exactly. The empty key is legal and is the fall-back answer
 * of every {@code getBest}. Values are never null: a null answer means "no such key".
 *
 * <p><b>Threads and buffers.</b> An index made by {@link Builder#build()} never changes and
 * may be shared by any number of threads. An {@link Mutable} index (a per-connection cache)
 * is used by one thread at a time, see {@link Mutable}. Lookups only read the buffer or array
 * handed in, never move its position, keep no reference to it, and allocate nothing; the
 * caller owns the buffer throughout.
 *
 * <p><b>Which structure.</b> {@link #builder()} picks one: a compact array-backed trie for
 * the small static sets HTTP needs, a tree of nodes when a set is too large for that table,
 * and a bounded ternary search trie for {@link Mutable} caches.
 *
 * @param <V> the type of the values
 */
public interface Index<V> {

    /** @return the value of {@code key}, or null when it is not a key */
    default V get(String key) {
        return get(key, 0, key.length());
    }

    /** @return the value of the key equal to {@code key[offset, offset + length)}, or null */
    V get(String key, int offset, int length);

    /**
     * @return the value of the key equal to the bytes between the buffer's position and limit,
     *     or null; the position is not moved
     */
    default V get(ByteBuffer buffer) {
        return get(buffer, buffer.position(), buffer.remaining());
    }

    /**
     * Looks up the bytes at absolute indexes {@code [offset, offset + length)} of a heap or
     * direct buffer, regardless of its position; the buffer is not modified.
     *
     * @return the value of the key equal to those bytes, or null
     * @throws IndexOutOfBoundsException when the range does not lie within the buffer's limit
     */
    V get(ByteBuffer buffer, int offset, int length);

    /**
     * @return the value of the longest key that is a prefix of the bytes at absolute indexes
     *     {@code [offset, offset + length)} of the buffer, or null when no key (not even the
     *     empty key) is such a prefix
     * @throws IndexOutOfBoundsException when the range does not lie within the buffer's limit
     */
    V getBest(ByteBuffer buffer, int offset, int length);

    /** @return the value of the longest key that is a prefix of the buffer's remaining bytes, or null */
    default V getBest(ByteBuffer buffer) {
        return getBest(buffer, buffer.position(), buffer.remaining());
    }

    /** @return the value of the longest key that is a prefix of {@code bytes[offset, offset + length)}, or null */
    V getBest(byte[] bytes, int offset, int length);

    /** @return the value of the longest key that is a prefix of {@code string}, or null */
    default V getBest(String string) {
        return getBest(string, 0, string.length());
    }

    /** @return the value of the longest key that is a prefix of {@code string[offset, offset + length)}, or null */
    V getBest(String string, int offset, int length);

    /** @return whether keys match only with the same case of ASCII letters */
    boolean isCaseSensitive();

    /** @return the number of keys */
    int size();

    /** @return whether there is no key */
    default boolean isEmpty() {
        return size() == 0;
    }

    /**
     * @return the keys, each spelled as it was last given (a case-insensitive index keeps one
     *     spelling per folded key); unmodifiable, and a snapshot for a {@link Mutable} index
     */
    Set<String> keySet();

    /** @return a builder of a case-insensitive index with no keys yet */
    static <V> Builder<V> builder() {
        return new Builder<>();
    }

    /**
     * An index that learns: a bounded cache, typically one per connection, filled as the
     * connection sees lines worth remembering.
     *
     * <p><b>Threads.</b> A mutable index is not thread-safe. It is meant to be owned by one
     * connection and used (put and looked up) only by the thread currently serving that
     * connection; handing it to another thread requires a happens-before edge (the
     * connection's own hand-over provides one). Concurrent use without external
     * synchronisation gives wrong answers.
     *
     * @param <V> the type of the values
     */
    interface Mutable<V> extends Index<V> {

        /**
         * Maps {@code key} to {@code value}, replacing any previous value of the (folded) key.
         *
         * @return true when stored; false when the bounded structure has no room left for
         *     this key, in which case nothing changed and the caller simply does not cache
         * @throws IllegalArgumentException when {@code key} holds an illegal character
         * @throws NullPointerException when {@code key} or {@code value} is null
         */
        boolean put(String key, V value);

        /** @return the value {@code key} had, or null when it was not a key */
        V remove(String key);

        /** Removes every key and gives back all the room. */
        void clear();
    }

    /**
     * Collects keys and values, then {@link #build() builds} an immutable index with the
     * best structure for them, or turns into a {@link MutableBuilder} for a bounded cache.
     * Used by one thread; a builder can build more than once.
     *
     * @param <V> the type of the values
     */
    final class Builder<V> {

        /** In the order of the last {@link #with} of each exact key: a later key wins on folding. */
        private final Map<String, V> entries = new LinkedHashMap<>();
        private boolean caseSensitive;

        private Builder() {
        }

        /** Sets whether ASCII letters match only in the same case; false by default. */
        public Builder<V> caseSensitive(boolean caseSensitive) {
            this.caseSensitive = caseSensitive;
            return this;
        }

        /**
         * Adds a key; a later key that equals it (after case folding when case-insensitive)
         * replaces it.
         *
         * @throws IllegalArgumentException naming {@code key} when it holds an illegal character
         * @throws NullPointerException when {@code key} or {@code value} is null
         */
        public Builder<V> with(String key, V value) {
            KeyAlphabet.requireLegal(key);
            Objects.requireNonNull(value, () -> "null value for index key " + KeyAlphabet.quote(key));
            entries.remove(key);
            entries.put(key, value);
            return this;
        }

        /** Adds every entry of {@code map}, in its iteration order, as {@link #with} does. */
        public Builder<V> withAll(Map<String, ? extends V> map) {
            map.forEach(this::with);
            return this;
        }

        /** Adds each of {@code values} under the key {@code key} gives for it, as {@link #with} does. */
        public Builder<V> withAll(V[] values, Function<? super V, String> key) {
            for (V value : values) {
                with(key.apply(value), value);
            }
            return this;
        }

        /** @return a builder of a bounded {@link Mutable} index holding the keys added so far */
        public MutableBuilder<V> mutable() {
            return new MutableBuilder<>(caseSensitive, entries);
        }

        /**
         * @return an immutable index of the keys added: the array-backed trie when its table
         *     is small enough, otherwise a tree of nodes
         */
        public Index<V> build() {
            TreeTrie<V> tree = TreeTrie.of(caseSensitive, entries);
            return ArrayTrie.canHold(tree) ? ArrayTrie.of(tree) : tree;
        }

        @Override
        public String toString() {
            return "Index.Builder[caseSensitive=" + caseSensitive + ", keys=" + entries.size() + "]";
        }
    }

    /**
     * Builds a {@link Mutable} index bounded to {@link #maxCapacity(int) maxCapacity} trie
     * nodes, holding the keys of the {@link Builder} it came from. Used by one thread.
     *
     * @param <V> the type of the values
     */
    final class MutableBuilder<V> {

        /** The default bound: about 1,000 characters of keys not shared with another key. */
        public static final int DEFAULT_MAX_CAPACITY = 1024;

        private final boolean caseSensitive;
        private final Map<String, V> entries;
        private int maxCapacity = DEFAULT_MAX_CAPACITY;

        private MutableBuilder(boolean caseSensitive, Map<String, V> entries) {
            this.caseSensitive = caseSensitive;
            this.entries = new LinkedHashMap<>(entries);
        }

        /**
         * Bounds the index to {@code nodes} trie nodes. Each key needs one node per character
         * that does not continue another key's path, so {@code nodes} is at most the total
         * length of the keys held at once. Memory grows with use, up to about 16 bytes per
         * node.
         *
         * @throws IllegalArgumentException unless {@code 1 <= nodes <= }{@value TernaryTrie#MAX_CAPACITY}
         */
        public MutableBuilder<V> maxCapacity(int nodes) {
            TernaryTrie.requireCapacity(nodes);
            this.maxCapacity = nodes;
            return this;
        }

        /**
         * @return a new bounded mutable index holding the builder's keys
         * @throws IllegalArgumentException when those keys need more nodes than {@code maxCapacity}
         */
        public Mutable<V> build() {
            return TernaryTrie.of(caseSensitive, maxCapacity, entries);
        }

        @Override
        public String toString() {
            return "Index.MutableBuilder[caseSensitive=" + caseSensitive + ", keys=" + entries.size() +
                ", maxCapacity=" + maxCapacity + "]";
        }
    }
}
