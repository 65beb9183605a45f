package io.wharf.http.internal;

/**
 * The octet classes of RFC 9110 and RFC 9112 the HTTP/1 parser tests bytes against: token
 * characters, field-value characters, request-target characters, hex digits. One table
 * lookup per byte, no branches on ranges in the hot loops. Stateless; any thread.
 */
public final class HttpTokens {

    private static final byte TOKEN = 1;
    private static final byte FIELD_VALUE = 2;
    private static final byte TARGET = 4;
    private static final byte[] CLASSES = new byte[256];

    static {
        for (int c = 0x21; c < 0x7F; c++) {
            CLASSES[c] = FIELD_VALUE | TARGET;
        }
        for (int c = 0x80; c < 0x100; c++) {
            CLASSES[c] = FIELD_VALUE;
        }
        CLASSES[' '] = FIELD_VALUE;
        CLASSES['\t'] = FIELD_VALUE;
        String tokenSymbols = "!#$%&'*+-.^_`|~";
        for (int c = '0'; c <= '9'; c++) {
            CLASSES[c] |= TOKEN;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            CLASSES[c] |= TOKEN;
            CLASSES[c - 'a' + 'A'] |= TOKEN;
        }
        for (int i = 0; i < tokenSymbols.length(); i++) {
            CLASSES[tokenSymbols.charAt(i)] |= TOKEN;
        }
    }

    private HttpTokens() {
    }

    /** @return whether {@code b} is a tchar (RFC 9110 section 5.6.2) */
    public static boolean isToken(byte b) {
        return (CLASSES[b & 0xFF] & TOKEN) != 0;
    }

    /** @return whether {@code b} may appear in a field value: HTAB, SP, VCHAR or obs-text */
    public static boolean isFieldValue(byte b) {
        return (CLASSES[b & 0xFF] & FIELD_VALUE) != 0;
    }

    /** @return whether {@code b} may appear in a request-target: a visible ASCII character */
    public static boolean isTarget(byte b) {
        return (CLASSES[b & 0xFF] & TARGET) != 0;
    }

    /** @return whether {@code b} is SP or HTAB */
    public static boolean isBlank(byte b) {
        return b == ' ' || b == '\t';
    }

    /** @return the value of the hex digit {@code b}, or -1 when it is not one */
    public static int hexValue(byte b) {
        return PercentEncoding.hexValue((char) (b & 0xFF));
    }

    /** @return whether {@code c} is a tchar (RFC 9110 section 5.6.2) */
    public static boolean isTokenChar(char c) {
        return c < 0x100 && (CLASSES[c] & TOKEN) != 0;
    }

    /** @return whether {@code c} is SP or HTAB (optional whitespace, RFC 9110 section 5.6.3) */
    public static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    /** @return the index of the first character of {@code text[from, to)} that is not a blank, or {@code to} */
    public static int skipBlanks(CharSequence text, int from, int to) {
        while (from < to && isBlank(text.charAt(from))) {
            from++;
        }
        return from;
    }

    /** @return the end of {@code text[from, to)} without its trailing blanks */
    public static int trimEnd(CharSequence text, int from, int to) {
        while (to > from && isBlank(text.charAt(to - 1))) {
            to--;
        }
        return to;
    }
}
