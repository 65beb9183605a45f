package io.wharf.http.internal;

import java.util.Set;

import io.wharf.http.CookieCompliance.Violation;

/**
 * Cuts one {@code Cookie} header value into name/value pairs (RFC 6265 section 4.2.1), allowing
 * only the departures its {@link Violation} set allows, and hands each pair — or each pair it
 * had to drop — to a {@link Sink}. One pass over the characters, no regular expressions, no
 * backtracking: linear in the header's length, allocating only the names and values it keeps.
 *
 * <p>Two rules hold whatever is allowed: a {@code ;} always ends a pair, even inside double
 * quotes, and a double quote inside or at the end of an unquoted value drops the pair. Together
 * they keep a quoted value from swallowing the cookies after it and keep the tail of a quoted
 * value cut at a {@code ;} from passing for a cookie of its own.
 *
 * <p>Owned by one {@code CookieParser}, used by the thread that parses; not thread-safe.
 */
public final class CookieScanner {

    /** Told about every pair, in order, on the scanning thread. */
    public interface Sink {

        /**
         * A pair the scanner accepted.
         *
         * @param violations the allowed violations the pair needed, as a mask of
         *     {@code 1 << violation.ordinal()}; 0 for a pair RFC 6265 accepts as is
         * @param header the header value, and {@code start}/{@code end} where the pair sits in it
         * @return false to stop scanning
         */
        boolean cookie(String name, String value, int violations, String header, int start, int end);

        /**
         * A pair the scanner dropped.
         *
         * @param reason what is wrong, a constant text with none of the peer's bytes
         * @param header the header value, and {@code start}/{@code end} where the pair sits in it
         * @return false to stop scanning
         */
        boolean invalid(String reason, String header, int start, int end);
    }

    private static final String NO_NAME = "a cookie without a name";
    private static final String NO_EQUALS = "a cookie name with an illegal character or without '='";
    private static final String ILLEGAL_CHARACTER = "an illegal character in a cookie value";
    private static final String QUOTE_IN_VALUE = "a double quote inside an unquoted cookie value";

    private final Set<Violation> allowed;
    private final boolean commaSeparates;

    /** The mask of the violations the current pair needed. */
    private int violations;
    /** Why the current pair is dropped, or null while it is fine. */
    private String refusal;
    /** Where the scan of the current value stopped: a separator or the end of the header. */
    private int position;

    /** @param allowed the violations to allow, e.g. a {@code CookieCompliance}'s {@code getAllowed()} */
    public CookieScanner(Set<Violation> allowed) {
        this.allowed = allowed;
        this.commaSeparates = allowed.contains(Violation.COMMA_SEPARATOR);
    }

    /** @return whether {@code violations} (a mask given to a {@link Sink}) holds {@code violation} */
    public static boolean has(int violations, Violation violation) {
        return (violations & (1 << violation.ordinal())) != 0;
    }

    /**
     * Scans one header value, telling {@code sink} about each pair in order.
     *
     * @return false if the sink asked to stop
     */
    public boolean scan(String header, Sink sink) {
        int length = header.length();
        int index = 0;
        while (index < length) {
            char c = header.charAt(index);
            if (CookieSyntax.isBlank(c) || c == ';' || (commaSeparates && c == ',')) {
                index++;
                continue;
            }
            index = scanPair(header, index, sink);
            if (index < 0) {
                return false;
            }
        }
        return true;
    }

    /** @return the index of the separator ending the pair (or the length), or -1 to stop */
    private int scanPair(String header, int start, Sink sink) {
        violations = 0;
        refusal = null;
        int length = header.length();
        int nameEnd = start;
        while (nameEnd < length && CookieSyntax.isTokenChar(header.charAt(nameEnd))) {
            nameEnd++;
        }
        int equals = skipBlanks(header, nameEnd);
        if (nameEnd == start) {
            return drop(NO_NAME, header, start, separator(header, start), sink);
        }
        if (equals == length || header.charAt(equals) != '=') {
            return drop(NO_EQUALS, header, start, separator(header, start), sink);
        }
        if (equals > nameEnd) {
            need(Violation.OPTIONAL_WHITE_SPACE);
        }
        int valueStart = skipBlanks(header, equals + 1);
        if (valueStart > equals + 1 && valueStart < length) {
            need(Violation.OPTIONAL_WHITE_SPACE);
        }
        String value = valueStart < length && header.charAt(valueStart) == '"'
                ? quotedValue(header, valueStart)
                : unquotedValue(header, valueStart);
        if (refusal != null) {
            return drop(refusal, header, start, position, sink);
        }
        if (position < length && header.charAt(position) == ',') {
            need(Violation.COMMA_SEPARATOR);
        }
        String name = header.substring(start, nameEnd);
        return sink.cookie(name, value, violations, header, start, position) ? position : -1;
    }

    /** Scans an unquoted value from {@code from}; leaves {@link #position} at its separator. */
    private String unquotedValue(String header, int from) {
        int end = scanUnquoted(header, from);
        return refusal == null ? header.substring(from, end) : null;
    }

    /**
     * Scans unquoted value characters from {@code from} to the next separator, noting the
     * violations they need; leaves {@link #position} at the separator.
     *
     * @return where the value ends, before any trailing blanks
     */
    private int scanUnquoted(String header, int from) {
        int length = header.length();
        int index = from;
        while (index < length) {
            char c = header.charAt(index);
            if (c == ';' || (c == ',' && commaSeparates)) {
                break;
            }
            if (CookieSyntax.isCookieOctet(c)) {
                index++;
            } else if (CookieSyntax.isBlank(c)) {
                int after = skipBlanks(header, index);
                if (after == length) {
                    position = length;
                    return index;
                }
                char next = header.charAt(after);
                if (next == ';' || (next == ',' && commaSeparates)) {
                    need(Violation.OPTIONAL_WHITE_SPACE);
                    position = after;
                    return index;
                }
                need(Violation.SPACE_IN_VALUES);
                index = after;
            } else if (c == ',') {
                need(Violation.COMMA_NOT_VALID_OCTET);
                index++;
            } else {
                refuse(c == '"' ? QUOTE_IN_VALUE : ILLEGAL_CHARACTER);
                index++;
            }
        }
        position = index;
        return index;
    }

    /** Scans a value that opens with a double quote at {@code from}; leaves {@link #position} at its separator. */
    private String quotedValue(String header, int from) {
        int length = header.length();
        boolean escaped = false;
        int index = from + 1;
        int closing = -1;
        while (index < length && closing < 0) {
            char c = header.charAt(index);
            if (c == '"') {
                closing = index;
            } else if (c == ';') {
                break;
            } else if (CookieSyntax.isCookieOctet(c)) {
                index++;
            } else if (c == '\\' && allowed.contains(Violation.ESCAPE_IN_QUOTES) && escapable(header, index + 1)) {
                need(Violation.ESCAPE_IN_QUOTES);
                escaped = true;
                index += 2;
            } else if (CookieSyntax.isBlank(c)) {
                int after = skipBlanks(header, index);
                if (after == length || header.charAt(after) == ';') {
                    // blanks before the separator of a value whose quote never closes: not part of it
                    index = after;
                    break;
                }
                need(Violation.SPECIAL_CHARS_IN_QUOTES);
                index = after;
            } else if (c == ',' || c == '\\') {
                need(Violation.SPECIAL_CHARS_IN_QUOTES);
                index++;
            } else {
                refuse(ILLEGAL_CHARACTER);
                index++;
            }
        }
        if (closing < 0) {
            // no closing quote before the separator: keep the text as it came, opening quote and all
            need(Violation.BAD_QUOTES);
            int end = trimBlanks(header, from, index);
            if (end < index && index < length) {
                need(Violation.OPTIONAL_WHITE_SPACE);
            }
            position = index;
            return refusal == null ? header.substring(from, end) : null;
        }
        int afterQuote = closing + 1;
        int next = skipBlanks(header, afterQuote);
        if (next < length && header.charAt(next) != ';' && !(header.charAt(next) == ',' && commaSeparates)) {
            // text after the closing quote: keep the whole value as it came
            need(Violation.BAD_QUOTES);
            int end = scanUnquoted(header, afterQuote);
            return refusal == null ? header.substring(from, end) : null;
        }
        if (next > afterQuote && next < length) {
            need(Violation.OPTIONAL_WHITE_SPACE);
        }
        position = next;
        if (refusal != null) {
            return null;
        }
        if (!allowed.contains(Violation.STRIPPED_QUOTES)) {
            return header.substring(from, afterQuote);
        }
        need(Violation.STRIPPED_QUOTES);
        return escaped ? unescape(header, from + 1, closing) : header.substring(from + 1, closing);
    }

    /** @return whether the character at {@code index} may follow a backslash: visible ASCII, space or tab, not ';' */
    private static boolean escapable(String header, int index) {
        if (index >= header.length()) {
            return false;
        }
        char c = header.charAt(index);
        return c != ';' && (CookieSyntax.isBlank(c) || (c > 0x20 && c < 0x7f));
    }

    /** @return the text from {@code from} to {@code to} with each backslash escape undone */
    private static String unescape(String header, int from, int to) {
        StringBuilder text = new StringBuilder(to - from);
        for (int index = from; index < to; index++) {
            char c = header.charAt(index);
            if (c == '\\') {
                c = header.charAt(++index);
            }
            text.append(c);
        }
        return text.toString();
    }

    private void need(Violation violation) {
        if (allowed.contains(violation)) {
            violations |= 1 << violation.ordinal();
        } else {
            refuse(violation.getDescription());
        }
    }

    private void refuse(String reason) {
        if (refusal == null) {
            refusal = reason;
        }
    }

    /** @return the index of the first separator at or after {@code from}, or the length */
    private int separator(String header, int from) {
        int length = header.length();
        while (from < length && header.charAt(from) != ';' && !(header.charAt(from) == ',' && commaSeparates)) {
            from++;
        }
        return from;
    }

    /** Tells the sink about a pair it cannot keep; @return the index of its separator {@code end}, or -1 to stop */
    private int drop(String reason, String header, int start, int end, Sink sink) {
        return sink.invalid(reason, header, start, trimBlanks(header, start, end)) ? end : -1;
    }

    private static int skipBlanks(String header, int index) {
        while (index < header.length() && CookieSyntax.isBlank(header.charAt(index))) {
            index++;
        }
        return index;
    }

    private static int trimBlanks(String header, int from, int to) {
        while (to > from && CookieSyntax.isBlank(header.charAt(to - 1))) {
            to--;
        }
        return to;
    }
}
