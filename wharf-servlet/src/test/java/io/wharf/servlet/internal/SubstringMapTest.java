package io.wharf.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wharf.testing.ThreadAllocation;

import org.junit.jupiter.api.Test;

/** The map the mapping tables look parts of a path up in, without cutting substrings. */
class SubstringMapTest {

    @Test
    void findsAKeyByAPartOfAnotherString() {
        SubstringMap<String> map = new SubstringMap<>();
        assertNull(map.put("/a/b", "ab"));
        assertNull(map.put("", "empty"));
        assertNull(map.put("jsp", "jsp"));
        assertEquals("ab", map.get("/a/b/c", 0, 4));
        assertEquals("ab", map.get("/a/b"));
        assertEquals("jsp", map.get("/x.jsp", 3, 6));
        assertEquals("empty", map.get("/x", 0, 0));
        assertEquals("empty", map.get(""));
        assertNull(map.get("/a/b/c", 0, 3));
        assertNull(map.get("/a/b/c", 0, 5));
        assertNull(map.get("/A/b", 0, 4));
        assertEquals(3, map.size());
    }

    @Test
    void putReplacesAndReturnsThePreviousValue() {
        SubstringMap<String> map = new SubstringMap<>();
        map.put("k", "one");
        assertEquals("one", map.put("k", "two"));
        assertEquals("two", map.get("k"));
        assertEquals(1, map.size());
    }

    @Test
    void theHashOfAPartIsTheHashOfThatString() {
        String source = "/über/päth/ü.jsp";
        for (int from = 0; from <= source.length(); from++) {
            for (int to = from; to <= source.length(); to++) {
                assertEquals(source.substring(from, to).hashCode(), SubstringMap.hashOf(source, from, to));
            }
        }
    }

    @Test
    void growsAndKeepsEveryKey() {
        SubstringMap<Integer> map = new SubstringMap<>();
        for (int i = 0; i < 10_000; i++) {
            map.put("/k/" + i, i);
        }
        assertEquals(10_000, map.size());
        for (int i = 0; i < 10_000; i++) {
            String path = "/k/" + i + "/rest";
            assertEquals(i, map.get(path, 0, path.length() - 5));
        }
        assertNull(map.get("/k/10000"));
    }

    /** Keys whose hashes collide (String.hashCode of "Aa" and "BB" is the same) are told apart by their text. */
    @Test
    void collidingHashesAreToldApart() {
        SubstringMap<String> map = new SubstringMap<>();
        map.put("/Aa", "Aa");
        map.put("/BB", "BB");
        assertEquals("Aa", map.get("/Aa/x", 0, 3));
        assertEquals("BB", map.get("/BB/x", 0, 3));
        assertNull(map.get("/AB/x", 0, 3));
    }

    /** A lookup by a part of a string allocates nothing. */
    @Test
    void aLookupAllocatesNothing() {
        SubstringMap<String> map = new SubstringMap<>();
        for (int i = 0; i < 100; i++) {
            map.put("/prefix/" + i, "v" + i);
        }
        String path = "/prefix/42/and/more";
        long perLookup = ThreadAllocation.perRun(20_000, 100_000, () -> {
            if (map.get(path, 0, 10) == null) {
                throw new AssertionError("not found");
            }
        });
        assertEquals(0, perLookup);
    }
}
