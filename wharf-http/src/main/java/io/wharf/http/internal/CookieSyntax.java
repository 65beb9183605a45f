package io.wharf.http.internal;

/**
 * The character classes of cookies (RFC 6265 section 4.1.1, RFC 9110 section 5.6.2) and the
 * checks that turn a bad character into an {@link IllegalArgumentException} naming it, for
 * code that builds cookies. Stateless; every method is linear in its input and allocates
 * only when it throws.
 */
public final class CookieSyntax {

    /** How much of a bad text an error message shows before it cuts it short. */
    private static final int MAX_SHOWN = 64;

    private static final boolean[] COOKIE_OCTET = new boolean[128];

    static {
        for (char c = 0x21; c < 0x7f; c++) {
            // RFC 6265 cookie-octet: visible but DQUOTE, comma, semicolon and backslash
            COOKIE_OCTET[c] = c != '"' && c != ',' && c != ';' && c != '\\';
        }
    }

    private CookieSyntax() {
    }

    /** @return whether {@code c} may appear in a token (a cookie or attribute name) */
    public static boolean isTokenChar(char c) {
        return HttpTokens.isTokenChar(c);
    }

    /** @return whether {@code c} is an RFC 6265 cookie-octet */
    public static boolean isCookieOctet(char c) {
        return c < 128 && COOKIE_OCTET[c];
    }

    /** @return whether {@code c} is a space or a horizontal tab */
    public static boolean isBlank(char c) {
        return HttpTokens.isBlank(c);
    }

    /**
     * Checks a cookie name: a non-empty token.
     *
     * @throws IllegalArgumentException naming the first illegal character
     */
    public static void requireName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("cookie name is empty");
        }
        requireToken("cookie name " + quote(name), name);
    }

    /**
     * Checks an attribute name: a non-empty token.
     *
     * @throws IllegalArgumentException naming the first illegal character
     */
    public static void requireAttributeName(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("cookie attribute name is empty");
        }
        requireToken("cookie attribute name " + quote(name), name);
    }

    /**
     * Checks a cookie value: cookie-octets, optionally wrapped in one pair of DQUOTEs; empty
     * is legal.
     *
     * @param cookieName the (valid) name of the cookie, for the message
     * @throws IllegalArgumentException naming the first illegal character
     */
    public static void requireValue(String cookieName, String value) {
        if (value == null) {
            throw new IllegalArgumentException("cookie value of " + quote(cookieName) + " is null");
        }
        int from = 0;
        int to = value.length();
        if (to >= 2 && value.charAt(0) == '"' && value.charAt(to - 1) == '"') {
            from = 1;
            to--;
        }
        for (int i = from; i < to; i++) {
            if (!isCookieOctet(value.charAt(i))) {
                throw illegal("cookie value of " + quote(cookieName), value, i);
            }
        }
    }

    /**
     * Checks the value of an attribute such as {@code Path} or {@code Comment}: any character
     * from space to {@code ~} but the semicolon (RFC 6265 path-value and extension-av).
     *
     * @param what names the attribute and cookie, e.g. {@code "cookie path of \"id\""}
     * @throws IllegalArgumentException naming the first illegal character
     */
    public static void requireAttributeValue(String what, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e || c == ';') {
                throw illegal(what, value, i);
            }
        }
    }

    /**
     * Checks a {@code Domain}: letters, digits, {@code - . _}, and {@code : [ ]} for an IPv6
     * literal; not empty.
     *
     * @throws IllegalArgumentException naming the first illegal character
     */
    public static void requireDomain(String cookieName, String domain) {
        String what = "cookie domain of " + quote(cookieName);
        if (domain.isEmpty()) {
            throw new IllegalArgumentException(what + " is empty");
        }
        for (int i = 0; i < domain.length(); i++) {
            char c = domain.charAt(i);
            boolean legal = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == ':' || c == '[' || c == ']';
            if (!legal) {
                throw illegal(what, domain, i);
            }
        }
    }

    private static void requireToken(String what, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!isTokenChar(text.charAt(i))) {
                throw illegal(what, text, i);
            }
        }
    }

    private static IllegalArgumentException illegal(String what, String text, int index) {
        return new IllegalArgumentException(
                what + " has an illegal character " + describe(text.charAt(index)) + " at index " + index);
    }

    /** @return {@code c} as a message shows it: {@code ' ' (0x20)}, {@code 0x0a} or {@code U+00E9} */
    public static String describe(char c) {
        if (c >= 0x20 && c < 0x7f) {
            return "'" + c + "' (0x" + hex2(c) + ")";
        }
        if (c < 0x100) {
            return "0x" + hex2(c);
        }
        return String.format("U+%04X", (int) c);
    }

    /**
     * @return {@code text} in double quotes for a message, with quotes, backslashes and every
     *     character outside visible ASCII escaped, cut after {@value #MAX_SHOWN} characters
     */
    public static String quote(CharSequence text) {
        if (text == null) {
            return "null";
        }
        int shown = Math.min(text.length(), MAX_SHOWN);
        StringBuilder quoted = new StringBuilder(shown + 8).append('"');
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                quoted.append(c);
            } else if (c < 0x100) {
                quoted.append("\\x").append(hex2(c));
            } else {
                quoted.append(String.format("\\u%04x", (int) c));
            }
        }
        quoted.append('"');
        if (text.length() > shown) {
            quoted.append("...");
        }
        return quoted.toString();
    }

    private static String hex2(char c) {
        String digits = Integer.toHexString(c);
        return digits.length() == 1 ? "0" + digits : digits;
    }
}
