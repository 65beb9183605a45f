package io.wharf.http.form;

import java.nio.ByteBuffer;

/**
 * Finds a multipart delimiter ({@code CRLF--boundary}) in content that arrives in chunks,
 * in linear time whatever the content: a Knuth-Morris-Pratt automaton whose state is how many
 * bytes of the delimiter the content ends with so far. Bytes that turn out not to start a
 * delimiter are handed to a {@link ContentSink} in order.
 *
 * <p>A partial match that spans chunks needs no copy of the earlier chunk: the bytes held back
 * are, by definition, the first bytes of the delimiter, so when a mismatch releases some of
 * them they are released from the delimiter itself.
 *
 * <p>Used by one parser on its parsing thread; reads chunks it is given without keeping them.
 */
final class DelimiterSearch {

    /** Where the content between delimiters goes. */
    interface ContentSink {

        /** Takes {@code length} bytes of {@code bytes} from {@code offset}; must not keep the array. */
        void content(byte[] bytes, int offset, int length);

        /** Takes the bytes of {@code chunk} from {@code from} to {@code to}; must not keep the chunk or move its position. */
        void content(ByteBuffer chunk, int from, int to);
    }

    /** A sink that drops the content: for the preamble. */
    static final ContentSink DISCARD = new ContentSink() {
        @Override
        public void content(byte[] bytes, int offset, int length) {
        }

        @Override
        public void content(ByteBuffer chunk, int from, int to) {
        }
    };

    private final byte[] delimiter;
    /** {@code fallback[j]}: the longest proper prefix of the delimiter's first j bytes that is also their suffix. */
    private final int[] fallback;
    private int matched;

    /**
     * @param delimiter the bytes to find, at least one
     */
    DelimiterSearch(byte[] delimiter) {
        this.delimiter = delimiter.clone();
        this.fallback = fallbackTable(this.delimiter);
    }

    /**
     * Starts a new search as though the content so far ended with the first
     * {@code alreadyMatched} bytes of the delimiter (2 at the start of a body, whose first
     * delimiter needs no CRLF before it).
     */
    void restart(int alreadyMatched) {
        if (alreadyMatched < 0 || alreadyMatched >= delimiter.length) {
            throw new IllegalArgumentException("already matched " + alreadyMatched + " of " + delimiter.length);
        }
        matched = alreadyMatched;
    }

    /**
     * Reads {@code chunk} from its position until the end of a delimiter or the chunk's limit,
     * handing the content before the delimiter to {@code sink}.
     *
     * @return true when a delimiter ended, with the chunk's position just past it; false when
     *     the chunk was used up (position at its limit), a partial match held back
     */
    boolean find(ByteBuffer chunk, ContentSink sink) {
        int limit = chunk.limit();
        int runStart = -1;
        for (int index = chunk.position(); index < limit; index++) {
            byte b = chunk.get(index);
            // While a match is open no run is: the run was handed over when the match began.
            while (matched > 0 && b != delimiter[matched]) {
                int shorter = fallback[matched];
                sink.content(delimiter, 0, matched - shorter);
                matched = shorter;
            }
            if (b == delimiter[matched]) {
                if (runStart >= 0) {
                    sink.content(chunk, runStart, index);
                    runStart = -1;
                }
                matched++;
                if (matched == delimiter.length) {
                    matched = 0;
                    chunk.position(index + 1);
                    return true;
                }
            } else if (runStart < 0) {
                runStart = index;
            }
        }
        if (runStart >= 0) {
            sink.content(chunk, runStart, limit);
        }
        chunk.position(limit);
        return false;
    }

    private static int[] fallbackTable(byte[] pattern) {
        int[] table = new int[pattern.length + 1];
        int length = 0;
        for (int i = 1; i < pattern.length; i++) {
            while (length > 0 && pattern[i] != pattern[length]) {
                length = table[length];
            }
            if (pattern[i] == pattern[length]) {
                length++;
            }
            table[i + 1] = length;
        }
        return table;
    }
}
