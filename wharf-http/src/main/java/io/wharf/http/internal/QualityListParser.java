package io.wharf.http.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.wharf.http.QualityList;

/**
 * Reads the elements of quality-list field values ({@code Accept}, {@code Accept-Encoding},
 * {@code Accept-Language}, {@code TE}...; RFC 9110 sections 5.6.1, 5.6.6 and 12.4.2): a comma
 * list of {@code value *( OWS ";" OWS name "=" ( token / quoted-string ) )}.
 *
 * <p>One pass over each character, whatever the input: a comma or semicolon inside a quoted
 * string (with backslash escapes) separates nothing; once {@code maxEntries} elements are
 * kept the rest of the input is not read at all; parameters beyond {@code maxParameters},
 * and every {@code q} after an element's first, are stepped over without making a string.
 * Elements with an empty value are dropped and do not count. Blanks around values, names and
 * {@code =} are trimmed. A missing or malformed weight is handled as {@link #parseQuality}
 * says. Used by {@link QualityList} on the caller's thread; holds no state.
 */
public final class QualityListParser {

    /** The quality of an element whose {@code q} parameter is not a valid qvalue. */
    public static final int INVALID_QUALITY = 0;

    private QualityListParser() {
    }

    /**
     * @return the elements of every field value, in the order received, at most
     *     {@code maxEntries}, each with at most {@code maxParameters} parameters besides its weight
     */
    public static List<QualityList.Entry> parse(List<String> fieldValues, int maxEntries, int maxParameters) {
        List<QualityList.Entry> entries = new ArrayList<>(Math.min(maxEntries, 8));
        for (String fieldValue : fieldValues) {
            if (entries.size() >= maxEntries) {
                break;
            }
            if (fieldValue != null) {
                parseField(fieldValue, entries, maxEntries, maxParameters);
            }
        }
        return entries;
    }

    private static void parseField(String text, List<QualityList.Entry> entries, int maxEntries, int maxParameters) {
        int length = text.length();
        int i = 0;
        while (i < length && entries.size() < maxEntries) {
            char c = text.charAt(i);
            if (c == ',' || HttpTokens.isBlank(c)) {
                i++;
                continue;
            }
            int valueStart = i;
            i = skipUntil(text, i);
            String value = trimmed(text, valueStart, i);
            int quality = 1000;
            boolean weighed = false;
            List<QualityList.Parameter> parameters = List.of();
            while (i < length && text.charAt(i) == ';') {
                int nameStart = i + 1;
                int nameEnd = nameStart;
                while (nameEnd < length && "=;,".indexOf(text.charAt(nameEnd)) < 0) {
                    nameEnd++;
                }
                int from = HttpTokens.skipBlanks(text, nameStart, nameEnd);
                int to = HttpTokens.trimEnd(text, from, nameEnd);
                i = nameEnd;
                int valueFrom = i;
                int valueTo = i;
                if (i < length && text.charAt(i) == '=') {
                    valueFrom = HttpTokens.skipBlanks(text, i + 1, length);
                    i = skipUntil(text, valueFrom);
                    valueTo = HttpTokens.trimEnd(text, valueFrom, i);
                }
                if (to == from) {
                    continue;
                }
                if (to - from == 1 && (text.charAt(from) == 'q' || text.charAt(from) == 'Q')) {
                    if (!weighed) {
                        weighed = true;
                        int parsed = parseQuality(text, valueFrom, valueTo);
                        quality = parsed < 0 ? INVALID_QUALITY : parsed;
                    }
                } else if (parameters.size() < maxParameters) {
                    if (parameters.isEmpty()) {
                        parameters = new ArrayList<>(2);
                    }
                    parameters.add(new QualityList.Parameter(
                            text.substring(from, to).toLowerCase(Locale.ROOT), unquoted(text, valueFrom, valueTo)));
                }
            }
            if (!value.isEmpty()) {
                entries.add(new QualityList.Entry(value, parameters.isEmpty() ? List.of() : List.copyOf(parameters), quality));
            }
        }
    }

    /**
     * Reads a weight (RFC 9110 section 12.4.2): {@code 0}, {@code 0.} and up to three digits,
     * or {@code 1}, {@code 1.} and up to three zeros.
     *
     * @return the weight in thousandths (0 to 1000), or -1 when the text is anything else
     *     (quoted, signed, blank, exponent, more than three decimals, above 1)
     */
    public static int parseQuality(CharSequence text, int from, int to) {
        int length = to - from;
        if (length < 1 || length > 5) {
            return -1;
        }
        char first = text.charAt(from);
        if (first != '0' && first != '1') {
            return -1;
        }
        if (length > 1 && text.charAt(from + 1) != '.') {
            return -1;
        }
        int thousandths = 0;
        int scale = 100;
        for (int i = from + 2; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            thousandths += (c - '0') * scale;
            scale /= 10;
        }
        if (first == '1') {
            return thousandths == 0 ? 1000 : -1;
        }
        return thousandths;
    }

    /** @return the index of the first {@code ;} or {@code ,} at or after {@code from} outside a quoted string, or the length */
    private static int skipUntil(String text, int from) {
        boolean quoted = false;
        int length = text.length();
        for (int i = from; i < length; i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ';' || c == ',') {
                return i;
            }
        }
        return length;
    }

    /** @return the text, without surrounding quotes and with backslash escapes undone when it is quoted */
    private static String unquoted(String text, int from, int to) {
        if (to - from < 2 || text.charAt(from) != '"' || text.charAt(to - 1) != '"') {
            return text.substring(from, to);
        }
        StringBuilder builder = new StringBuilder(to - from - 2);
        for (int i = from + 1; i < to - 1; i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < to - 1) {
                c = text.charAt(++i);
            }
            builder.append(c);
        }
        return builder.toString();
    }

    private static String trimmed(String text, int from, int to) {
        int start = HttpTokens.skipBlanks(text, from, to);
        return text.substring(start, HttpTokens.trimEnd(text, start, to));
    }
}
