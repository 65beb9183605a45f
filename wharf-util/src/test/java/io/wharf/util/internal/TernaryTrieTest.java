package io.wharf.util.internal;

import static io.wharf.util.internal.IndexLookups.get;
import static io.wharf.util.internal.IndexLookups.getBest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.wharf.util.Index;

class TernaryTrieTest extends IndexContractTest {

    @Override
    <V> Index<V> index(boolean caseSensitive, Map<String, V> entries) {
        return TernaryTrie.of(caseSensitive, TernaryTrie.MAX_CAPACITY, entries);
    }

    @Test
    void putFailsWithoutChangeWhenTheKeyDoesNotFit() {
        TernaryTrie<String> trie = new TernaryTrie<>(false, 10);
        assertTrue(trie.put("Host", "h"));
        assertEquals(4, trie.nodes());
        assertTrue(trie.put("Host: a", "ha"), "3 more nodes: ':', ' ', 'a'");
        assertEquals(7, trie.nodes());
        assertFalse(trie.put("Accept", "a"), "6 more nodes do not fit in 3");
        assertEquals(7, trie.nodes(), "nothing of the refused key was kept");
        assertEquals(2, trie.size());
        assertNull(get(trie, "Accept"));
        assertNull(getBest(trie, "Accept: */*"));
        assertNull(get(trie, "A"));
        assertTrue(trie.put("Host: abc", "habc"), "exactly fills the trie");
        assertEquals(9, trie.nodes());
        assertTrue(trie.put("Hos", "hos"), "a prefix of a path needs no node");
        assertTrue(trie.put("host", "h2"), "replacing needs no node");
        assertTrue(trie.put("X", "x"), "the last node");
        assertEquals(10, trie.nodes());
        assertFalse(trie.put("Y", "y"));
        assertFalse(trie.put("Host: abcd", "habcd"));
        assertFalse(trie.put("Host: b", "hb"));
        assertEquals(10, trie.nodes());
        assertEquals(5, trie.size());
        assertEquals("h2", get(trie, "HOST"));
        assertEquals("ha", getBest(trie, "host: ab\r\n"));
        assertEquals("habc", getBest(trie, "host: abcd\r\n"));
        assertEquals("hos", getBest(trie, "hoss"));
        assertEquals("x", get(trie, "x"));
        assertNull(get(trie, "Y"));
        assertEquals("h2", getBest(trie, "Host: b"), "the refused key left nothing; its prefix answers");
        assertEquals(Set.of("host", "Host: a", "Host: abc", "Hos", "X"), trie.keySet());
    }

    @Test
    void theEmptyKeyNeedsNoNode() {
        TernaryTrie<String> trie = new TernaryTrie<>(true, 1);
        assertTrue(trie.put("", "empty"));
        assertEquals(0, trie.nodes());
        assertTrue(trie.put("a", "a"));
        assertFalse(trie.put("b", "b"));
        assertEquals("empty", getBest(trie, "b"));
        assertEquals("a", getBest(trie, "ab"));
        assertEquals("empty", trie.remove(""));
        assertNull(trie.remove(""));
        assertNull(getBest(trie, "b"));
        assertEquals(1, trie.size());
    }

    @Test
    void removeForgetsTheKeyButKeepsItsNodes() {
        TernaryTrie<String> trie = new TernaryTrie<>(false, 64);
        trie.put("Connection", "c");
        trie.put("Connection: close", "cc");
        trie.put("Cookie", "k");
        int nodes = trie.nodes();
        assertEquals("c", trie.remove("CONNECTION"));
        assertNull(trie.remove("Connection"), "already removed");
        assertNull(trie.remove("Conn"), "a path, never a key");
        assertNull(trie.remove("Date"), "missing");
        assertNull(trie.remove("Connection: close!"), "longer than any key");
        assertNull(trie.remove("C\u20ac"), "beyond Latin-1");
        assertEquals(nodes, trie.nodes());
        assertEquals(2, trie.size());
        assertNull(get(trie, "Connection"));
        assertNull(getBest(trie, "Connection: keep-alive"));
        assertEquals("cc", getBest(trie, "Connection: close\r\n"));
        assertEquals("k", get(trie, "cookie"));
        assertEquals(Set.of("Connection: close", "Cookie"), trie.keySet());
        assertTrue(trie.put("connection", "c2"), "the nodes are still there");
        assertEquals(nodes, trie.nodes());
        assertEquals("c2", getBest(trie, "Connection: keep-alive"));
    }

    @Test
    void clearGivesAllTheRoomBack() {
        TernaryTrie<String> trie = new TernaryTrie<>(false, 20);
        assertTrue(trie.put("User-Agent: curl/8", "curl"));
        assertFalse(trie.put("Accept: */*", "accept"));
        trie.put("", "empty");
        trie.clear();
        assertEquals(0, trie.nodes());
        assertEquals(0, trie.size());
        assertTrue(trie.isEmpty());
        assertTrue(trie.keySet().isEmpty());
        assertNull(get(trie, "User-Agent: curl/8"));
        assertNull(getBest(trie, "User-Agent: curl/8"));
        assertTrue(trie.put("Accept: */*", "accept"));
        assertEquals("accept", get(trie, "accept: */*"));
    }

    @Test
    void arraysGrowWithUseUpToTheBound() {
        TernaryTrie<Integer> trie = new TernaryTrie<>(true, 1000);
        for (int i = 0; i < 100; i++) {
            assertTrue(trie.put("k" + i, i));
        }
        for (int i = 0; i < 100; i++) {
            assertEquals(Integer.valueOf(i), get(trie, "k" + i));
        }
        assertEquals(100, trie.size());
        assertEquals(101, trie.nodes(), "k, then 10 first and 90 second digits");
        String longest = "x".repeat(1000 - trie.nodes());
        assertTrue(trie.put(longest, -1), "fills exactly to the bound");
        assertEquals(1000, trie.nodes());
        assertFalse(trie.put("y", -2));
        assertEquals(Integer.valueOf(-1), get(trie, longest));
        assertEquals(Integer.valueOf(42), get(trie, "k42"));
    }

    @Test
    void holdsTheLargestCapacity() {
        TernaryTrie<Integer> trie = new TernaryTrie<>(true, TernaryTrie.MAX_CAPACITY);
        int count = 0;
        while (trie.put(String.format("%06d", count * 7), count)) {
            count++;
        }
        assertTrue(trie.nodes() > TernaryTrie.MAX_CAPACITY - 6, trie::toString);
        assertTrue(trie.nodes() <= TernaryTrie.MAX_CAPACITY, trie::toString);
        for (int i = 0; i < count; i += 97) {
            assertEquals(Integer.valueOf(i), trie.get(String.format("%06d", i * 7)));
        }
        assertEquals(Integer.valueOf(count - 1), trie.get(String.format("%06d", (count - 1) * 7)));
    }

    @Test
    void capacityMustBeWithinBounds() {
        assertThrows(IllegalArgumentException.class, () -> new TernaryTrie<>(false, 0));
        assertThrows(IllegalArgumentException.class, () -> new TernaryTrie<>(false, TernaryTrie.MAX_CAPACITY + 1));
        IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
            () -> TernaryTrie.of(false, 5, entries("Host", "Date")));
        assertTrue(tooMany.getMessage().contains("maxCapacity=5"), tooMany.getMessage());
    }

    @Test
    void putRejectsIllegalKeysAndNullsWithoutChange() {
        TernaryTrie<String> trie = new TernaryTrie<>(false, 100);
        trie.put("Host", "h");
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> trie.put("Hos\r\n", "x"));
        assertTrue(failure.getMessage().contains("\"Hos\\u000d\\u000a\""), failure.getMessage());
        assertThrows(IllegalArgumentException.class, () -> trie.put("Ho\u0173t", "x"));
        assertThrows(NullPointerException.class, () -> trie.put("Host", null));
        assertThrows(NullPointerException.class, () -> trie.put(null, "x"));
        assertEquals(4, trie.nodes());
        assertEquals("h", get(trie, "host"));
    }

    @Test
    void initialKeysAreInsertedBalanced() {
        // Sorted one-character keys inserted in order would make a 26-deep sibling chain; middle
        // first makes a balanced tree of depth ceil(log2(27)).
        // Given from both ends inwards, whatever order of()'s caller uses.
        Map<String, String> entries = entries("a", "z", "b", "y", "c", "x", "d", "w", "e", "v", "f", "u", "g",
            "t", "h", "s", "i", "r", "j", "q", "k", "p", "l", "o", "m", "n");
        TernaryTrie<String> trie = TernaryTrie.of(false, 26, entries);
        assertEquals(26, trie.nodes());
        assertEquals(5, trie.depth());
        TernaryTrie<String> inOrder = new TernaryTrie<>(false, 26);
        entries.keySet().stream().sorted().forEach(key -> inOrder.put(key, key));
        assertEquals(26, inOrder.depth(), "the degenerate shape the balanced order avoids");
        for (String key : entries.keySet()) {
            assertEquals("value of " + key, get(trie, key.toUpperCase()));
        }
    }
}
