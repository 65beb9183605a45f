package io.wharf.util.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.wharf.util.Index;

/**
 * A bounded ternary search trie in arrays: the per-connection cache of header lines a
 * client repeats. Each node is four {@code char}s of one table — its folded octet, then the
 * indexes of its lower, equal (next octet of the key) and higher siblings, 0 meaning "none"
 * (node 0, the root, is never anyone's child) — with the value and the key's spelling in
 * arrays by node. The empty key needs no node and is held aside.
 *
 * <p><b>Bounds.</b> The trie holds at most {@code maxCapacity} nodes, one per key character
 * that does not continue another key's path, and at most {@value #MAX_CAPACITY} as node
 * indexes are {@code char}s. When a key does not fit, {@link #put} returns false and changes
 * nothing. The arrays start small and double as keys arrive, up to the bound, so an idle
 * connection's cache costs little. {@link #remove} forgets a key but keeps its nodes (they
 * may be shared with other keys); only {@link #clear} gives room back.
 *
 * <p><b>Threads.</b> Not thread-safe, by design: it is owned by one connection and used,
 * puts and lookups alike, by the one thread serving that connection at a time. Any other
 * use needs external synchronisation. Lookups read the caller's buffer, array or string
 * without keeping it and allocate nothing.
 *
 * @param <V> the type of the values
 */
public final class TernaryTrie<V> implements Index.Mutable<V> {

    /** The most nodes a trie may have: node indexes are {@code char}s. */
    public static final int MAX_CAPACITY = 1 << 16;

    private static final int INITIAL_NODES = 32;
    private static final int ROW = 4;
    private static final int LOWER = 1;
    private static final int EQUAL = 2;
    private static final int HIGHER = 3;

    private final boolean caseSensitive;
    private final char[] folding;
    private final int maxCapacity;
    /** Per node: folded octet, lower, equal, higher. */
    private char[] tree;
    private Object[] values;
    private String[] keys;
    private int nodes;
    private int size;
    private String emptyKey;
    private Object emptyKeyValue;

    /**
     * An empty trie bounded to {@code maxCapacity} nodes.
     *
     * @throws IllegalArgumentException unless {@code 1 <= maxCapacity <= }{@value #MAX_CAPACITY}
     */
    public TernaryTrie(boolean caseSensitive, int maxCapacity) {
        this.caseSensitive = caseSensitive;
        this.folding = KeyAlphabet.foldingTable(caseSensitive);
        this.maxCapacity = requireCapacity(maxCapacity);
        allocate(Math.min(maxCapacity, INITIAL_NODES));
    }

    /**
     * @return a trie bounded to {@code maxCapacity} nodes holding {@code entries}, inserted
     *     in an order that keeps the trie balanced; a key equal to an earlier one after
     *     folding replaces it
     * @throws IllegalArgumentException when a key is illegal or the entries need more nodes
     */
    public static <V> TernaryTrie<V> of(boolean caseSensitive, int maxCapacity, Map<String, ? extends V> entries) {
        Map<String, Map.Entry<String, ? extends V>> byFoldedKey = new LinkedHashMap<>();
        for (Map.Entry<String, ? extends V> entry : entries.entrySet()) {
            byFoldedKey.put(folded(KeyAlphabet.requireLegal(entry.getKey()), caseSensitive), entry);
        }
        List<Map.Entry<String, ? extends V>> sorted = new ArrayList<>(byFoldedKey.values());
        sorted.sort(Comparator.comparing(entry -> folded(entry.getKey(), caseSensitive)));
        TernaryTrie<V> trie = new TernaryTrie<>(caseSensitive, maxCapacity);
        trie.putMiddleFirst(sorted, 0, sorted.size());
        return trie;
    }

    /** Puts the middle entry of {@code sorted[from, to)} first, then each half alike, so siblings form balanced trees. */
    private void putMiddleFirst(List<Map.Entry<String, ? extends V>> sorted, int from, int to) {
        if (from >= to) {
            return;
        }
        int middle = (from + to) >>> 1;
        Map.Entry<String, ? extends V> entry = sorted.get(middle);
        if (!put(entry.getKey(), entry.getValue())) {
            throw new IllegalArgumentException("the " + sorted.size() + " initial keys need more than maxCapacity=" +
                maxCapacity + " nodes");
        }
        putMiddleFirst(sorted, from, middle);
        putMiddleFirst(sorted, middle + 1, to);
    }

    private static String folded(String key, boolean caseSensitive) {
        if (caseSensitive) {
            return key;
        }
        char[] chars = key.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) KeyAlphabet.fold(chars[i], false);
        }
        return new String(chars);
    }

    /**
     * @return {@code maxCapacity}
     * @throws IllegalArgumentException unless {@code 1 <= maxCapacity <= }{@value #MAX_CAPACITY}
     */
    public static int requireCapacity(int maxCapacity) {
        if (maxCapacity < 1 || maxCapacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("maxCapacity " + maxCapacity + " is not within [1, " + MAX_CAPACITY + "]");
        }
        return maxCapacity;
    }

    private void allocate(int capacity) {
        tree = new char[capacity * ROW];
        values = new Object[capacity];
        keys = new String[capacity];
    }

    /** @return the number of nodes in use */
    public int nodes() {
        return nodes;
    }

    /** @return the most nodes on one path from the root, through links of any kind: the worst search */
    int depth() {
        int deepest = 0;
        ArrayDeque<int[]> pending = new ArrayDeque<>();
        if (nodes > 0) {
            pending.push(new int[] {0, 1});
        }
        while (!pending.isEmpty()) {
            int[] entry = pending.pop();
            int row = entry[0] * ROW;
            deepest = Math.max(deepest, entry[1]);
            for (int link = LOWER; link <= HIGHER; link++) {
                if (tree[row + link] != 0) {
                    pending.push(new int[] {tree[row + link], entry[1] + 1});
                }
            }
        }
        return deepest;
    }

    /** @return the most nodes this trie may hold */
    public int maxCapacity() {
        return maxCapacity;
    }

    @Override
    public boolean put(String key, V value) {
        KeyAlphabet.requireLegal(key);
        Objects.requireNonNull(value, () -> "null value for index key " + KeyAlphabet.quote(key));
        int length = key.length();
        if (length == 0) {
            if (emptyKey == null) {
                size++;
            }
            emptyKey = key;
            emptyKeyValue = value;
            return true;
        }
        if (nodes == 0) {
            return appendPath(key, 0, -1, value);
        }
        int node = 0;
        int i = 0;
        int octet = folding[key.charAt(0)];
        while (true) {
            int row = node * ROW;
            int nodeOctet = tree[row];
            int link;
            if (octet == nodeOctet) {
                if (i == length - 1) {
                    store(node, key, value);
                    return true;
                }
                link = row + EQUAL;
                i++;
                octet = folding[key.charAt(i)];
            } else {
                link = row + (octet < nodeOctet ? LOWER : HIGHER);
            }
            int next = tree[link];
            if (next == 0) {
                return appendPath(key, i, link, value);
            }
            node = next;
        }
    }

    /**
     * Adds a chain of nodes for {@code key[from..]} hung from the cell {@code link} (or as the
     * root when it is -1), all or nothing.
     */
    private boolean appendPath(String key, int from, int link, V value) {
        int needed = key.length() - from;
        if (nodes + needed > maxCapacity) {
            return false;
        }
        ensureCapacity(nodes + needed);
        if (link >= 0) {
            tree[link] = (char) nodes;
        }
        for (int i = from; i < key.length(); i++) {
            int row = nodes * ROW;
            tree[row] = folding[key.charAt(i)];
            if (i + 1 < key.length()) {
                tree[row + EQUAL] = (char) (nodes + 1);
            }
            nodes++;
        }
        store(nodes - 1, key, value);
        return true;
    }

    private void store(int node, String key, Object value) {
        if (values[node] == null) {
            size++;
        }
        values[node] = value;
        keys[node] = key;
    }

    private void ensureCapacity(int needed) {
        int capacity = values.length;
        if (needed <= capacity) {
            return;
        }
        int grown = Math.min(maxCapacity, Math.max(needed, capacity * 2));
        tree = Arrays.copyOf(tree, grown * ROW);
        values = Arrays.copyOf(values, grown);
        keys = Arrays.copyOf(keys, grown);
    }

    @Override
    public V remove(String key) {
        if (key.isEmpty()) {
            Object old = emptyKeyValue;
            if (old != null) {
                size--;
                emptyKey = null;
                emptyKeyValue = null;
            }
            return cast(old);
        }
        int node = nodeOf(key, 0, key.length());
        if (node < 0 || values[node] == null) {
            return null;
        }
        Object old = values[node];
        values[node] = null;
        keys[node] = null;
        size--;
        return cast(old);
    }

    /** @return the node where the whole of the non-empty {@code key[offset, offset + length)} ends, or -1 */
    private int nodeOf(String key, int offset, int length) {
        if (nodes == 0) {
            return -1;
        }
        int node = 0;
        int i = 0;
        int c = key.charAt(offset);
        if (c > 0xFF) {
            return -1;
        }
        int octet = folding[c];
        while (true) {
            int row = node * ROW;
            int nodeOctet = tree[row];
            if (octet == nodeOctet) {
                if (++i == length) {
                    return node;
                }
                c = key.charAt(offset + i);
                if (c > 0xFF) {
                    return -1;
                }
                octet = folding[c];
                node = tree[row + EQUAL];
            } else {
                node = tree[row + (octet < nodeOctet ? LOWER : HIGHER)];
            }
            if (node == 0) {
                return -1;
            }
        }
    }

    @Override
    public void clear() {
        allocate(Math.min(maxCapacity, INITIAL_NODES));
        nodes = 0;
        size = 0;
        emptyKey = null;
        emptyKeyValue = null;
    }

    @Override
    public V get(String key, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, key.length());
        if (length == 0) {
            return cast(emptyKeyValue);
        }
        int node = nodeOf(key, offset, length);
        return node < 0 ? null : cast(values[node]);
    }

    @Override
    public V get(ByteBuffer buffer, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, buffer.limit());
        if (buffer.hasArray()) {
            return get(buffer.array(), buffer.arrayOffset() + offset, length);
        }
        if (length == 0) {
            return cast(emptyKeyValue);
        }
        if (nodes == 0) {
            return null;
        }
        int node = 0;
        int i = 0;
        int octet = folding[buffer.get(offset) & 0xFF];
        while (true) {
            int row = node * ROW;
            int nodeOctet = tree[row];
            if (octet == nodeOctet) {
                if (++i == length) {
                    return cast(values[node]);
                }
                octet = folding[buffer.get(offset + i) & 0xFF];
                node = tree[row + EQUAL];
            } else {
                node = tree[row + (octet < nodeOctet ? LOWER : HIGHER)];
            }
            if (node == 0) {
                return null;
            }
        }
    }

    private V get(byte[] bytes, int offset, int length) {
        if (length == 0) {
            return cast(emptyKeyValue);
        }
        if (nodes == 0) {
            return null;
        }
        int node = 0;
        int i = 0;
        int octet = folding[bytes[offset] & 0xFF];
        while (true) {
            int row = node * ROW;
            int nodeOctet = tree[row];
            if (octet == nodeOctet) {
                if (++i == length) {
                    return cast(values[node]);
                }
                octet = folding[bytes[offset + i] & 0xFF];
                node = tree[row + EQUAL];
            } else {
                node = tree[row + (octet < nodeOctet ? LOWER : HIGHER)];
            }
            if (node == 0) {
                return null;
            }
        }
    }

    @Override
    public V getBest(String string, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, string.length());
        Object best = emptyKeyValue;
        if (length == 0 || nodes == 0) {
            return cast(best);
        }
        int node = 0;
        int i = 0;
        int c = string.charAt(offset);
        if (c > 0xFF) {
            return cast(best);
        }
        int octet = folding[c];
        while (true) {
            int row = node * ROW;
            int nodeOctet = tree[row];
            if (octet == nodeOctet) {
                Object value = values[node];
                if (value != null) {
                    best = value;
                }
                if (++i == length) {
                    return cast(best);
                }
                c = string.charAt(offset + i);
                if (c > 0xFF) {
                    return cast(best);
                }
                octet = folding[c];
                node = tree[row + EQUAL];
            } else {
                node = tree[row + (octet < nodeOctet ? LOWER : HIGHER)];
            }
            if (node == 0) {
                return cast(best);
            }
        }
    }

    @Override
    public V getBest(ByteBuffer buffer, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, buffer.limit());
        if (buffer.hasArray()) {
            return best(buffer.array(), buffer.arrayOffset() + offset, length);
        }
        Object best = emptyKeyValue;
        if (length == 0 || nodes == 0) {
            return cast(best);
        }
        int node = 0;
        int i = 0;
        int octet = folding[buffer.get(offset) & 0xFF];
        while (true) {
            int row = node * ROW;
            int nodeOctet = tree[row];
            if (octet == nodeOctet) {
                Object value = values[node];
                if (value != null) {
                    best = value;
                }
                if (++i == length) {
                    return cast(best);
                }
                octet = folding[buffer.get(offset + i) & 0xFF];
                node = tree[row + EQUAL];
            } else {
                node = tree[row + (octet < nodeOctet ? LOWER : HIGHER)];
            }
            if (node == 0) {
                return cast(best);
            }
        }
    }

    @Override
    public V getBest(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        return best(bytes, offset, length);
    }

    private V best(byte[] bytes, int offset, int length) {
        Object best = emptyKeyValue;
        if (length == 0 || nodes == 0) {
            return cast(best);
        }
        int node = 0;
        int i = 0;
        int octet = folding[bytes[offset] & 0xFF];
        while (true) {
            int row = node * ROW;
            int nodeOctet = tree[row];
            if (octet == nodeOctet) {
                Object value = values[node];
                if (value != null) {
                    best = value;
                }
                if (++i == length) {
                    return cast(best);
                }
                octet = folding[bytes[offset + i] & 0xFF];
                node = tree[row + EQUAL];
            } else {
                node = tree[row + (octet < nodeOctet ? LOWER : HIGHER)];
            }
            if (node == 0) {
                return cast(best);
            }
        }
    }

    @Override
    public boolean isCaseSensitive() {
        return caseSensitive;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Set<String> keySet() {
        Set<String> snapshot = new LinkedHashSet<>();
        if (emptyKey != null) {
            snapshot.add(emptyKey);
        }
        for (int node = 0; node < nodes; node++) {
            if (keys[node] != null) {
                snapshot.add(keys[node]);
            }
        }
        return Collections.unmodifiableSet(snapshot);
    }

    @Override
    public String toString() {
        return "TernaryTrie[caseSensitive=" + caseSensitive + ", keys=" + size + ", nodes=" + nodes + "/" + maxCapacity + "]";
    }

    @SuppressWarnings("unchecked")
    private V cast(Object value) {
        return (V) value;
    }
}
