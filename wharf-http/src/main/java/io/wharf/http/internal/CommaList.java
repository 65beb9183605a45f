package io.wharf.http.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Walks a comma-separated field value (RFC 9110 section 5.6.1): elements are trimmed of
 * blanks, empty elements are skipped, and a comma inside a quoted string (with backslash
 * escapes) does not separate. Linear time; {@link #contains} allocates nothing.
 */
public final class CommaList {

    private CommaList() {
    }

    /** @return the non-empty elements of {@code value}, trimmed, quotes kept */
    public static List<String> split(String value) {
        List<String> elements = new ArrayList<>(2);
        int length = value.length();
        int start = 0;
        while (start < length) {
            int end = elementEnd(value, start);
            addTrimmed(elements, value, start, end);
            start = end + 1;
        }
        return elements;
    }

    /** @return whether an element of {@code value} equals {@code token}, ignoring ASCII case */
    public static boolean contains(String value, String token) {
        int length = value.length();
        int start = 0;
        while (start < length) {
            int end = elementEnd(value, start);
            int from = HttpTokens.skipBlanks(value, start, end);
            int to = HttpTokens.trimEnd(value, from, end);
            if (to - from == token.length() && value.regionMatches(true, from, token, 0, token.length())) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /** @return the index of the comma ending the element that starts at {@code start}, or the length */
    private static int elementEnd(String value, int start) {
        boolean quoted = false;
        for (int i = start; i < value.length(); i++) {
            char c = value.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                return i;
            }
        }
        return value.length();
    }

    private static void addTrimmed(List<String> elements, String value, int start, int end) {
        int from = HttpTokens.skipBlanks(value, start, end);
        int to = HttpTokens.trimEnd(value, from, end);
        if (to > from) {
            elements.add(value.substring(from, to));
        }
    }
}
