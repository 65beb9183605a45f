package io.wharf.util.internal;

import static io.wharf.util.internal.IndexLookups.get;
import static io.wharf.util.internal.IndexLookups.getBest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.wharf.util.Index;

/**
 * The behaviour every {@link Index} structure shares, run against each through a subclass
 * that says how to make one from entries.
 */
abstract class IndexContractTest {

    /** @return an index of {@code entries}, in their iteration order (a later folded-equal key wins) */
    abstract <V> Index<V> index(boolean caseSensitive, Map<String, V> entries);

    static Map<String, String> entries(String... keys) {
        Map<String, String> entries = new LinkedHashMap<>();
        for (String key : keys) {
            entries.put(key, "value of " + key);
        }
        return entries;
    }

    private Index<String> headerLines(boolean caseSensitive) {
        return index(caseSensitive, entries("Connection", "Connection: close", "Connection: keep-alive",
            "Accept-Encoding", "Accept-Encoding: gzip, deflate, br", "Host", "Accept"));
    }

    @Test
    void exactLookupsFindOnlyWholeKeys() {
        Index<String> index = headerLines(false);
        assertEquals("value of Connection", get(index, "Connection"));
        assertEquals("value of Connection: keep-alive", get(index, "Connection: keep-alive"));
        assertEquals("value of Accept-Encoding: gzip, deflate, br", get(index, "Accept-Encoding: gzip, deflate, br"));
        assertEquals("value of Accept", get(index, "Accept"));
        assertNull(get(index, "Connect"), "a prefix that is not a key");
        assertNull(get(index, "Connection:"), "between two keys");
        assertNull(get(index, "Connection: keep-alive\r"), "a key followed by more");
        assertNull(get(index, "Date"), "missing");
        assertNull(get(index, "H"));
        assertNull(get(index, ""), "no empty key");
        assertEquals(7, index.size());
        assertFalse(index.isEmpty());
    }

    @Test
    void bestLookupMatchesTheLongestKeyThatIsAPrefix() {
        Index<String> index = headerLines(false);
        assertEquals("value of Connection: keep-alive", getBest(index, "Connection: keep-alive\r\n"));
        assertEquals("value of Connection: close", getBest(index, "Connection: close\r\nHost: x\r\n"));
        assertEquals("value of Connection", getBest(index, "connection: Upgrade\r\n"));
        assertEquals("value of Connection", getBest(index, "CONNECTION: keep-alivf"));
        assertEquals("value of Connection", getBest(index, "Connection"));
        assertEquals("value of Accept-Encoding", getBest(index, "accept-encoding: gzip\r\n"));
        assertEquals("value of Accept", getBest(index, "Accept: */*\r\n"));
        assertEquals("value of Accept", getBest(index, "Accept-Language: en\r\n"));
        assertEquals("value of Host", getBest(index, "Host: example.com\r\n"));
        assertNull(getBest(index, "Connectio"), "only a prefix of keys");
        assertNull(getBest(index, "User-Agent: x\r\n"));
        assertNull(getBest(index, ""));
        assertNull(getBest(index, "\r\n"));
    }

    @Test
    void caseInsensitiveFoldsOnlyAsciiLetters() {
        Index<String> index = index(false, entries("Content-Type", "[a]", "@", "\u00e9t\u00e9"));
        assertFalse(index.isCaseSensitive());
        assertEquals("value of Content-Type", get(index, "content-type"));
        assertEquals("value of Content-Type", get(index, "CONTENT-TYPE"));
        assertEquals("value of Content-Type", get(index, "cOnTeNt-TyPe"));
        assertNull(get(index, "Content_Type"));
        assertEquals("value of [a]", get(index, "[A]"));
        // '{' and '}' differ from '[' and ']' by the bit that separates cases of letters.
        assertNull(get(index, "{a}"));
        assertNull(get(index, "`"), "'`' is '@' with the case bit");
        assertEquals("value of @", get(index, "@"));
        // obs-text is never folded, even for Latin-1 letters.
        assertEquals("value of \u00e9t\u00e9", get(index, "\u00e9T\u00e9"));
        assertNull(get(index, "\u00c9t\u00e9"));
    }

    @Test
    void caseSensitiveKeepsCasesApart() {
        Index<String> index = index(true, entries("Host", "host", "HOST: a"));
        assertTrue(index.isCaseSensitive());
        assertEquals("value of Host", get(index, "Host"));
        assertEquals("value of host", get(index, "host"));
        assertNull(get(index, "HOST"));
        assertNull(get(index, "hOST"));
        assertEquals("value of HOST: a", getBest(index, "HOST: a\r\n"));
        assertNull(getBest(index, "HOST: A\r\n"));
        assertEquals("value of host", getBest(index, "hostname"));
        assertEquals(3, index.size());
        assertEquals(Set.of("Host", "host", "HOST: a"), index.keySet());
    }

    @Test
    void laterKeyWinsWhenKeysFoldToTheSame() {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("HOST", "first");
        entries.put("host", "second");
        entries.put("Accept", "third");
        Index<String> index = index(false, entries);
        assertEquals("second", get(index, "Host"));
        assertEquals(2, index.size());
        assertEquals(Set.of("host", "Accept"), index.keySet());
    }

    @Test
    void emptyKeyIsTheFallbackOfEveryBestLookup() {
        Index<String> index = index(false, entries("", "Host"));
        assertEquals("value of ", get(index, ""));
        assertEquals("value of ", getBest(index, ""));
        assertEquals("value of ", getBest(index, "Date: today"));
        assertEquals("value of ", getBest(index, "Hos"));
        assertEquals("value of Host", getBest(index, "Host:"));
        assertNull(get(index, "Hos"));
        assertEquals(Set.of("", "Host"), index.keySet());
        assertEquals(2, index.size());
    }

    @Test
    void emptyIndexAnswersNothing() {
        Index<String> index = index(true, Map.of());
        assertNull(get(index, ""));
        assertNull(get(index, "a"));
        assertNull(getBest(index, "abc"));
        assertEquals(0, index.size());
        assertTrue(index.isEmpty());
        assertTrue(index.keySet().isEmpty());
    }

    @Test
    void keysMayHoldSpacesColonsTabsAndObsText() {
        Index<String> index = index(false, entries("Accept: */*", "Cache-Control: no-cache", "X-Tab:\tvalue",
            "User-Agent: caf\u00e9/1.0", "~!#$%&'*+-.^_`|"));
        assertEquals("value of Accept: */*", getBest(index, "ACCEPT: */*\r\n"));
        assertEquals("value of Cache-Control: no-cache", get(index, "cache-control: NO-CACHE"));
        assertEquals("value of X-Tab:\tvalue", getBest(index, "x-tab:\tvalue\r\n"));
        assertNull(getBest(index, "x-tab: value\r\n"), "tab and space differ");
        assertEquals("value of User-Agent: caf\u00e9/1.0", getBest(index, "user-agent: CAF\u00e9/1.0\r\n"));
        assertEquals("value of ~!#$%&'*+-.^_`|", get(index, "~!#$%&'*+-.^_`|"));
    }

    @Test
    void charactersBeyondLatin1InALookupMatchNothing() {
        Index<String> index = index(false, entries("Host", "Host: a"));
        assertNull(get(index, "Ho\u0173t"));
        assertNull(get(index, "\u20ac"));
        assertEquals("value of Host", getBest(index, "Host\u20ac: a"));
        assertEquals("value of Host", getBest(index, "Host:\u0120a"), "U+0120 must not alias space (0x20)");
        assertNull(get(index, "H\u016Fst"), "U+016F must not alias 'o' (0x6F)");
    }

    @Test
    void bytesOutsideTheKeysAlphabetMatchNothing() {
        Index<String> index = index(false, entries("Host", "Host: a"));
        byte[] bytes = {'H', 'o', (byte) 0xF3, 't'};
        assertNull(index.get(ByteBuffer.wrap(bytes)));
        assertNull(index.getBest(bytes, 0, 4));
        byte[] withNul = {'H', 'o', 's', 't', 0, 'x'};
        assertEquals("value of Host", index.getBest(withNul, 0, withNul.length));
        assertNull(index.get(ByteBuffer.wrap(withNul)));
    }

    @Test
    void rangesOutsideTheInputAreRejected() {
        Index<String> index = headerLines(false);
        ByteBuffer buffer = ByteBuffer.wrap("Host: a".getBytes(StandardCharsets.US_ASCII)).limit(4);
        assertEquals("value of Host", index.get(buffer, 0, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> index.get(buffer, 0, 5), "past the limit");
        assertThrows(IndexOutOfBoundsException.class, () -> index.getBest(buffer, 1, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> index.get(buffer, -1, 2));
        ByteBuffer direct = ByteBuffer.allocateDirect(8).put("Host: a".getBytes(StandardCharsets.US_ASCII)).flip();
        assertThrows(IndexOutOfBoundsException.class, () -> index.getBest(direct, 4, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> index.getBest(new byte[3], 2, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> index.get("Host", 1, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> index.getBest("Host", 0, -1));
    }

    @Test
    void keySetIsUnmodifiable() {
        Index<String> index = headerLines(true);
        assertEquals(headerLines(true).keySet(), index.keySet());
        assertThrows(UnsupportedOperationException.class, () -> index.keySet().add("Date"));
        assertEquals(entries("Connection", "Connection: close", "Connection: keep-alive", "Accept-Encoding",
            "Accept-Encoding: gzip, deflate, br", "Host", "Accept").keySet(), index.keySet());
    }

    @Test
    void illegalKeysAreRejectedNamingTheKey() {
        for (String key : new String[] {"Host\r\n", "a\u0000b", "Del\u007f", "\u20ac uro", "line\nfeed"}) {
            IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> index(false, entries("Host", key)), () -> "key " + KeyAlphabet.quote(key));
            assertTrue(failure.getMessage().contains(KeyAlphabet.quote(key)), failure.getMessage());
        }
    }

    @Test
    void nullValuesAreRejected() {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("Host", null);
        assertThrows(NullPointerException.class, () -> index(false, entries));
    }
}
