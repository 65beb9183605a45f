package io.wharf.util.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Set;

import io.wharf.util.Index;

/**
 * An immutable trie laid out as one table: a row per node, a column per octet that occurs
 * in the keys, each cell the index of the child node (0, the root's index, meaning "none").
 * A lookup is a tight loop of two array reads per byte, with no branch but the end-of-path
 * test: {@code node = table[node * columns + columnOf[octet]]}. The builder's pick for the
 * small static sets HTTP needs (header names, common header lines).
 *
 * <p><b>Layout.</b> The alphabet is only the octets the keys use: a case-insensitive trie
 * maps {@code 'a'} and {@code 'A'} to one column. Column 0 is a dead column, all zeros, that
 * every octet outside the alphabet maps to, so an unknown byte ends the walk without a test.
 * Node indexes are {@code char}s, so a trie has at most {@value #MAX_NODES} nodes, and
 * {@link #canHold} also bounds the table to {@value #MAX_TABLE_CELLS} cells (256 KiB);
 * larger sets stay a {@link TreeTrie}. Values sit in an array by node.
 *
 * <p>Built once by {@link #of} on the building thread and never changed after: it may be
 * shared by any number of threads. Lookups read the caller's buffer, array or string without
 * keeping it and allocate nothing.
 *
 * @param <V> the type of the values
 */
public final class ArrayTrie<V> implements Index<V> {

    /** The most nodes a table can index with {@code char} cells. */
    public static final int MAX_NODES = 1 << 16;
    /** The most cells (rows times columns) a table may have. */
    public static final int MAX_TABLE_CELLS = 1 << 17;

    private final boolean caseSensitive;
    /** The column of each octet; 0, the dead column, for octets no key holds. */
    private final int[] columnOf;
    private final int columns;
    private final char[] table;
    private final Object[] values;
    private final Set<String> keys;

    private ArrayTrie(boolean caseSensitive, int[] columnOf, int columns, char[] table, Object[] values, Set<String> keys) {
        this.caseSensitive = caseSensitive;
        this.columnOf = columnOf;
        this.columns = columns;
        this.table = table;
        this.values = values;
        this.keys = keys;
    }

    /** @return whether {@code tree} fits in a table within {@link #MAX_NODES} and {@link #MAX_TABLE_CELLS} */
    public static boolean canHold(TreeTrie<?> tree) {
        int columns = columnsOf(tree.root(), new int[KeyAlphabet.OCTETS], tree.isCaseSensitive());
        return tree.nodes() <= MAX_NODES && (long) tree.nodes() * columns <= MAX_TABLE_CELLS;
    }

    /**
     * @return the trie of {@code tree}'s keys and values laid out as a table
     * @throws IllegalArgumentException when {@link #canHold} says it does not fit
     */
    public static <V> ArrayTrie<V> of(TreeTrie<V> tree) {
        if (!canHold(tree)) {
            throw new IllegalArgumentException("too large for an array trie: " + tree);
        }
        boolean caseSensitive = tree.isCaseSensitive();
        int[] columnOf = new int[KeyAlphabet.OCTETS];
        int columns = columnsOf(tree.root(), columnOf, caseSensitive);
        char[] table = new char[tree.nodes() * columns];
        Object[] values = new Object[tree.nodes()];
        // Depth first, numbering nodes as they are first reached.
        Deque<TreeTrie.Node> pending = new ArrayDeque<>();
        Deque<Integer> pendingIndexes = new ArrayDeque<>();
        pending.push(tree.root());
        pendingIndexes.push(0);
        int next = 1;
        while (!pending.isEmpty()) {
            TreeTrie.Node node = pending.pop();
            int index = pendingIndexes.pop();
            values[index] = node.value;
            for (int i = node.children.length - 1; i >= 0; i--) {
                int child = next++;
                table[index * columns + columnOf[node.octets[i] & 0xFF]] = (char) child;
                pending.push(node.children[i]);
                pendingIndexes.push(child);
            }
        }
        return new ArrayTrie<>(caseSensitive, columnOf, columns, table, values, tree.keySet());
    }

    /**
     * Numbers the folded octets under {@code root} from column 1 in ascending order and
     * fills {@code columnOf}, giving both cases of a letter one column when case-insensitive.
     *
     * @return the number of columns, the dead column included
     */
    private static int columnsOf(TreeTrie.Node root, int[] columnOf, boolean caseSensitive) {
        boolean[] used = new boolean[KeyAlphabet.OCTETS];
        Deque<TreeTrie.Node> pending = new ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            TreeTrie.Node node = pending.pop();
            for (int i = 0; i < node.octets.length; i++) {
                used[node.octets[i] & 0xFF] = true;
                pending.push(node.children[i]);
            }
        }
        int columns = 1;
        for (int octet = 0; octet < KeyAlphabet.OCTETS; octet++) {
            if (used[octet]) {
                columnOf[octet] = columns++;
            }
        }
        if (!caseSensitive) {
            for (int octet = 'A'; octet <= 'Z'; octet++) {
                columnOf[octet] = columnOf[KeyAlphabet.fold(octet, false)];
            }
        }
        return columns;
    }

    /** @return the number of columns, the dead column included */
    int columns() {
        return columns;
    }

    /** @return the number of nodes, the root included */
    int nodes() {
        return values.length;
    }

    @Override
    public V get(String key, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, key.length());
        int node = 0;
        for (int i = 0; i < length; i++) {
            char c = key.charAt(offset + i);
            if (c > 0xFF) {
                return null;
            }
            node = table[node * columns + columnOf[c]];
            if (node == 0) {
                return null;
            }
        }
        return value(node);
    }

    @Override
    public V get(ByteBuffer buffer, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, buffer.limit());
        if (buffer.hasArray()) {
            return get(buffer.array(), buffer.arrayOffset() + offset, length);
        }
        int node = 0;
        for (int i = 0; i < length; i++) {
            node = table[node * columns + columnOf[buffer.get(offset + i) & 0xFF]];
            if (node == 0) {
                return null;
            }
        }
        return value(node);
    }

    private V get(byte[] bytes, int offset, int length) {
        int node = 0;
        for (int i = 0; i < length; i++) {
            node = table[node * columns + columnOf[bytes[offset + i] & 0xFF]];
            if (node == 0) {
                return null;
            }
        }
        return value(node);
    }

    @Override
    public V getBest(String string, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, string.length());
        Object best = values[0];
        int node = 0;
        for (int i = 0; i < length; i++) {
            char c = string.charAt(offset + i);
            if (c > 0xFF) {
                break;
            }
            node = table[node * columns + columnOf[c]];
            if (node == 0) {
                break;
            }
            Object value = values[node];
            if (value != null) {
                best = value;
            }
        }
        return cast(best);
    }

    @Override
    public V getBest(ByteBuffer buffer, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, buffer.limit());
        if (buffer.hasArray()) {
            return best(buffer.array(), buffer.arrayOffset() + offset, length);
        }
        Object best = values[0];
        int node = 0;
        for (int i = 0; i < length; i++) {
            node = table[node * columns + columnOf[buffer.get(offset + i) & 0xFF]];
            if (node == 0) {
                break;
            }
            Object value = values[node];
            if (value != null) {
                best = value;
            }
        }
        return cast(best);
    }

    @Override
    public V getBest(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        return best(bytes, offset, length);
    }

    private V best(byte[] bytes, int offset, int length) {
        Object best = values[0];
        int node = 0;
        for (int i = 0; i < length; i++) {
            node = table[node * columns + columnOf[bytes[offset + i] & 0xFF]];
            if (node == 0) {
                break;
            }
            Object value = values[node];
            if (value != null) {
                best = value;
            }
        }
        return cast(best);
    }

    @Override
    public boolean isCaseSensitive() {
        return caseSensitive;
    }

    @Override
    public int size() {
        return keys.size();
    }

    @Override
    public Set<String> keySet() {
        return keys;
    }

    @Override
    public String toString() {
        return "ArrayTrie[caseSensitive=" + caseSensitive + ", keys=" + keys.size() + ", nodes=" + values.length +
            ", columns=" + columns + "]";
    }

    private V value(int node) {
        return cast(values[node]);
    }

    @SuppressWarnings("unchecked")
    private V cast(Object value) {
        return (V) value;
    }
}
