package io.wharf.http.internal;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

import io.wharf.http.UriCompliance.Violation;

/**
 * Reads one raw URI path in a single pass and produces its two canonical forms, noting every
 * ambiguity on the way. The path is split on raw {@code '/'} only; from each segment the
 * parameter (from its first raw {@code ';'}) is stripped, the rest is percent-decoded as
 * strict UTF-8, and a segment that decodes to {@code "."} or {@code ".."} is resolved as a
 * dot segment (RFC 3986 section 5.2.4) — in disguise ({@code %2e}, {@code ..;}) it is also
 * an {@link Violation#AMBIGUOUS_PATH_SEGMENT}. The decoded form and the still-encoded
 * canonical form are built side by side, so both drop the same segments.
 *
 * <p>A NUL (raw or encoded) or a {@code ".."} above the root makes the path bad: both forms
 * are then null and {@link Result#badReason()} says why. Otherwise a malformed escape is
 * kept as text and a bad UTF-8 sequence becomes U+FFFD, each noted as a violation, so a
 * lenient mode still gets a usable path.
 *
 * <p>Linear in the length of the path, with no backtracking. Called by {@code HttpURI} on
 * the parsing thread; it owns nothing beyond the call.
 */
public final class PathDecoder {

    /** Why a path climbing above the root is refused. */
    public static final String ABOVE_ROOT = "URI path climbs above the root";
    /** Why a path holding a NUL is refused. */
    public static final String NUL_CHARACTER = "NUL character in URI path";

    /**
     * What a path decodes to.
     *
     * @param decoded the percent-decoded canonical path, or null when bad
     * @param canonical the canonical path still encoded, or null when bad
     * @param violations what was found, in declaration order; unmodifiable
     * @param badReason why the path can never be accepted, or null
     */
    public record Result(String decoded, String canonical, Set<Violation> violations, String badReason) {
    }

    private static final Set<Violation> NONE = Collections.unmodifiableSet(EnumSet.noneOf(Violation.class));

    private final String path;
    private final boolean rooted;
    private final StringBuilder decoded;
    private final StringBuilder canonical;
    private final Utf8Accumulator utf8;
    private final SegmentStarts decodedStarts = new SegmentStarts();
    private final SegmentStarts canonicalStarts = new SegmentStarts();
    private final EnumSet<Violation> violations = EnumSet.noneOf(Violation.class);
    private String badReason;

    private PathDecoder(String path) {
        this.path = path;
        this.rooted = path.startsWith("/");
        this.decoded = new StringBuilder(path.length());
        this.canonical = new StringBuilder(path.length());
        this.utf8 = new Utf8Accumulator(decoded);
    }

    /** @return the decoded and canonical forms of the raw {@code path} with what was found */
    public static Result decode(String path) {
        if (isPlain(path)) {
            return new Result(path, path, NONE, null);
        }
        return new PathDecoder(path).run();
    }

    /**
     * @return whether the path needs no work: rooted, only ordinary characters, no escapes,
     *     no parameters, no empty or dot segments
     */
    private static boolean isPlain(String path) {
        int length = path.length();
        if (length == 0 || path.charAt(0) != '/') {
            return false;
        }
        int segmentStart = 1;
        int dots = 0;
        for (int i = 1; i <= length; i++) {
            char c = i == length ? '/' : path.charAt(i);
            if (c == '/') {
                int segmentLength = i - segmentStart;
                if (segmentLength == 0 && i < length || segmentLength > 0 && segmentLength == dots && dots <= 2) {
                    return false;
                }
                segmentStart = i + 1;
                dots = 0;
            } else if (c == '.') {
                dots++;
            } else if (!isOrdinary(c)) {
                return false;
            }
        }
        return true;
    }

    /** Which ASCII characters need no second look in a path: one table lookup per character on the hot path. */
    private static final boolean[] ORDINARY_ASCII = new boolean[0x80];

    static {
        for (char c = 0x21; c < 0x7F; c++) {
            ORDINARY_ASCII[c] = c != '%' && c != ';' && c != '\\' && !isIllegalRaw(c);
        }
    }

    private static boolean isOrdinary(char c) {
        return c >= 0x80 || ORDINARY_ASCII[c];
    }

    /** @return whether a raw printable ASCII character may not appear in a path */
    private static boolean isIllegalRaw(char c) {
        return switch (c) {
            case ' ', '"', '<', '>', '^', '`', '{', '|', '}', '?', '#', '[', ']' -> true;
            default -> false;
        };
    }

    private Result run() {
        int length = path.length();
        int start = rooted ? 1 : 0;
        while (badReason == null) {
            int end = path.indexOf('/', start);
            boolean last = end < 0;
            if (last) {
                end = length;
            }
            segment(start, end, last);
            if (last) {
                break;
            }
            start = end + 1;
        }
        Set<Violation> found = violations.isEmpty() ? NONE : Collections.unmodifiableSet(violations);
        if (badReason != null) {
            return new Result(null, null, found, badReason);
        }
        String decodedPath = decoded.toString();
        String canonicalPath = canonical.toString();
        return new Result(
                decodedPath.equals(path) ? path : decodedPath,
                canonicalPath.equals(path) ? path : canonicalPath,
                found, null);
    }

    private void segment(int start, int end, boolean last) {
        int semicolon = indexOf(';', start, end);
        boolean hasParameter = semicolon >= 0;
        int contentEnd = hasParameter ? semicolon : end;
        if (hasParameter) {
            violations.add(Violation.AMBIGUOUS_PATH_PARAMETER);
        }
        int decodedStart = decoded.length();
        int canonicalStart = canonical.length();
        if (rooted || decodedStart > 0) {
            decoded.append('/');
            canonical.append('/');
        }
        int contentStart = decoded.length();
        decodeContent(start, contentEnd);
        canonical.append(path, start, contentEnd);
        int dots = dotSegmentLength(contentStart);
        if (dots == 0) {
            if (contentEnd == start && !last) {
                violations.add(Violation.AMBIGUOUS_EMPTY_SEGMENT);
            }
            decodedStarts.push(decodedStart);
            canonicalStarts.push(canonicalStart);
            return;
        }
        if (contentEnd - start != dots || hasParameter) {
            violations.add(Violation.AMBIGUOUS_PATH_SEGMENT);
        }
        decoded.setLength(decodedStart);
        canonical.setLength(canonicalStart);
        if (dots == 2) {
            if (decodedStarts.isEmpty()) {
                badReason = ABOVE_ROOT;
                return;
            }
            decoded.setLength(decodedStarts.pop());
            canonical.setLength(canonicalStarts.pop());
        }
        if (last && (rooted || decoded.length() > 0)) {
            decoded.append('/');
            canonical.append('/');
        }
    }

    /** @return the index of {@code c} in {@code [from, to)}, or -1; never looks past {@code to} */
    private int indexOf(char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (path.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /** @return 1 or 2 when the decoded segment from {@code from} is {@code "."} or {@code ".."}, else 0 */
    private int dotSegmentLength(int from) {
        int length = decoded.length() - from;
        if (length < 1 || length > 2) {
            return 0;
        }
        for (int i = from; i < decoded.length(); i++) {
            if (decoded.charAt(i) != '.') {
                return 0;
            }
        }
        return length;
    }

    private void decodeContent(int from, int to) {
        int i = from;
        while (i < to) {
            char c = path.charAt(i);
            if (c != '%') {
                finishBytes();
                noteRaw(c);
                decoded.append(c);
                i++;
            } else if (PercentEncoding.utf16UnitAt(path, i, to) >= 0) {
                i = decodeUtf16(i, to);
            } else {
                int value = PercentEncoding.byteAt(path, i, to);
                if (value < 0) {
                    violations.add(Violation.BAD_PERCENT_ENCODING);
                    finishBytes();
                    decoded.append('%');
                    i++;
                } else {
                    noteEncoded(value);
                    if (!utf8.add(value)) {
                        violations.add(Violation.BAD_UTF8_ENCODING);
                    }
                    i += 3;
                }
            }
        }
        finishBytes();
    }

    /** Decodes the {@code %uXXXX} at {@code index}, pairing surrogates; @return the index after it */
    private int decodeUtf16(int index, int to) {
        violations.add(Violation.UTF16_ENCODINGS);
        finishBytes();
        char unit = (char) PercentEncoding.utf16UnitAt(path, index, to);
        if (!Character.isSurrogate(unit)) {
            noteEncoded(unit);
            decoded.append(unit);
            return index + 6;
        }
        int next = index + 6;
        int low = next < to && path.charAt(next) == '%' ? PercentEncoding.utf16UnitAt(path, next, to) : -1;
        if (Character.isHighSurrogate(unit) && low >= 0 && Character.isLowSurrogate((char) low)) {
            decoded.append(unit).append((char) low);
            return next + 6;
        }
        violations.add(Violation.BAD_PERCENT_ENCODING);
        decoded.append(Utf8Accumulator.REPLACEMENT);
        return next;
    }

    private void finishBytes() {
        if (!utf8.finish()) {
            violations.add(Violation.BAD_UTF8_ENCODING);
        }
    }

    private void noteRaw(char c) {
        if (c == 0) {
            badReason = NUL_CHARACTER;
        } else if (c < 0x20 || c == 0x7F || isIllegalRaw(c)) {
            violations.add(Violation.ILLEGAL_PATH_CHARACTERS);
        } else if (c == '\\') {
            violations.add(Violation.SUSPICIOUS_PATH_CHARACTERS);
        }
    }

    private void noteEncoded(int c) {
        if (c == 0) {
            badReason = NUL_CHARACTER;
        } else if (c < 0x20 || c == 0x7F) {
            violations.add(Violation.ILLEGAL_PATH_CHARACTERS);
        } else if (c == '/') {
            violations.add(Violation.AMBIGUOUS_PATH_SEPARATOR);
        } else if (c == '\\') {
            violations.add(Violation.SUSPICIOUS_PATH_CHARACTERS);
        } else if (c == '%') {
            violations.add(Violation.AMBIGUOUS_PATH_ENCODING);
        }
    }
}
