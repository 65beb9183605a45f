package io.wharf.util.internal;

import static io.wharf.util.internal.IndexLookups.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.wharf.util.Index;

class ArrayTrieTest extends IndexContractTest {

    @Override
    <V> Index<V> index(boolean caseSensitive, Map<String, V> entries) {
        return ArrayTrie.of(TreeTrie.of(caseSensitive, entries));
    }

    @Test
    void alphabetIsOnlyTheOctetsOfTheKeysWithCasesSharingAColumn() {
        ArrayTrie<String> insensitive = ArrayTrie.of(TreeTrie.of(false, entries("Ab", "aB:", "c")));
        // dead column, a, b, c, ':'
        assertEquals(5, insensitive.columns());
        assertEquals(5, insensitive.nodes(), "root, a, ab, ab:, c");
        ArrayTrie<String> sensitive = ArrayTrie.of(TreeTrie.of(true, entries("Ab", "aB:", "c")));
        // dead column, A, B, a, b, c, ':'
        assertEquals(7, sensitive.columns());
        assertEquals(7, sensitive.nodes(), "root, A, Ab, a, aB, aB:, c");
        assertEquals(1, ArrayTrie.of(TreeTrie.of(false, entries())).columns());
    }

    @Test
    void commonHeaderNamesAndLinesFitInOneSmallTable() {
        Map<String, String> entries = entries("Accept", "Accept-Charset", "Accept-Encoding", "Accept-Language",
            "Accept-Ranges", "Authorization", "Cache-Control", "Connection", "Content-Encoding", "Content-Length",
            "Content-Type", "Cookie", "Date", "ETag", "Expect", "Host", "If-Modified-Since", "If-None-Match",
            "Keep-Alive", "Last-Modified", "Location", "Origin", "Pragma", "Range", "Referer", "Server",
            "Set-Cookie", "Transfer-Encoding", "Upgrade", "User-Agent", "Vary", "Via",
            "Connection: close", "Connection: keep-alive", "Connection: Upgrade", "Accept: */*",
            "Accept-Encoding: gzip", "Accept-Encoding: gzip, deflate", "Accept-Encoding: gzip, deflate, br",
            "Accept-Language: en-US,en;q=0.5", "Cache-Control: no-cache", "Cache-Control: max-age=0",
            "Pragma: no-cache", "Transfer-Encoding: chunked", "Upgrade-Insecure-Requests: 1",
            "Content-Type: application/json", "Expect: 100-continue", "Sec-Fetch-Mode: navigate",
            "Sec-Fetch-Site: none", "Sec-Fetch-Dest: document", "Sec-Fetch-User: ?1", "DNT: 1");
        TreeTrie<String> tree = TreeTrie.of(false, entries);
        assertTrue(ArrayTrie.canHold(tree));
        ArrayTrie<String> trie = ArrayTrie.of(tree);
        assertTrue((long) trie.nodes() * trie.columns() * Character.BYTES < 64 * 1024, trie::toString);
        for (String key : entries.keySet()) {
            assertEquals("value of " + key, get(trie, key.toUpperCase()));
        }
    }

    @Test
    void refusesATableBeyondItsBound() {
        Map<String, Integer> entries = new LinkedHashMap<>();
        for (int i = 0; i < 3_000; i++) {
            entries.put("key-" + Integer.toString(i * 104_729, 36), i);
        }
        TreeTrie<Integer> tree = TreeTrie.of(true, entries);
        assertTrue((long) tree.nodes() * 38 > ArrayTrie.MAX_TABLE_CELLS, tree::toString);
        assertFalse(ArrayTrie.canHold(tree));
        assertThrows(IllegalArgumentException.class, () -> ArrayTrie.of(tree));
    }

    @Test
    void unknownOctetsLandInTheDeadColumn() {
        ArrayTrie<String> trie = ArrayTrie.of(TreeTrie.of(false, entries("ab")));
        for (int octet = 0; octet < KeyAlphabet.OCTETS; octet++) {
            String one = String.valueOf((char) octet);
            if (octet != 'a' && octet != 'A') {
                assertNull(get(trie, one + "b"), one);
            }
        }
        assertEquals("value of ab", get(trie, "AB"));
    }
}
