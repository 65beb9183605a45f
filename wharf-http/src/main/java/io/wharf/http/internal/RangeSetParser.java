package io.wharf.http.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.wharf.http.ByteRange;
import io.wharf.http.ByteRanges;

/**
 * Parses the value of a Range field, {@code range-unit "=" range-set} of RFC 9110 section
 * 14.2, against a representation length, for {@link ByteRanges#parse}. One left-to-right pass
 * over the value, then a sort and merge of at most {@code maxRanges} ranges. Numbers are
 * digits only; one too large for a {@code long} saturates at {@link Long#MAX_VALUE}, which is
 * beyond any representation, and two such numbers are compared digit by digit so that an
 * invalid {@code first-last} pair is still recognised. Stateless; called on the request thread.
 */
public final class RangeSetParser {

    private static final Comparator<ByteRange> BY_POSITION =
            Comparator.comparingLong(ByteRange::first).thenComparingLong(ByteRange::last);

    private final String value;
    private final int end;
    private int position;

    private RangeSetParser(String value) {
        this.value = value;
        this.end = value.length();
    }

    /** @return the answer for {@code value} against {@code length} bytes within {@code limits} */
    public static ByteRanges parse(String value, long length, ByteRanges.Limits limits) {
        return new RangeSetParser(value).parse(length, limits);
    }

    private ByteRanges parse(long length, ByteRanges.Limits limits) {
        int equals = value.indexOf('=');
        if (equals <= 0 || !isToken(0, equals)) {
            return new ByteRanges.Ignored(ByteRanges.Reason.MALFORMED);
        }
        if (equals != 5 || !value.regionMatches(true, 0, "bytes", 0, 5)) {
            return new ByteRanges.Ignored(ByteRanges.Reason.UNKNOWN_UNIT);
        }
        position = equals + 1;
        List<ByteRange> satisfiable = new ArrayList<>(2);
        int count = 0;
        boolean suffixOfNothing = false;
        while (true) {
            skipBlanksAndCommas();
            if (position == end) {
                break;
            }
            if (++count > limits.maxRanges()) {
                return new ByteRanges.Ignored(ByteRanges.Reason.TOO_MANY_RANGES);
            }
            if (value.charAt(position) == '-') {
                position++;
                int digits = position;
                long suffix = digits();
                if (position == digits) {
                    return malformed();
                }
                if (suffix > 0 && length == 0) {
                    suffixOfNothing = true;
                } else if (suffix > 0) {
                    satisfiable.add(new ByteRange(Math.max(0, length - suffix), length - 1));
                }
            } else {
                int firstStart = position;
                long first = digits();
                int firstEnd = position;
                if (firstEnd == firstStart || position == end || value.charAt(position) != '-') {
                    return malformed();
                }
                position++;
                int lastStart = position;
                long last = digits();
                boolean hasLast = position > lastStart;
                if (hasLast && compareNumbers(first, firstStart, firstEnd, last, lastStart, position) > 0) {
                    return malformed();
                }
                if (first < length) {
                    satisfiable.add(new ByteRange(first, hasLast ? Math.min(last, length - 1) : length - 1));
                }
            }
            skipBlanks();
            if (position < end && value.charAt(position) != ',') {
                return malformed();
            }
        }
        if (count == 0) {
            return malformed();
        }
        if (satisfiable.isEmpty()) {
            return suffixOfNothing
                    ? new ByteRanges.Ignored(ByteRanges.Reason.EMPTY_REPRESENTATION)
                    : new ByteRanges.Unsatisfiable(length);
        }
        return merge(satisfiable, length, limits.maxOverlaps());
    }

    /** Sorts, counts ranges that overlap earlier ones, and merges overlapping or adjacent ranges. */
    private static ByteRanges merge(List<ByteRange> ranges, long length, int maxOverlaps) {
        ranges.sort(BY_POSITION);
        List<ByteRange> merged = new ArrayList<>(ranges.size());
        int overlaps = 0;
        ByteRange current = ranges.get(0);
        for (int i = 1; i < ranges.size(); i++) {
            ByteRange next = ranges.get(i);
            if (next.first() <= current.last()) {
                overlaps++;
            }
            if (next.first() <= current.last() + 1) {
                if (next.last() > current.last()) {
                    current = new ByteRange(current.first(), next.last());
                }
            } else {
                merged.add(current);
                current = next;
            }
        }
        merged.add(current);
        if (overlaps > maxOverlaps) {
            return new ByteRanges.Ignored(ByteRanges.Reason.TOO_MANY_OVERLAPS);
        }
        return new ByteRanges.Satisfiable(merged, length);
    }

    /** Reads the digits at the position; @return their value, saturated at Long.MAX_VALUE (0 when none) */
    private long digits() {
        long number = 0;
        while (position < end) {
            int digit = value.charAt(position) - '0';
            if (digit < 0 || digit > 9) {
                break;
            }
            number = number > (Long.MAX_VALUE - digit) / 10 ? Long.MAX_VALUE : number * 10 + digit;
            position++;
        }
        return number;
    }

    /**
     * Compares two decimal numbers given both as saturated values and as digit ranges of the
     * value; only reads the digits when both saturated.
     */
    private int compareNumbers(long a, int aStart, int aEnd, long b, int bStart, int bEnd) {
        if (a != Long.MAX_VALUE || b != Long.MAX_VALUE) {
            return Long.compare(a, b);
        }
        while (aStart < aEnd - 1 && value.charAt(aStart) == '0') {
            aStart++;
        }
        while (bStart < bEnd - 1 && value.charAt(bStart) == '0') {
            bStart++;
        }
        int byLength = Integer.compare(aEnd - aStart, bEnd - bStart);
        if (byLength != 0) {
            return byLength;
        }
        for (int i = 0; i < aEnd - aStart; i++) {
            int byDigit = Character.compare(value.charAt(aStart + i), value.charAt(bStart + i));
            if (byDigit != 0) {
                return byDigit;
            }
        }
        return 0;
    }

    private void skipBlanksAndCommas() {
        while (position < end && (HttpTokens.isBlank(value.charAt(position)) || value.charAt(position) == ',')) {
            position++;
        }
    }

    private void skipBlanks() {
        while (position < end && HttpTokens.isBlank(value.charAt(position))) {
            position++;
        }
    }

    private boolean isToken(int from, int to) {
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            boolean alphanumeric = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
            if (!alphanumeric && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    private static ByteRanges malformed() {
        return new ByteRanges.Ignored(ByteRanges.Reason.MALFORMED);
    }
}
