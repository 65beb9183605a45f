package io.wharf.http.internal;

/**
 * Reads the parameters of a media type such as a {@code Content-Type} value (RFC 9110
 * section 8.3.1): {@code type/subtype *( OWS ";" OWS name "=" ( token / quoted-string ) )}.
 * Used by {@code MimeTypes} on the caller's thread; holds no state.
 *
 * <p>One pass, linear in the input, no regular expression: a semicolon inside a quoted string
 * (with backslash escapes) separates nothing, names compare without ASCII case, a quoted value
 * is answered unquoted. A parameter that does not fit the grammar (no {@code =}, an empty
 * value, a bare value holding a character a token may not) is skipped, and so is any text
 * after a closing quote up to the next semicolon.
 */
public final class MediaTypeParameters {

    private MediaTypeParameters() {
    }

    /** @return the value of the first well-formed parameter called {@code name} (any case), or null */
    public static String find(String mediaType, String name) {
        if (mediaType == null) {
            return null;
        }
        int length = mediaType.length();
        int i = mediaType.indexOf(';');
        while (i >= 0 && i < length) {
            int nameStart = HttpTokens.skipBlanks(mediaType, i + 1, length);
            int equals = nameStart;
            while (equals < length && mediaType.charAt(equals) != '=' && mediaType.charAt(equals) != ';') {
                equals++;
            }
            if (equals >= length || mediaType.charAt(equals) == ';') {
                i = equals;
                continue;
            }
            int nameEnd = HttpTokens.trimEnd(mediaType, nameStart, equals);
            int valueStart = HttpTokens.skipBlanks(mediaType, equals + 1, length);
            String value;
            int next;
            if (valueStart < length && mediaType.charAt(valueStart) == '"') {
                StringBuilder unquoted = new StringBuilder();
                int j = valueStart + 1;
                boolean closed = false;
                while (j < length) {
                    char c = mediaType.charAt(j++);
                    if (c == '"') {
                        closed = true;
                        break;
                    }
                    if (c == '\\' && j < length) {
                        c = mediaType.charAt(j++);
                    }
                    unquoted.append(c);
                }
                value = closed && !unquoted.isEmpty() ? unquoted.toString() : null;
                next = mediaType.indexOf(';', j);
            } else {
                next = mediaType.indexOf(';', valueStart);
                int valueEnd = HttpTokens.trimEnd(mediaType, valueStart, next < 0 ? length : next);
                value = isToken(mediaType, valueStart, valueEnd) ? mediaType.substring(valueStart, valueEnd) : null;
            }
            if (value != null && nameEnd - nameStart == name.length()
                    && mediaType.regionMatches(true, nameStart, name, 0, name.length())) {
                return value;
            }
            i = next;
        }
        return null;
    }

    /** @return whether {@code text[from, to)} is a non-empty token (RFC 9110 section 5.6.2) */
    public static boolean isToken(String text, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!isTokenChar(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** @return whether {@code c} is a tchar */
    public static boolean isTokenChar(char c) {
        return HttpTokens.isTokenChar(c);
    }
}
