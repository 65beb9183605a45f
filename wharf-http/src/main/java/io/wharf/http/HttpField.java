package io.wharf.http;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import io.wharf.http.internal.CommaList;

/**
 * One header or trailer field: a name, a value and, when the name is one Wharf knows, its
 * {@link HttpHeader}. Names compare without ASCII case; values are kept exactly as
 * received, without surrounding blanks.
 *
 * <p>Immutable and safe to share; the HTTP/1 parser hands the same instance out again for a
 * line it found in a static or per-connection cache. Subclasses carry a pre-encoded form
 * ({@link PreEncodedHttpField}) or a parsed number ({@link LongValueHttpField}).
 */
public class HttpField {

    private final HttpHeader header;
    private final String name;
    private final String value;

    /**
     * @param header the known header, or null when the name is not one
     * @param name the name as received or given; for a known header usually its canonical spelling
     * @param value the value, null taken as empty
     */
    public HttpField(HttpHeader header, String name, String value) {
        this.header = header;
        this.name = Objects.requireNonNull(name, "name");
        this.value = value == null ? "" : value;
    }

    /** A field of a known header under its canonical name. */
    public HttpField(HttpHeader header, String value) {
        this(header, header.asString(), value);
    }

    /** A field whose name is looked up among the known headers. */
    public HttpField(String name, String value) {
        this(HttpHeader.fromString(name), name, value);
    }

    /** @return the known header, or null when the name is not one Wharf knows */
    public HttpHeader getHeader() {
        return header;
    }

    /** @return the name as received or given */
    public String getName() {
        return name;
    }

    /** @return the name in lower case, as HTTP/2 and HTTP/3 send it */
    public String getLowerCaseName() {
        return header != null ? header.lowerCaseName() : name.toLowerCase(Locale.ROOT);
    }

    /** @return the value, never null */
    public String getValue() {
        return value;
    }

    /**
     * @return the comma-separated elements of the value (RFC 9110 section 5.6.1), trimmed, empty
     *     elements dropped, quoted strings kept whole with their quotes
     */
    public List<String> getValues() {
        return CommaList.split(value);
    }

    /**
     * @return whether one comma-separated element of the value equals {@code token} ignoring
     *     ASCII case (parameters after {@code ;} are part of the element); allocates nothing
     */
    public boolean contains(String token) {
        return CommaList.contains(value, token);
    }

    /** @return whether this field's name is {@code name}, ignoring ASCII case */
    public boolean is(String name) {
        return header != null ? header.is(name) : this.name.equalsIgnoreCase(name);
    }

    /** @return whether both fields have the same name, ignoring ASCII case */
    public boolean isSameName(HttpField other) {
        if (other == null) {
            return false;
        }
        if (header != null || other.header != null) {
            return header == other.header;
        }
        return name.equalsIgnoreCase(other.name);
    }

    /**
     * @return the value as a non-negative decimal
     * @throws NumberFormatException when it is not only digits, or overflows a long
     */
    public long getLongValue() {
        return parseDecimal(value);
    }

    /**
     * @return the value as a non-negative int
     * @throws NumberFormatException when it is not only digits, or overflows an int
     */
    public int getIntValue() {
        long number = getLongValue();
        if (number > Integer.MAX_VALUE) {
            throw new NumberFormatException("too large for an int: " + value);
        }
        return (int) number;
    }

    /** @return a field with the same name and the given value */
    public HttpField withValue(String newValue) {
        return new HttpField(header, name, newValue);
    }

    /**
     * Parses digits only: no sign, no blanks, no separators, no overflow (what RFC 9110
     * requires of Content-Length).
     *
     * @throws NumberFormatException naming the problem
     */
    public static long parseDecimal(CharSequence digits) {
        int length = digits.length();
        if (length == 0) {
            throw new NumberFormatException("empty number");
        }
        long number = 0;
        for (int i = 0; i < length; i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                throw new NumberFormatException("not a digit at " + i + " of a decimal number");
            }
            if (number > (Long.MAX_VALUE - (c - '0')) / 10) {
                throw new NumberFormatException("decimal number overflows 63 bits");
            }
            number = number * 10 + (c - '0');
        }
        return number;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HttpField field && isSameName(field) && value.equals(field.value);
    }

    @Override
    public int hashCode() {
        int nameHash = header != null ? header.hashCode() : name.toLowerCase(Locale.ROOT).hashCode();
        return 31 * nameHash + value.hashCode();
    }

    @Override
    public String toString() {
        return name + ": " + value;
    }
}
