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
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }
}
