package io.wharf.http.internal;

/**
 * The RFC 3986 character classes (section 2.2 and 2.3) Wharf's URI code tests against.
 * Stateless; callable from any thread.
 */
public final class UriCharacters {

    private UriCharacters() {
    }

    /** @return whether {@code c} is ALPHA / DIGIT / {@code - . _ ~} */
    public static boolean isUnreserved(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || c == '-' || c == '.' || c == '_' || c == '~';
    }

    /** @return whether {@code c} is one of {@code ! $ & ' ( ) * + , ; =} */
    public static boolean isSubDelimiter(char c) {
        return switch (c) {
            case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=' -> true;
            default -> false;
        };
    }

    /** @return whether {@code c} may follow the first letter of a scheme: ALPHA / DIGIT / {@code + - .} */
    public static boolean isSchemeCharacter(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || c == '+' || c == '-' || c == '.';
    }

    /** @return whether {@code c} is an ASCII letter */
    public static boolean isAlpha(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    /**
     * @return whether every character of {@code text[from, to)} is unreserved, a
     *     sub-delimiter, one of {@code extra}, or part of a well-formed {@code %XX}
     */
    public static boolean isEncodedText(String text, int from, int to, String extra) {
        return firstNotEncodedText(text, from, to, extra) < 0;
    }

    /** @return the index of the first character of {@code text[from, to)} that {@link #isEncodedText} refuses, or -1 */
    public static int firstNotEncodedText(String text, int from, int to, String extra) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c == '%') {
                if (PercentEncoding.byteAt(text, i, to) < 0) {
                    return i;
                }
                i += 2;
            } else if (!isUnreserved(c) && !isSubDelimiter(c) && extra.indexOf(c) < 0) {
                return i;
            }
        }
        return -1;
    }
}
