package io.wharf.util.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.wharf.util.Index;

/**
 * An immutable trie held as a tree of node objects, each with its children's folded octets
 * in a sorted {@code byte[]} searched by bisection. It has no size limit, so
 * {@link Index.Builder} uses it for key sets too large for an {@link ArrayTrie} table, and
 * it is the intermediate form from which an {@link ArrayTrie} is laid out.
 *
 * <p>Built once by {@link #of} on the building thread and never changed after, so it may be
 * shared by any number of threads (all fields are final and the nodes are reachable only
 * through them). Lookups read the caller's buffer, array or string without keeping it.
 *
 * @param <V> the type of the values
 */
public final class TreeTrie<V> implements Index<V> {

    private final boolean caseSensitive;
    private final char[] folding;
    private final Node root;
    private final int nodes;
    private final Set<String> keys;

    private TreeTrie(boolean caseSensitive, Node root, int nodes, Set<String> keys) {
        this.caseSensitive = caseSensitive;
        this.folding = KeyAlphabet.foldingTable(caseSensitive);
        this.root = root;
        this.nodes = nodes;
        this.keys = keys;
    }

    /**
     * @return a trie of the entries, in their iteration order: a key equal to an earlier one
     *     after folding replaces it
     * @throws IllegalArgumentException naming a key that holds an illegal character
     * @throws NullPointerException when a key or a value is null
     */
    public static <V> TreeTrie<V> of(boolean caseSensitive, Map<String, ? extends V> entries) {
        Node root = new Node();
        int nodes = 1;
        for (Map.Entry<String, ? extends V> entry : entries.entrySet()) {
            String key = KeyAlphabet.requireLegal(entry.getKey());
            Object value = Objects.requireNonNull(entry.getValue(), () -> "null value for index key " + KeyAlphabet.quote(key));
            Node node = root;
            for (int i = 0; i < key.length(); i++) {
                int octet = KeyAlphabet.fold(key.charAt(i), caseSensitive);
                Node child = node.child(octet);
                if (child == null) {
                    child = node.addChild(octet);
                    nodes++;
                }
                node = child;
            }
            node.key = key;
            node.value = value;
        }
        Set<String> keys = new LinkedHashSet<>();
        collectKeys(root, keys);
        return new TreeTrie<>(caseSensitive, root, nodes, Collections.unmodifiableSet(keys));
    }

    private static void collectKeys(Node node, Set<String> keys) {
        if (node.key != null) {
            keys.add(node.key);
        }
        for (Node child : node.children) {
            collectKeys(child, keys);
        }
    }

    /** @return the root node, for laying the trie out in another form */
    Node root() {
        return root;
    }

    /** @return the number of nodes, the root included */
    public int nodes() {
        return nodes;
    }

    @Override
    public V get(String key, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, key.length());
        Node node = root;
        for (int i = 0; i < length; i++) {
            char c = key.charAt(offset + i);
            if (c > 0xFF) {
                return null;
            }
            node = node.child(folding[c]);
            if (node == null) {
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
        Node node = root;
        for (int i = 0; i < length; i++) {
            node = node.child(folding[buffer.get(offset + i) & 0xFF]);
            if (node == null) {
                return null;
            }
        }
        return value(node);
    }

    private V get(byte[] bytes, int offset, int length) {
        Node node = root;
        for (int i = 0; i < length; i++) {
            node = node.child(folding[bytes[offset + i] & 0xFF]);
            if (node == null) {
                return null;
            }
        }
        return value(node);
    }

    @Override
    public V getBest(String string, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, string.length());
        Node node = root;
        Object best = node.value;
        for (int i = 0; i < length; i++) {
            char c = string.charAt(offset + i);
            if (c > 0xFF) {
                break;
            }
            node = node.child(folding[c]);
            if (node == null) {
                break;
            }
            if (node.value != null) {
                best = node.value;
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
        Node node = root;
        Object best = node.value;
        for (int i = 0; i < length; i++) {
            node = node.child(folding[buffer.get(offset + i) & 0xFF]);
            if (node == null) {
                break;
            }
            if (node.value != null) {
                best = node.value;
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
        Node node = root;
        Object best = node.value;
        for (int i = 0; i < length; i++) {
            node = node.child(folding[bytes[offset + i] & 0xFF]);
            if (node == null) {
                break;
            }
            if (node.value != null) {
                best = node.value;
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
        return "TreeTrie[caseSensitive=" + caseSensitive + ", keys=" + keys.size() + ", nodes=" + nodes + "]";
    }

    private V value(Node node) {
        return cast(node.value);
    }

    @SuppressWarnings("unchecked")
    private V cast(Object value) {
        return (V) value;
    }

    /**
     * One node: the value of the key ending here (null when none ends here) and the children
     * by folded octet, {@code octets} sorted ascending as unsigned values. Mutable only inside
     * {@link #of}.
     */
    static final class Node {

        private static final byte[] NO_OCTETS = new byte[0];
        private static final Node[] NO_CHILDREN = new Node[0];

        byte[] octets = NO_OCTETS;
        Node[] children = NO_CHILDREN;
        String key;
        Object value;

        /** @return the child reached by the folded {@code octet}, or null */
        Node child(int octet) {
            int index = indexOf(octet);
            return index >= 0 ? children[index] : null;
        }

        /** @return the index of {@code octet} in {@link #octets}, or {@code -(insertion point) - 1} */
        private int indexOf(int octet) {
            int low = 0;
            int high = octets.length - 1;
            while (low <= high) {
                int middle = (low + high) >>> 1;
                int found = octets[middle] & 0xFF;
                if (found < octet) {
                    low = middle + 1;
                } else if (found > octet) {
                    high = middle - 1;
                } else {
                    return middle;
                }
            }
            return -(low + 1);
        }

        /** @return a new child for {@code octet}, which must not have one yet */
        private Node addChild(int octet) {
            int at = -(indexOf(octet) + 1);
            int count = octets.length;
            byte[] newOctets = Arrays.copyOf(octets, count + 1);
            Node[] newChildren = Arrays.copyOf(children, count + 1);
            System.arraycopy(octets, at, newOctets, at + 1, count - at);
            System.arraycopy(children, at, newChildren, at + 1, count - at);
            Node child = new Node();
            newOctets[at] = (byte) octet;
            newChildren[at] = child;
            octets = newOctets;
            children = newChildren;
            return child;
        }
    }
}
