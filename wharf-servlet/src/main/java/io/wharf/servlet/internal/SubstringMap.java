package io.wharf.servlet.internal;

import java.util.Arrays;
import java.util.Objects;

/**
 * A hash map from string keys that can be looked up by a part of another string, so that mapping
 * a request path finds {@code "/a/b"} in {@code "/a/b/c"} or {@code "jsp"} in {@code "/x.jsp"}
 * without cutting a substring out of the path. The servlet and filter mapping tables keep their
 * exact, prefix and extension keys in these.
 *
 * <p>Open addressing with linear probing over a power-of-two table kept at most half full. A
 * key's hash is {@link String#hashCode()}, so a whole-string lookup uses the hash the string has
 * cached, and a part's hash is computed the same way over its characters ({@link #hashOf}); a
 * caller walking a path left to right can carry that hash along and pass it in.
 *
 * <p><b>Threads.</b> Filled by one thread while the context is deployed, then only read: lookups
 * may run on any number of threads once the filled map has been published to them safely (the
 * context's start does that). Lookups allocate nothing. Keys and values are never null.
 *
 * @param <V> the type of the values
 */
final class SubstringMap<V> {

    private static final int INITIAL_CAPACITY = 8;

    private String[] keys = new String[INITIAL_CAPACITY];
    private int[] hashes = new int[INITIAL_CAPACITY];
    private Object[] values = new Object[INITIAL_CAPACITY];
    private int size;

    /**
     * @return the hash {@link String#hashCode()} gives the string {@code source[from, to)}
     */
    static int hashOf(String source, int from, int to) {
        int hash = 0;
        for (int i = from; i < to; i++) {
            hash = 31 * hash + source.charAt(i);
        }
        return hash;
    }

    /** @return the value of {@code key}, or null when it is not a key */
    V get(String key) {
        return get(key, 0, key.length(), key.hashCode());
    }

    /** @return the value of the key equal to {@code source[from, to)}, or null */
    V get(String source, int from, int to) {
        return get(source, from, to, hashOf(source, from, to));
    }

    /**
     * @param hash {@code hashOf(source, from, to)}, which the caller already has
     * @return the value of the key equal to {@code source[from, to)}, or null
     */
    @SuppressWarnings("unchecked")
    V get(String source, int from, int to, int hash) {
        int length = to - from;
        int mask = keys.length - 1;
        for (int slot = spread(hash) & mask; keys[slot] != null; slot = (slot + 1) & mask) {
            String key = keys[slot];
            if (hashes[slot] == hash && key.length() == length && source.regionMatches(from, key, 0, length)) {
                return (V) values[slot];
            }
        }
        return null;
    }

    /**
     * Maps {@code key} to {@code value}.
     *
     * @return the value {@code key} had before, or null when it was not a key
     */
    @SuppressWarnings("unchecked")
    V put(String key, V value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        int hash = key.hashCode();
        int mask = keys.length - 1;
        int slot = spread(hash) & mask;
        for (; keys[slot] != null; slot = (slot + 1) & mask) {
            if (hashes[slot] == hash && keys[slot].equals(key)) {
                V previous = (V) values[slot];
                values[slot] = value;
                return previous;
            }
        }
        keys[slot] = key;
        hashes[slot] = hash;
        values[slot] = value;
        if (++size * 2 > keys.length) {
            grow();
        }
        return null;
    }

    /** @return how many keys there are */
    int size() {
        return size;
    }

    /** @return whether there is no key */
    boolean isEmpty() {
        return size == 0;
    }

    private void grow() {
        String[] oldKeys = keys;
        int[] oldHashes = hashes;
        Object[] oldValues = values;
        keys = new String[oldKeys.length * 2];
        hashes = new int[keys.length];
        values = new Object[keys.length];
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                int slot = spread(oldHashes[i]) & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = oldKeys[i];
                hashes[slot] = oldHashes[i];
                values[slot] = oldValues[i];
            }
        }
    }

    /** Mixes the high bits into the low ones the table index is taken from. */
    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }

    /** @return the keys, sorted, for messages and tests */
    @Override
    public String toString() {
        return Arrays.stream(keys).filter(Objects::nonNull).sorted().toList().toString();
    }
}
