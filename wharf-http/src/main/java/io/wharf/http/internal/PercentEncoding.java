package io.wharf.http.internal;

/**
 * The byte-level pieces of RFC 3986 percent-encoding (section 2.1): reading one {@code %XX}
 * triplet, reading one non-standard {@code %uXXXX} UTF-16 escape, and writing a triplet.
 * Stateless; callable from any thread. Reads never run past the limit they are given.
 */
public final class PercentEncoding {

    private static final char[] HEX_DIGITS = "0123456789ABCDEF".toCharArray();

    private PercentEncoding() {
    }

    /** @return the value 0-15 of the hexadecimal digit {@code c}, or -1 if it is not one */
    public static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /**
     * @param text the text holding a triplet
     * @param index where the {@code '%'} is
     * @param limit the end of the region that may be read
     * @return the byte 0-255 the triplet {@code %XX} at {@code index} encodes, or -1 when fewer
     *     than two hexadecimal digits follow the {@code '%'} before {@code limit}
     */
    public static int byteAt(CharSequence text, int index, int limit) {
        if (index + 2 >= limit) {
            return -1;
        }
        int high = hexValue(text.charAt(index + 1));
        int low = hexValue(text.charAt(index + 2));
        if (high < 0 || low < 0) {
            return -1;
        }
        return high << 4 | low;
    }

    /**
     * @param text the text holding an escape
     * @param index where the {@code '%'} is
     * @param limit the end of the region that may be read
     * @return the UTF-16 code unit the escape {@code %uXXXX} at {@code index} encodes, or -1 when
     *     it is not a {@code 'u'} or {@code 'U'} and four hexadecimal digits before {@code limit}
     */
    public static int utf16UnitAt(CharSequence text, int index, int limit) {
        if (index + 5 >= limit) {
            return -1;
        }
        char u = text.charAt(index + 1);
        if (u != 'u' && u != 'U') {
            return -1;
        }
        int unit = 0;
        for (int i = index + 2; i < index + 6; i++) {
            int digit = hexValue(text.charAt(i));
            if (digit < 0) {
                return -1;
            }
            unit = unit << 4 | digit;
        }
        return unit;
    }

    /** Appends {@code %XX} for the low eight bits of {@code value}, with upper-case digits. */
    public static void appendTriplet(StringBuilder out, int value) {
        out.append('%').append(HEX_DIGITS[value >> 4 & 0xF]).append(HEX_DIGITS[value & 0xF]);
    }
}
