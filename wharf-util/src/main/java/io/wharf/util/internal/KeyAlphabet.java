package io.wharf.util.internal;

/**
 * The octets an {@link io.wharf.util.Index} key may hold, and how case folding maps them.
 * Static, stateless; called by the index builders on the building thread and by the tries
 * on every lookup (through the folding tables, which are never written after class init).
 *
 * <p>A legal key is made of the octets that may appear in an HTTP field line (RFC 9110
 * §5.5): visible ASCII ({@code 0x21..0x7E}), space, horizontal tab and obs-text
 * ({@code 0x80..0xFF}), each carried in one {@code char}. Visible ASCII and space are what
 * header names and common header lines need; tab and obs-text are accepted too because the
 * per-connection cache learns whole field lines, whose values may legally contain them.
 * Everything else (CR, LF, NUL, other controls, DEL, any {@code char} above {@code 0xFF})
 * is illegal: it can never be matched from the network bytes of a field line.
 *
 * <p>Case-insensitive folding maps only the ASCII letters {@code 'A'..'Z'} to
 * {@code 'a'..'z'}; every other octet folds to itself.
 */
public final class KeyAlphabet {

    /** The number of distinct octets: lookups index folding tables by {@code octet & 0xFF}. */
    public static final int OCTETS = 256;

    private static final char[] IDENTITY = new char[OCTETS];
    private static final char[] LOWER_CASE = new char[OCTETS];

    static {
        for (int octet = 0; octet < OCTETS; octet++) {
            IDENTITY[octet] = (char) octet;
            LOWER_CASE[octet] = (char) (octet >= 'A' && octet <= 'Z' ? octet + ('a' - 'A') : octet);
        }
    }

    private KeyAlphabet() {
    }

    /**
     * @return the table mapping an octet to its folded form: the identity when
     *     {@code caseSensitive}, ASCII lower-casing otherwise. Callers must not write to it.
     */
    static char[] foldingTable(boolean caseSensitive) {
        return caseSensitive ? IDENTITY : LOWER_CASE;
    }

    /** @return {@code octet} folded: ASCII letters lower-cased unless {@code caseSensitive} */
    public static int fold(int octet, boolean caseSensitive) {
        return caseSensitive ? octet : LOWER_CASE[octet];
    }

    /** @return whether {@code c} may appear in a key */
    public static boolean isLegal(char c) {
        return c == '\t' || (c >= ' ' && c <= '~') || (c >= 0x80 && c <= 0xFF);
    }

    /** @return whether every character of {@code key} may appear in a key */
    public static boolean isLegal(String key) {
        for (int i = 0; i < key.length(); i++) {
            if (!isLegal(key.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return {@code key}, after checking that every character of it may appear in a key
     * @throws NullPointerException when {@code key} is null
     * @throws IllegalArgumentException naming the key and the first illegal character
     */
    public static String requireLegal(String key) {
        if (key == null) {
            throw new NullPointerException("null index key");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (!isLegal(c)) {
                throw new IllegalArgumentException(String.format(
                    "illegal index key %s: character U+%04X at %d is not visible ASCII, space, tab or obs-text",
                    quote(key), (int) c, i));
            }
        }
        return key;
    }

    /**
     * @return {@code key} in double quotes, controls and non-Latin-1 characters escaped as
     *     {@code \\uXXXX}, cut after 80 characters, for error messages and dumps
     */
    public static String quote(String key) {
        int shown = Math.min(key.length(), 80);
        StringBuilder quoted = new StringBuilder(shown + 16).append('"');
        for (int i = 0; i < shown; i++) {
            char c = key.charAt(i);
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c >= ' ' && c <= '~') {
                quoted.append(c);
            } else {
                quoted.append(String.format("\\u%04x", (int) c));
            }
        }
        quoted.append('"');
        if (shown < key.length()) {
            quoted.append("... (").append(key.length()).append(" characters)");
        }
        return quoted.toString();
    }
}
