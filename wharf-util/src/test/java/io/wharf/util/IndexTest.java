package io.wharf.util;

import static io.wharf.util.internal.IndexLookups.get;
import static io.wharf.util.internal.IndexLookups.getBest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.wharf.util.internal.ArrayTrie;
import io.wharf.util.internal.TernaryTrie;
import io.wharf.util.internal.TreeTrie;

/** The {@link Index} builders: defaults, the structure each picks, and their checks. */
class IndexTest {

    enum Header {
        HOST("Host"), ACCEPT("Accept"), ACCEPT_ENCODING("Accept-Encoding"), CONNECTION("Connection"),
        CONTENT_LENGTH("Content-Length"), USER_AGENT("User-Agent");

        final String name;

        Header(String name) {
            this.name = name;
        }
    }

    @Test
    void defaultIsCaseInsensitiveArrayTrie() {
        Index<Header> index = Index.<Header>builder().withAll(Header.values(), header -> header.name).build();
        assertInstanceOf(ArrayTrie.class, index);
        assertFalse(index.isCaseSensitive());
        assertEquals(Header.ACCEPT_ENCODING, get(index, "accept-encoding"));
        assertEquals(Header.ACCEPT_ENCODING, getBest(index, "ACCEPT-ENCODING: gzip\r\n"));
        assertEquals(Header.ACCEPT, getBest(index, "Accept-Language: en\r\n"));
        assertNull(get(index, "Date"));
        assertEquals(6, index.size());
        assertEquals(Set.of("Host", "Accept", "Accept-Encoding", "Connection", "Content-Length", "User-Agent"), index.keySet());
    }

    @Test
    void headerLinesMatchWholeOrFallBackToTheName() {
        Index<String> index = Index.<String>builder()
            .with("Connection", "name")
            .with("Connection: close", "close")
            .with("Connection: keep-alive", "keep-alive")
            .build();
        assertEquals("keep-alive", getBest(index, "Connection: keep-alive\r\n"));
        assertEquals("name", getBest(index, "connection: Upgrade\r\n"));
        assertEquals("close", getBest(index, "CONNECTION: CLOSE\r\n"));
    }

    @Test
    void caseSensitiveBuilds() {
        Index<Integer> index = Index.<Integer>builder().caseSensitive(true).with("Host", 1).with("host", 2).build();
        assertTrue(index.isCaseSensitive());
        assertEquals(Integer.valueOf(1), get(index, "Host"));
        assertEquals(Integer.valueOf(2), get(index, "host"));
        assertNull(get(index, "HOST"));
    }

    @Test
    void laterKeysWinAndWithAllKeepsMapOrder() {
        Map<String, Integer> map = new LinkedHashMap<>();
        map.put("HOST", 1);
        map.put("Date", 2);
        Index.Builder<Integer> builder = Index.<Integer>builder().with("host", 0).withAll(map).with("date", 3);
        Index<Integer> index = builder.build();
        assertEquals(Integer.valueOf(1), get(index, "Host"));
        assertEquals(Integer.valueOf(3), get(index, "DATE"));
        assertEquals(Set.of("HOST", "date"), index.keySet());
        // Re-adding an exact key moves it after the others, so it wins again.
        index = builder.with("host", 4).build();
        assertEquals(Integer.valueOf(4), get(index, "Host"));
        assertEquals(Set.of("host", "date"), index.keySet());
        // Case-sensitive, the same calls keep them apart.
        Index<Integer> sensitive = builder.caseSensitive(true).build();
        assertEquals(4, sensitive.size());
    }

    @Test
    void largeSetsBecomeATree() {
        Index.Builder<Integer> builder = Index.builder();
        for (int i = 0; i < 5_000; i++) {
            builder.with("X-Custom-" + i + ": " + Integer.toString(i * 7_919, 36), i);
        }
        Index<Integer> index = builder.build();
        assertInstanceOf(TreeTrie.class, index);
        assertEquals(5_000, index.size());
        assertEquals(Integer.valueOf(4_321), get(index, "x-custom-4321: " + Integer.toString(4_321 * 7_919, 36)));
        assertEquals(Integer.valueOf(9), getBest(index, "X-CUSTOM-9: " + Integer.toString(9 * 7_919, 36) + "\r\n"));
    }

    @Test
    void emptyBuilderBuildsAnEmptyIndex() {
        Index<String> index = Index.<String>builder().build();
        assertTrue(index.isEmpty());
        assertNull(get(index, ""));
        assertNull(getBest(index, "Host"));
    }

    @Test
    void illegalKeysFailAtOnceNamingTheKey() {
        Index.Builder<String> builder = Index.builder();
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> builder.with("Host\r\n", "x"));
        assertTrue(failure.getMessage().startsWith("illegal index key \"Host\\u000d\\u000a\""), failure.getMessage());
        assertThrows(IllegalArgumentException.class, () -> builder.with("na\u00efve \u2603", "x"));
        assertThrows(IllegalArgumentException.class, () -> builder.withAll(Map.of("a\u0000", "x")));
        assertThrows(NullPointerException.class, () -> builder.with(null, "x"));
        NullPointerException nullValue = assertThrows(NullPointerException.class, () -> builder.with("Host", null));
        assertTrue(nullValue.getMessage().contains("\"Host\""), nullValue.getMessage());
        assertTrue(builder.build().isEmpty(), "failed calls added nothing");
        // Tab and obs-text are legal: learned header lines may hold them.
        Index<String> index = builder.with("X:\t\u00e9", "tab").build();
        assertEquals("tab", get(index, "x:\t\u00e9"));
    }

    @Test
    void mutableIsABoundedTernaryTrieWithTheKeysSoFar() {
        Index.Builder<String> builder = Index.<String>builder().with("Host", "host").with("Accept", "accept");
        Index.Mutable<String> cache = builder.mutable().maxCapacity(30).build();
        assertInstanceOf(TernaryTrie.class, cache);
        assertFalse(cache.isCaseSensitive());
        assertEquals(30, ((TernaryTrie<String>) cache).maxCapacity());
        assertEquals("host", get(cache, "HOST"));
        assertEquals(2, cache.size());
        assertTrue(cache.put("User-Agent: curl/8.5", "curl"), "10 nodes used, 20 new");
        assertFalse(cache.put("Cookie: a=b", "cookie"), "full");
        assertEquals("curl", getBest(cache, "user-agent: curl/8.5\r\n"));
        assertNull(get(cache, "Cookie: a=b"));
        assertEquals("accept", cache.remove("accept"));
        cache.clear();
        assertTrue(cache.put("Cookie: a=b", "cookie"));
        assertEquals("cookie", get(cache, "cookie: a=b"));
        // Each build is a new, independent cache; the builder kept its keys.
        Index.Mutable<String> other = builder.mutable().build();
        assertNotSame(cache, other);
        assertEquals("host", get(other, "Host"));
        assertEquals(Index.MutableBuilder.DEFAULT_MAX_CAPACITY, ((TernaryTrie<String>) other).maxCapacity());
        assertTrue(builder.caseSensitive(true).mutable().build().isCaseSensitive());
    }

    @Test
    void mutableCapacityIsChecked() {
        Index.MutableBuilder<String> builder = Index.<String>builder().with("Connection: keep-alive", "x").mutable();
        assertThrows(IllegalArgumentException.class, () -> builder.maxCapacity(0));
        assertThrows(IllegalArgumentException.class, () -> builder.maxCapacity(TernaryTrie.MAX_CAPACITY + 1));
        IllegalArgumentException tooSmall = assertThrows(IllegalArgumentException.class, () -> builder.maxCapacity(21).build());
        assertTrue(tooSmall.getMessage().contains("maxCapacity=21"), tooSmall.getMessage());
        assertEquals("x", builder.maxCapacity(22).build().get("connection: keep-alive"));
    }
}
