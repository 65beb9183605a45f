package io.wharf.http.internal;

/**
 * Which cookie a {@code Set-Cookie} value sets: its name, {@code Domain} and {@code Path}, read
 * as a user agent reads them (RFC 6265 section 5.2) — blanks around names and values ignored,
 * attribute names in any case, the last {@code Domain} and {@code Path} winning, an empty
 * domain ignored, a path that does not start with {@code /} counting as none. Used by
 * {@code HttpCookie.isSameCookieAs} on any thread; immutable, holds no buffers.
 *
 * @param name the cookie name
 * @param domain the {@code Domain} attribute as given, or null
 * @param path the {@code Path} attribute, or null
 */
public record SetCookieIdentity(String name, String domain, String path) {

    /** @return the identity of the cookie {@code setCookieValue} sets, or null when its first pair has no {@code =} */
    public static SetCookieIdentity read(String setCookieValue) {
        String[] parts = setCookieValue.split(";", -1);
        int equals = parts[0].indexOf('=');
        if (equals < 0) {
            return null;
        }
        String domain = null;
        String path = null;
        for (int i = 1; i < parts.length; i++) {
            int separator = parts[i].indexOf('=');
            String attribute = blanksTrimmed(separator < 0 ? parts[i] : parts[i].substring(0, separator));
            String value = separator < 0 ? "" : blanksTrimmed(parts[i].substring(separator + 1));
            if (attribute.equalsIgnoreCase("domain") && !value.isEmpty()) {
                domain = value;
            } else if (attribute.equalsIgnoreCase("path")) {
                path = value.startsWith("/") ? value : null;
            }
        }
        return new SetCookieIdentity(blanksTrimmed(parts[0].substring(0, equals)), domain, path);
    }

    /** @return {@code text} without the spaces and tabs around it */
    private static String blanksTrimmed(String text) {
        int from = HttpTokens.skipBlanks(text, 0, text.length());
        return text.substring(from, HttpTokens.trimEnd(text, from, text.length()));
    }
}
