package io.wharf.client.internal.cookie;

import java.net.URI;
import java.util.Locale;

/**
 * The matching rules of RFC 6265 a user agent applies to cookies: canonical hosts, domain
 * matching (section 5.1.3), default paths and path matching (section 5.1.4), secure schemes.
 * Static and stateless; any thread.
 */
public final class CookieRules {

    private CookieRules() {
    }

    /** @return the canonical host of {@code uri}: lower case, an IPv6 literal without brackets; null when it has none */
    public static String host(URI uri) {
        String host = uri == null ? null : uri.getHost();
        if (host == null || host.isEmpty()) {
            return null;
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        return host.toLowerCase(Locale.ROOT);
    }

    /** @return whether {@code host} is an IPv4 or IPv6 literal (canonical, as {@link #host} gives) */
    public static boolean isIpLiteral(String host) {
        if (host.indexOf(':') >= 0) {
            return true;
        }
        int dots = 0;
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (c == '.') {
                dots++;
            } else if (c < '0' || c > '9') {
                return false;
            }
        }
        return dots == 3;
    }

    /**
     * @param host a canonical host
     * @param domain a canonical cookie domain (lower case, no leading dot)
     * @return whether the host domain-matches the domain: equal, or a name under it (never an IP literal)
     */
    public static boolean domainMatches(String host, String domain) {
        if (host.equals(domain)) {
            return true;
        }
        return host.length() > domain.length()
                && host.endsWith(domain)
                && host.charAt(host.length() - domain.length() - 1) == '.'
                && !isIpLiteral(host);
    }

    /**
     * Whether a {@code Domain} attribute may widen a cookie to more than its host. Wharf keeps
     * no public suffix list: a domain of one label ({@code com}, {@code localhost}) stands for
     * a public suffix, and so does any domain set by a host that is an IP literal.
     *
     * @return whether {@code domain} is acceptable for a cookie set by {@code host}
     */
    public static boolean mayWiden(String host, String domain) {
        return domain.indexOf('.') > 0 && !isIpLiteral(host) && domainMatches(host, domain);
    }

    /** @return the default path of a cookie set in answer to a request for {@code path} (section 5.1.4) */
    public static String defaultPath(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return "/";
        }
        int slash = path.lastIndexOf('/');
        return slash == 0 ? "/" : path.substring(0, slash);
    }

    /** @return whether {@code requestPath} path-matches {@code cookiePath} (section 5.1.4) */
    public static boolean pathMatches(String requestPath, String cookiePath) {
        String path = requestPath == null || requestPath.isEmpty() ? "/" : requestPath;
        if (!path.startsWith(cookiePath)) {
            return false;
        }
        return path.length() == cookiePath.length()
                || cookiePath.endsWith("/")
                || path.charAt(cookiePath.length()) == '/';
    }

    /** @return whether {@code uri}'s scheme is secure: https or wss */
    public static boolean isSecure(URI uri) {
        String scheme = uri == null ? null : uri.getScheme();
        return "https".equalsIgnoreCase(scheme) || "wss".equalsIgnoreCase(scheme);
    }
}
