package io.wharf.http;

import java.nio.charset.StandardCharsets;

import io.wharf.http.internal.PercentEncoding;
import io.wharf.http.internal.SegmentStarts;
import io.wharf.http.internal.UriCharacters;
import io.wharf.http.internal.Utf8Accumulator;

/**
 * Operations on URI paths and query components for code that maps, builds or serves paths:
 * strict percent-decoding, dot-segment removal, percent-encoding, joining. Unlike
 * {@link HttpURI}, which notes ambiguities for a compliance mode to judge, these refuse bad
 * input outright with an {@link IllegalArgumentException} naming the problem.
 *
 * <p>Stateless; callable from any thread. Works on Strings and holds no buffers. Every
 * operation is linear in its input and returns its argument unchanged when there is nothing
 * to do.
 */
public final class UriPath {

    private UriPath() {
    }

    /**
     * Percent-decodes a path as strict UTF-8. A {@code '+'} stays a {@code '+'}; parameters
     * and dot segments are left as they are.
     *
     * @throws IllegalArgumentException for a {@code '%'} without two hexadecimal digits, bytes
     *     that are not well-formed UTF-8 (overlong forms included), or a NUL
     */
    public static String decodePath(String path) {
        String decoded = decode(path, false);
        if (decoded.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("NUL character in URI path");
        }
        return decoded;
    }

    /**
     * Percent-decodes one {@code application/x-www-form-urlencoded} query name or value as
     * strict UTF-8, reading {@code '+'} as a space.
     *
     * @throws IllegalArgumentException for a bad escape or bytes that are not well-formed UTF-8
     */
    public static String decodeQueryComponent(String component) {
        return decode(component, true);
    }

    private static String decode(String text, boolean plusIsSpace) {
        int first = firstToDecode(text, plusIsSpace);
        if (first < 0) {
            return text;
        }
        int length = text.length();
        StringBuilder out = new StringBuilder(length);
        out.append(text, 0, first);
        Utf8Accumulator utf8 = new Utf8Accumulator(out);
        for (int i = first; i < length; i++) {
            char c = text.charAt(i);
            if (c == '%') {
                int value = PercentEncoding.byteAt(text, i, length);
                if (value < 0) {
                    throw new IllegalArgumentException(UriCompliance.Violation.BAD_PERCENT_ENCODING.getDescription());
                }
                if (!utf8.add(value)) {
                    throw new IllegalArgumentException(UriCompliance.Violation.BAD_UTF8_ENCODING.getDescription());
                }
                i += 2;
            } else {
                if (!utf8.finish()) {
                    throw new IllegalArgumentException(UriCompliance.Violation.BAD_UTF8_ENCODING.getDescription());
                }
                out.append(plusIsSpace && c == '+' ? ' ' : c);
            }
        }
        if (!utf8.finish()) {
            throw new IllegalArgumentException(UriCompliance.Violation.BAD_UTF8_ENCODING.getDescription());
        }
        return out.toString();
    }

    private static int firstToDecode(String text, boolean plusIsSpace) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%' || plusIsSpace && c == '+') {
                return i;
            }
        }
        return -1;
    }

    /**
     * Removes {@code "."} and {@code ".."} segments (RFC 3986 section 5.2.4) from a path,
     * encoded or decoded; only literal dots count. A path ending in a dot segment keeps its
     * trailing {@code '/'}. Empty segments and parameters are kept.
     *
     * @return the canonical path, or null when a {@code ".."} would climb above the root
     */
    public static String canonicalPath(String path) {
        if (!hasDotSegment(path)) {
            return path;
        }
        boolean rooted = path.startsWith("/");
        int length = path.length();
        StringBuilder out = new StringBuilder(length);
        SegmentStarts starts = new SegmentStarts();
        int start = rooted ? 1 : 0;
        while (true) {
            int end = path.indexOf('/', start);
            boolean last = end < 0;
            if (last) {
                end = length;
            }
            int dots = dotSegmentLength(path, start, end);
            if (dots == 0) {
                starts.push(out.length());
                if (rooted || out.length() > 0) {
                    out.append('/');
                }
                out.append(path, start, end);
            } else {
                if (dots == 2) {
                    if (starts.isEmpty()) {
                        return null;
                    }
                    out.setLength(starts.pop());
                }
                if (last && (rooted || out.length() > 0)) {
                    out.append('/');
                }
            }
            if (last) {
                return out.toString();
            }
            start = end + 1;
        }
    }

    private static boolean hasDotSegment(String path) {
        int start = 0;
        int length = path.length();
        while (start <= length) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = length;
            }
            if (dotSegmentLength(path, start, end) > 0) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private static int dotSegmentLength(String path, int start, int end) {
        int length = end - start;
        if (length == 1 && path.charAt(start) == '.') {
            return 1;
        }
        if (length == 2 && path.charAt(start) == '.' && path.charAt(start + 1) == '.') {
            return 2;
        }
        return 0;
    }

    /**
     * Percent-encodes, as UTF-8, every character of a decoded path that a path may not hold
     * raw. Kept: {@code '/'}, unreserved characters, sub-delimiters other than {@code ';'},
     * {@code ':'} and {@code '@'}. Encoded: everything else, including {@code '%'},
     * {@code ';'} (so it cannot read as a parameter), {@code '?'}, {@code '#'}, {@code '\'},
     * spaces, controls and non-ASCII.
     *
     * @throws IllegalArgumentException for an unpaired surrogate, which has no UTF-8 form
     */
    public static String encodePath(String path) {
        int length = path.length();
        int first = 0;
        while (first < length && keepsRaw(path.charAt(first))) {
            first++;
        }
        if (first == length) {
            return path;
        }
        StringBuilder out = new StringBuilder(length + 16);
        out.append(path, 0, first);
        for (int i = first; i < length; i++) {
            char c = path.charAt(i);
            if (keepsRaw(c)) {
                out.append(c);
            } else if (c < 0x80) {
                PercentEncoding.appendTriplet(out, c);
            } else {
                int codePoint = path.codePointAt(i);
                if (Character.isSurrogate(c) && !Character.isSupplementaryCodePoint(codePoint)) {
                    throw new IllegalArgumentException("unpaired surrogate in path at index " + i);
                }
                for (byte b : Character.toString(codePoint).getBytes(StandardCharsets.UTF_8)) {
                    PercentEncoding.appendTriplet(out, b & 0xFF);
                }
                i += Character.charCount(codePoint) - 1;
            }
        }
        return out.toString();
    }

    private static boolean keepsRaw(char c) {
        return c == '/' || c == ':' || c == '@' || UriCharacters.isUnreserved(c)
                || c != ';' && UriCharacters.isSubDelimiter(c);
    }

    /**
     * Joins two paths with exactly one {@code '/'} between them. Neither may hold a query.
     *
     * @return the joined path; the other one when either is null or empty
     */
    public static String addPaths(String base, String path) {
        if (base == null || base.isEmpty()) {
            return path;
        }
        if (path == null || path.isEmpty()) {
            return base;
        }
        boolean baseEnds = base.charAt(base.length() - 1) == '/';
        boolean pathStarts = path.charAt(0) == '/';
        if (baseEnds && pathStarts) {
            return base + path.substring(1);
        }
        if (baseEnds || pathStarts) {
            return base + path;
        }
        return base + "/" + path;
    }
}
