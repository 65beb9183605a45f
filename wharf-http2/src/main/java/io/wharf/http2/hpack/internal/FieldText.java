package io.wharf.http2.hpack.internal;

/**
 * Makes an application's field name or value sendable in HTTP/2 (RFC 9113 section 8.2.1)
 * before the encoder writes it, so that nothing the application sets can make the peer
 * reject the block: the same instance comes back when it is already fine (the usual case,
 * checked without allocating), a repaired copy otherwise. The rules are {@link FieldOctets}',
 * the ones our decoder holds the peer to.
 *
 * <p>Stateless: any thread may call it.
 */
public final class FieldText {

    private FieldText() {
    }

    /**
     * @return {@code name} in lower case (ASCII letters only, so the length never changes),
     *     with each other character that is not a token character (controls, space, non-ASCII,
     *     separators, a colon other than a pseudo-header's first) replaced by {@code _}
     */
    public static String name(String name) {
        int length = name.length();
        int bad = 0;
        while (bad < length && FieldOctets.isNameCharacter(name.charAt(bad), bad)) {
            bad++;
        }
        if (bad == length) {
            return name;
        }
        char[] repaired = name.toCharArray();
        for (int i = bad; i < length; i++) {
            char c = repaired[i];
            if (c >= 'A' && c <= 'Z') {
                repaired[i] = (char) (c + ('a' - 'A'));
            } else if (!FieldOctets.isNameCharacter(c, i)) {
                repaired[i] = '_';
            }
        }
        return new String(repaired);
    }

    /**
     * @return the value with NUL, CR, LF and the other control characters replaced by a space,
     *     characters beyond ISO-8859-1 replaced by {@code ?}, and leading and trailing spaces and
     *     tabs removed
     */
    public static String value(String value) {
        int length = value.length();
        boolean ok = length == 0 || !blank(value.charAt(0)) && !blank(value.charAt(length - 1));
        for (int i = 0; ok && i < length; i++) {
            ok = FieldOctets.isValueCharacter(value.charAt(i));
        }
        if (ok) {
            return value;
        }
        StringBuilder repaired = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            repaired.append(c > 0xFF ? '?' : FieldOctets.isValueCharacter(c) ? c : ' ');
        }
        int start = 0;
        int end = repaired.length();
        while (start < end && blank(repaired.charAt(start))) {
            start++;
        }
        while (end > start && blank(repaired.charAt(end - 1))) {
            end--;
        }
        return repaired.substring(start, end);
    }

    private static boolean blank(char c) {
        return c == ' ' || c == '\t';
    }
}
