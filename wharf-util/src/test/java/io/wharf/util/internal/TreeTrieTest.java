package io.wharf.util.internal;

import static io.wharf.util.internal.IndexLookups.get;
import static io.wharf.util.internal.IndexLookups.getBest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.wharf.util.Index;

class TreeTrieTest extends IndexContractTest {

    @Override
    <V> Index<V> index(boolean caseSensitive, Map<String, V> entries) {
        return TreeTrie.of(caseSensitive, entries);
    }

    @Test
    void countsOneNodePerDistinctFoldedPrefix() {
        assertEquals(1, TreeTrie.of(false, entries()).nodes());
        assertEquals(1, TreeTrie.of(false, entries("")).nodes());
        // root, a, ab, abc, abd, b
        assertEquals(6, TreeTrie.of(false, entries("abc", "ABD", "ab", "b")).nodes());
        // case-sensitive: root, a, ab, abc, A, AB, ABD, ab, b -> "ab" shared with "abc"
        assertEquals(8, TreeTrie.of(true, entries("abc", "ABD", "ab", "b")).nodes());
    }

    @Test
    void holdsKeySetsFarBeyondAnArrayTable() {
        Map<String, Integer> entries = new LinkedHashMap<>();
        for (int i = 0; i < 20_000; i++) {
            entries.put("X-Header-" + i + ": value " + Integer.toHexString(i * 7919), i);
        }
        TreeTrie<Integer> tree = TreeTrie.of(false, entries);
        assertEquals(20_000, tree.size());
        assertEquals(Integer.valueOf(12_345), get(tree, "x-header-12345: VALUE " + Integer.toHexString(12_345 * 7919)));
        assertEquals(Integer.valueOf(7), getBest(tree, "X-HEADER-7: value " + Integer.toHexString(7 * 7919) + "\r\n"));
        assertNull(get(tree, "X-Header-20000: value 0"));
    }

    @Test
    void childrenStaySortedWhateverTheInsertionOrder() {
        // Inserting children out of order must keep bisection right.
        Map<String, String> entries = entries("m", "c", "x", "a", "\u00ff", "\t", "~", "M2", " ");
        TreeTrie<String> tree = TreeTrie.of(true, entries);
        for (String key : entries.keySet()) {
            assertEquals("value of " + key, get(tree, key));
        }
        assertNull(get(tree, "b"));
        assertNull(get(tree, "\u00fe"));
    }
}
