package io.wharf.client.internal.auth;

import java.net.URI;
import java.util.Locale;

import io.wharf.client.Origin;

/**
 * Whether a URI lies under a prefix: same scheme, host and port (the scheme's default when
 * none is given), and a path that equals the prefix's path or continues it past a {@code /}.
 * Static; any thread. Used by the client's {@code AuthenticationStore} and the schemes'
 * {@code AbstractAuthentication}.
 */
public final class UriPrefix {

    private UriPrefix() {
    }

    /** @return whether {@code uri} lies under {@code prefix} */
    public static boolean covers(URI prefix, URI uri) {
        if (prefix.getScheme() == null || uri.getScheme() == null || prefix.getHost() == null || uri.getHost() == null) {
            return false;
        }
        if (!prefix.getScheme().equalsIgnoreCase(uri.getScheme()) || !prefix.getHost().equalsIgnoreCase(uri.getHost())) {
            return false;
        }
        if (port(prefix) != port(uri)) {
            return false;
        }
        String base = path(prefix);
        String path = path(uri);
        return path.startsWith(base)
                && (path.length() == base.length() || base.endsWith("/") || path.charAt(base.length()) == '/');
    }

    /** @return the length of the prefix's path: longer prefixes are more specific */
    public static int specificity(URI prefix) {
        return path(prefix).length();
    }

    private static int port(URI uri) {
        return uri.getPort() > 0 ? uri.getPort() : Origin.defaultPort(uri.getScheme().toLowerCase(Locale.ROOT));
    }

    private static String path(URI uri) {
        String path = uri.getRawPath();
        return path == null || path.isEmpty() ? "/" : path;
    }
}
