package io.wharf.http;

/**
 * A field whose value is a non-negative number, parsed once: the parser makes one for
 * {@code Content-Length}, a server makes one when it sets the length of a response.
 * Immutable.
 */
public class LongValueHttpField extends HttpField {

    private final long number;

    /** A field made from a number. */
    public LongValueHttpField(HttpHeader header, long number) {
        super(header, Long.toString(number));
        if (number < 0) {
            throw new IllegalArgumentException(header + " must not be negative: " + number);
        }
        this.number = number;
    }

    /**
     * A field made from received text that has already been parsed.
     *
     * @param value the text as received
     * @param number the number it spells
     */
    public LongValueHttpField(HttpHeader header, String name, String value, long number) {
        super(header, name, value);
        this.number = number;
    }

    @Override
    public long getLongValue() {
        return number;
    }

    @Override
    public int getIntValue() {
        return Math.toIntExact(number);
    }
}
