package io.wharf.servlet.internal;

import jakarta.servlet.http.HttpServletRequest;

import io.wharf.http.UriPath;

/**
 * The {@code Location} of {@code sendRedirect} (Servlet 6.1 section 5.5 and the javadoc of
 * {@code HttpServletResponse.sendRedirect}): an absolute URI and a network-path reference
 * ({@code //host/path}) are sent as given; a path with a leading {@code '/'} is relative to the
 * server's root; any other relative reference is resolved against the request URI, dot
 * segments removed. The result is a path-absolute reference (RFC 9110 section 10.2.2 allows
 * relative ones), so the client resolves it against what it asked for. Stateless.
 */
final class Redirects {

    private Redirects() {
    }

    static String resolve(HttpServletRequest request, String location) {
        if (location.startsWith("//") || hasScheme(location)) {
            return location;
        }
        if (location.startsWith("/")) {
            return normalized(location);
        }
        String base = request.getRequestURI();
        int slash = base.lastIndexOf('/');
        String directory = slash < 0 ? "/" : base.substring(0, slash + 1);
        return normalized(directory + location);
    }

    private static boolean hasScheme(String location) {
        for (int i = 0; i < location.length(); i++) {
            char c = location.charAt(i);
            if (c == ':') {
                return i > 0;
            }
            boolean schemeChar = Character.isLetterOrDigit(c) && c < 0x80 || c == '+' || c == '-' || c == '.';
            if (!schemeChar || i == 0 && !Character.isLetter(c)) {
                return false;
            }
        }
        return false;
    }

    /** @return {@code location} with dot segments of its path removed, query and fragment kept */
    private static String normalized(String location) {
        int end = location.length();
        int query = location.indexOf('?');
        int fragment = location.indexOf('#');
        if (query >= 0) {
            end = query;
        }
        if (fragment >= 0 && fragment < end) {
            end = fragment;
        }
        String path = location.substring(0, end);
        String canonical = UriPath.canonicalPath(path);
        return (canonical == null ? path : canonical) + location.substring(end);
    }
}
