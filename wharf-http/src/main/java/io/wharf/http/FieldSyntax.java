package io.wharf.http;

import io.wharf.http.internal.HttpTokens;

/**
 * The octet classes of a field line (RFC 9110 section 5): which octets a field name (a token)
 * and a field value may hold. The same table the HTTP/1 parser tests bytes against, for the
 * codecs outside this module that check fields too (HTTP/2's HPACK decoder), so that one field
 * is refused alike over every protocol. One table lookup per octet.
 *
 * <p>Stateless; any thread.
 */
public final class FieldSyntax {

    private FieldSyntax() {
    }

    /** @return whether {@code octet} (0..255) is a tchar, which a field name is made of (RFC 9110 section 5.6.2) */
    public static boolean isTokenOctet(int octet) {
        return HttpTokens.isToken((byte) octet);
    }

    /** @return whether {@code octet} (0..255) may be in a field value: HTAB, SP, VCHAR or obs-text (RFC 9110 section 5.5) */
    public static boolean isValueOctet(int octet) {
        return HttpTokens.isFieldValue((byte) octet);
    }

    /** @return whether {@code octet} is SP or HTAB, which a field value may neither start nor end with */
    public static boolean isBlank(int octet) {
        return octet == ' ' || octet == '\t';
    }
}
