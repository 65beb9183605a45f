package io.wharf.client.internal.cookie;

import java.net.HttpCookie;
import java.net.URI;
import java.util.Locale;

/**
 * Reads one {@code Set-Cookie} header value as a user agent does (RFC 6265 section 5.2, with
 * the limits of its successor draft): lenient about layout, strict about what it keeps. The
 * result is a {@link HttpCookie} ready for a {@link java.net.CookieStore}: its path is set
 * (the default path of the request when the header gave none or a bad one), its domain is the
 * canonical {@code Domain} attribute or null for a host-only cookie, and its max-age is
 * derived from {@code Max-Age} (which wins) or {@code Expires}.
 *
 * <p><b>Hostile input.</b> Nothing throws: a header the algorithm ignores, a name or value
 * with control characters, a name and value longer than 4096 bytes, a {@code Domain} the
 * request's host does not domain-match (or a public suffix standing for one), a
 * {@code Secure} cookie set over plain http, or a name {@link HttpCookie} refuses (not a
 * token, or starting with {@code $}) all give null; an attribute
 * value over 1024 bytes is ignored. {@code SameSite} is read and ignored: it guards
 * cross-site browsing, which a client does not do. Static and stateless; any thread.
 */
public final class SetCookieParser {

    /** The most bytes of name and value together. */
    static final int MAX_NAME_VALUE = 4096;
    /** The most bytes of one attribute value; longer ones are ignored. */
    static final int MAX_ATTRIBUTE_VALUE = 1024;

    private SetCookieParser() {
    }

    /**
     * @param header the value of one {@code Set-Cookie} field
     * @param requestUri the URI of the request the response answered
     * @param nowMillis the current time, for {@code Expires}
     * @return the cookie, or null when it is dropped
     */
    public static HttpCookie parse(String header, URI requestUri, long nowMillis) {
        String host = CookieRules.host(requestUri);
        if (host == null || header == null) {
            return null;
        }
        int semicolon = header.indexOf(';');
        String pair = semicolon < 0 ? header : header.substring(0, semicolon);
        int equals = pair.indexOf('=');
        if (equals < 0) {
            return null;
        }
        String name = trimBlanks(pair.substring(0, equals));
        String value = trimBlanks(pair.substring(equals + 1));
        if (name.isEmpty() || name.length() + value.length() > MAX_NAME_VALUE || hasControl(name) || hasControl(value)) {
            return null;
        }
        Attributes attributes = new Attributes();
        if (semicolon >= 0) {
            attributes.read(header, semicolon + 1);
        }
        return attributes.build(name, value, requestUri, host, nowMillis);
    }

    /** @return {@code text} without the spaces and tabs (only those, RFC 6265's WSP) around it */
    private static String trimBlanks(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && (text.charAt(start) == ' ' || text.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (text.charAt(end - 1) == ' ' || text.charAt(end - 1) == '\t')) {
            end--;
        }
        return text.substring(start, end);
    }

    /** Whether {@code text} holds a control character other than tab (which RFC 6265bis refuses in names and values). */
    private static boolean hasControl(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7F) {
                return true;
            }
        }
        return false;
    }

    /** The attributes of one header, the last of each kind winning, as section 5.3 reads them. */
    private static final class Attributes {
        private String domain;
        private String path;
        /** Seconds from now; Long.MIN_VALUE when no Max-Age was read. */
        private long maxAge = Long.MIN_VALUE;
        /** Epoch millis; Long.MIN_VALUE when no Expires was read. */
        private long expires = Long.MIN_VALUE;
        private boolean secure;
        private boolean httpOnly;

        void read(String header, int from) {
            int start = from;
            while (start <= header.length()) {
                int end = header.indexOf(';', start);
                if (end < 0) {
                    end = header.length();
                }
                attribute(header.substring(start, end));
                start = end + 1;
            }
        }

        private void attribute(String text) {
            int equals = text.indexOf('=');
            String name = trimBlanks(equals < 0 ? text : text.substring(0, equals)).toLowerCase(Locale.ROOT);
            String value = equals < 0 ? "" : trimBlanks(text.substring(equals + 1));
            if (value.length() > MAX_ATTRIBUTE_VALUE) {
                return;
            }
            switch (name) {
                case "expires" -> {
                    long date = CookieDate.parse(value);
                    if (date != Long.MIN_VALUE) {
                        expires = date;
                    }
                }
                case "max-age" -> maxAge(value);
                case "domain" -> {
                    if (!value.isEmpty()) {
                        String canonical = value.startsWith(".") ? value.substring(1) : value;
                        domain = canonical.toLowerCase(Locale.ROOT);
                    }
                }
                case "path" -> path = value.startsWith("/") ? value : null;
                case "secure" -> secure = true;
                case "httponly" -> httpOnly = true;
                default -> {
                    // SameSite, Partitioned, Priority and unknown attributes: nothing for a client to do.
                }
            }
        }

        /** Max-Age: an optional minus and digits; anything else is ignored. */
        private void maxAge(String value) {
            if (value.isEmpty()) {
                return;
            }
            int i = value.charAt(0) == '-' ? 1 : 0;
            if (i == value.length()) {
                return;
            }
            for (int j = i; j < value.length(); j++) {
                if (value.charAt(j) < '0' || value.charAt(j) > '9') {
                    return;
                }
            }
            if (i == 1) {
                maxAge = 0;
                return;
            }
            // Over 18 digits cannot be a long: it is "for ever" all the same.
            maxAge = value.length() > 18 ? Long.MAX_VALUE : Long.parseLong(value);
        }

        HttpCookie build(String name, String value, URI requestUri, String host, long nowMillis) {
            if (secure && !CookieRules.isSecure(requestUri)) {
                // RFC 6265bis: an insecure origin can set no Secure cookie.
                return null;
            }
            String cookieDomain = null;
            if (domain != null && !domain.equals(host)) {
                if (!CookieRules.mayWiden(host, domain)) {
                    return null;
                }
                cookieDomain = domain;
            }
            HttpCookie cookie;
            try {
                cookie = new HttpCookie(name, value);
            } catch (IllegalArgumentException refused) {
                // A name java.net.HttpCookie refuses: not a token, or a '$' prefix.
                return null;
            }
            cookie.setVersion(0);
            cookie.setDomain(cookieDomain);
            cookie.setPath(path != null ? path : CookieRules.defaultPath(requestUri.getRawPath()));
            cookie.setSecure(secure);
            cookie.setHttpOnly(httpOnly);
            cookie.setMaxAge(maxAgeSeconds(nowMillis));
            return cookie;
        }

        /** @return -1 for a session cookie, 0 for one already expired, else the seconds left */
        private long maxAgeSeconds(long nowMillis) {
            if (maxAge != Long.MIN_VALUE) {
                return maxAge;
            }
            if (expires != Long.MIN_VALUE) {
                long left = expires - nowMillis;
                return left <= 0 ? 0 : (left + 999) / 1000;
            }
            return -1;
        }
    }
}
