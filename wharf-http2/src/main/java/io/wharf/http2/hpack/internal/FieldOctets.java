package io.wharf.http2.hpack.internal;

import io.wharf.http.FieldSyntax;

/**
 * The octet rules of an HTTP/2 field (RFC 9113 section 8.2.1), for the fields we receive and
 * the fields we send: a name is a token (RFC 9110's, as HTTP/1.1 asks) in lower case, a
 * pseudo-header's name the same after its one leading colon; a value holds no NUL, CR, LF or
 * other control octet (RFC 9110's field-value) and neither starts nor ends with a space or a
 * tab. The classes are RFC 9110's table ({@link FieldSyntax}, the HTTP/1 parser's), copied once
 * into one table here, so a check is one lookup per octet, with no allocation unless a field is
 * refused.
 *
 * <p>The HPACK decoder checks each literal once, as it is decoded (a field taken from a table
 * was checked when the peer put it there); {@link FieldText} repairs what an application
 * gives the encoder by the same rules. Stateless; any thread.
 */
public final class FieldOctets {

    private static final String RULE = " (RFC 9113 section 8.2.1)";
    private static final byte NAME = 1;
    private static final byte VALUE = 2;
    private static final byte[] CLASSES = new byte[256];

    static {
        for (int octet = 0; octet < 256; octet++) {
            boolean upperCase = octet >= 'A' && octet <= 'Z';
            CLASSES[octet] = (byte) ((FieldSyntax.isTokenOctet(octet) && !upperCase ? NAME : 0)
                    | (FieldSyntax.isValueOctet(octet) ? VALUE : 0));
        }
    }

    private FieldOctets() {
    }

    /**
     * @return why the name in {@code octets[offset, offset + length)} may not be sent in HTTP/2,
     *     or null when it may
     */
    public static String nameProblem(byte[] octets, int offset, int length) {
        int end = offset + length;
        int i = offset;
        if (length > 0 && octets[i] == ':') {
            i++;
        }
        if (i == end) {
            return length == 0 ? "empty field name" + RULE : "empty pseudo-header name" + RULE;
        }
        for (; i < end; i++) {
            int octet = octets[i] & 0xFF;
            if ((CLASSES[octet] & NAME) == 0) {
                return nameOctetProblem(octet);
            }
        }
        return null;
    }

    private static String nameOctetProblem(int octet) {
        if (octet >= 'A' && octet <= 'Z') {
            return "upper-case field name" + RULE;
        }
        if (octet == ':') {
            return "colon in a field name" + RULE;
        }
        return "octet " + hex(octet) + " in a field name" + RULE;
    }

    /**
     * @return why the value in {@code octets[offset, offset + length)} may not be sent in HTTP/2,
     *     or null when it may
     */
    public static String valueProblem(byte[] octets, int offset, int length) {
        if (length == 0) {
            return null;
        }
        if (FieldSyntax.isBlank(octets[offset]) || FieldSyntax.isBlank(octets[offset + length - 1])) {
            return "field value with leading or trailing whitespace" + RULE;
        }
        for (int i = offset, end = offset + length; i < end; i++) {
            int octet = octets[i] & 0xFF;
            if ((CLASSES[octet] & VALUE) == 0) {
                return "octet " + hex(octet) + " in a field value" + RULE;
            }
        }
        return null;
    }

    /** @return whether {@code c} may be in a field name at {@code index}: a lower-case token character, or a pseudo-header's leading colon */
    public static boolean isNameCharacter(char c, int index) {
        return c < 256 && (CLASSES[c] & NAME) != 0 || c == ':' && index == 0;
    }

    /** @return whether {@code c} may be in a field value (anywhere but at its ends for SP and HTAB) */
    public static boolean isValueCharacter(char c) {
        return c < 256 && (CLASSES[c] & VALUE) != 0;
    }

    private static String hex(int octet) {
        return "0x" + Character.forDigit(octet >> 4, 16) + Character.forDigit(octet & 0xF, 16);
    }
}
