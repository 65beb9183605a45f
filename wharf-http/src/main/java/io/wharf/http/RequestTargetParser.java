package io.wharf.http;

import java.util.Locale;
import java.util.Objects;

import io.wharf.http.internal.UriCharacters;

/**
 * Reads the text of a request-target into an {@link HttpURI}: origin, absolute and asterisk
 * forms through {@link #parse}, the CONNECT authority form through {@link #parseAuthority}.
 * It refuses, with a {@link BadMessageException} 400, only what cannot be a URI of those
 * forms; the path's ambiguities are left for {@code HttpURI} to note.
 *
 * <p>Stateless; called through {@code HttpURI} on the thread that parses the request. One
 * linear pass over the target, no regular expressions, no buffers.
 */
final class RequestTargetParser {

    private static final String[] KNOWN_SCHEMES = {"http", "https", "ws", "wss"};
    private static final String NOT_A_TARGET = "Bad request target: not an origin, absolute or asterisk form";
    private static final HttpURI ASTERISK = new HttpURI(null, null, null, -1, "*", null, null);

    private RequestTargetParser() {
    }

    /** @see HttpURI#parse(String) */
    static HttpURI parse(String target) {
        Objects.requireNonNull(target, "target");
        if (target.isEmpty()) {
            throw new BadMessageException("Bad request target: empty");
        }
        char first = target.charAt(0);
        if (first == '/') {
            return withPath(null, null, null, -1, target, 0);
        }
        if (first == '*' && target.length() == 1) {
            return ASTERISK;
        }
        return parseAbsolute(target);
    }

    /** @see HttpURI#parse(String, String, HostPort) */
    static HttpURI parse(String target, String scheme, HostPort authority) {
        Objects.requireNonNull(target, "target");
        if (!target.isEmpty() && target.charAt(0) == '/') {
            return withPath(HttpURI.checkedScheme(scheme), null, authority.getHost(), authority.getPort(), target, 0);
        }
        HttpURI parsed = parse(target);
        return parsed.isAbsolute() ? parsed : parsed.withAuthority(scheme, authority);
    }

    /** @see HttpURI#parseAuthority(String) */
    static HttpURI parseAuthority(String authority) {
        HostPort hostPort;
        try {
            hostPort = HostPort.parse(authority);
        } catch (IllegalArgumentException bad) {
            throw new BadMessageException("Bad authority-form target: " + bad.getMessage());
        }
        if (!hostPort.hasPort()) {
            throw new BadMessageException("Bad authority-form target: no port");
        }
        return new HttpURI(null, null, hostPort.getHost(), hostPort.getPort(), null, null, null);
    }

    private static HttpURI parseAbsolute(String target) {
        int length = target.length();
        if (!UriCharacters.isAlpha(target.charAt(0))) {
            throw new BadMessageException(NOT_A_TARGET);
        }
        int colon = 1;
        while (colon < length && UriCharacters.isSchemeCharacter(target.charAt(colon))) {
            colon++;
        }
        if (colon == length || target.charAt(colon) != ':') {
            throw new BadMessageException(NOT_A_TARGET);
        }
        if (!target.startsWith("//", colon + 1)) {
            throw new BadMessageException("Bad URI: no authority after the scheme");
        }
        String scheme = knownScheme(target, colon);
        int authorityStart = colon + 3;
        int authorityEnd = authorityStart;
        while (authorityEnd < length && !isAuthorityEnd(target.charAt(authorityEnd))) {
            authorityEnd++;
        }
        String user = null;
        int hostStart = authorityStart;
        int at = target.indexOf('@', authorityStart);
        if (at >= 0 && at < authorityEnd) {
            if (!UriCharacters.isEncodedText(target, authorityStart, at, ":")) {
                throw new BadMessageException("Bad URI user info");
            }
            user = target.substring(authorityStart, at);
            hostStart = at + 1;
        }
        String authority = target.substring(hostStart, authorityEnd);
        HostPort hostPort;
        try {
            hostPort = requiresHost(scheme) ? HostPort.parse(authority) : HostPort.parseAllowingEmptyHost(authority);
        } catch (IllegalArgumentException bad) {
            throw new BadMessageException("Bad URI authority: " + bad.getMessage());
        }
        return withPath(scheme, user, hostPort.getHost(), hostPort.getPort(), target, authorityEnd);
    }

    private static boolean isAuthorityEnd(char c) {
        return c == '/' || c == '?' || c == '#';
    }

    private static boolean requiresHost(String scheme) {
        for (String known : KNOWN_SCHEMES) {
            if (known.equals(scheme)) {
                return true;
            }
        }
        return false;
    }

    private static String knownScheme(String target, int end) {
        for (String known : KNOWN_SCHEMES) {
            if (known.length() == end && target.regionMatches(true, 0, known, 0, end)) {
                return known;
            }
        }
        return target.substring(0, end).toLowerCase(Locale.ROOT);
    }

    /** Reads path, query and fragment from {@code from} and makes the URI. */
    private static HttpURI withPath(String scheme, String user, String host, int port, String target, int from) {
        int length = target.length();
        int pathEnd = from;
        while (pathEnd < length && target.charAt(pathEnd) != '?' && target.charAt(pathEnd) != '#') {
            pathEnd++;
        }
        String path = from == 0 && pathEnd == length ? target : target.substring(from, pathEnd);
        String query = null;
        String fragment = null;
        int next = pathEnd;
        if (next < length && target.charAt(next) == '?') {
            int queryEnd = target.indexOf('#', next + 1);
            if (queryEnd < 0) {
                queryEnd = length;
            }
            query = target.substring(next + 1, queryEnd);
            next = queryEnd;
        }
        if (next < length) {
            fragment = target.substring(next + 1);
        }
        if (query != null && illegalIn(query, false) >= 0) {
            throw new BadMessageException("Illegal character in URI query");
        }
        if (fragment != null && illegalIn(fragment, true) >= 0) {
            throw new BadMessageException("Illegal character in URI fragment");
        }
        return new HttpURI(scheme, user, host, port, path, query, fragment);
    }

    /**
     * @return the index of the first character a query or fragment may never hold raw — a
     *     space, a control character, and in a fragment a {@code '#'} — or -1
     */
    static int illegalIn(String component, boolean fragment) {
        for (int i = 0; i < component.length(); i++) {
            char c = component.charAt(i);
            if (c <= 0x20 || c == 0x7F || fragment && c == '#') {
                return i;
            }
        }
        return -1;
    }
}
