package io.wharf.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import io.wharf.http.UriCompliance.Violation;
import io.wharf.http.internal.PathDecoder;
import io.wharf.http.internal.UriCharacters;

/**
 * An immutable URI as a request-target or a client's request URI (RFC 3986, RFC 9110
 * section 4.2, RFC 9112 section 3.2), keeping each component raw — exactly as received —
 * and the path also decoded and canonical.
 *
 * <p>{@link #parse} reads every request-target form: origin ({@code /a/b?q}), absolute
 * ({@code http://host:8080/p;x?q}) and asterisk ({@code *}); {@link #parseAuthority} reads
 * the authority form of CONNECT ({@code host:443}). A target that cannot be a URI at all is
 * refused with a {@link BadMessageException} 400 naming the problem. One that is a URI but
 * ambiguous — {@code /%2e%2e/}, {@code %2F}, {@code //}, {@code ;params}, user info, a
 * fragment... — is accepted with its {@linkplain #getViolations() violations} noted, for a
 * {@link UriCompliance} mode to judge. A NUL in the path or a {@code ".."} above the root makes
 * it {@linkplain #isBad() bad}: its decoded path is null and every mode rejects it.
 *
 * <p>The HTTP/1 parser calls {@code parse} on the thread that reads the request; a server or
 * client building URIs uses {@link #build()}. Instances are immutable and safe to share.
 * Parsing is linear in the length of the target and allocates only the component strings;
 * a URI holds Strings only, never a buffer.
 */
public final class HttpURI {

    private static final Set<Violation> NO_VIOLATIONS = Collections.unmodifiableSet(EnumSet.noneOf(Violation.class));
    private static final Set<Violation> AMBIGUITIES = EnumSet.of(
            Violation.AMBIGUOUS_PATH_SEGMENT,
            Violation.AMBIGUOUS_EMPTY_SEGMENT,
            Violation.AMBIGUOUS_PATH_SEPARATOR,
            Violation.AMBIGUOUS_PATH_PARAMETER,
            Violation.AMBIGUOUS_PATH_ENCODING);

    private final String scheme;
    private final String user;
    private final String host;
    private final int port;
    private final String path;
    private final String query;
    private final String fragment;
    private final String decodedPath;
    private final String canonicalPath;
    private final Set<Violation> violations;
    private final String badReason;
    private String text;

    /** Made by {@link RequestTargetParser} and {@link Builder}, which have checked the components. */
    HttpURI(String scheme, String user, String host, int port, String path, String query, String fragment) {
        this.scheme = scheme;
        this.user = user;
        this.host = host;
        this.port = port;
        this.path = path;
        this.query = query;
        this.fragment = fragment;
        Set<Violation> found = NO_VIOLATIONS;
        if (path == null) {
            decodedPath = null;
            canonicalPath = null;
            badReason = null;
        } else if (host == null && path.equals("*")) {
            decodedPath = path;
            canonicalPath = path;
            badReason = null;
        } else if (host != null && path.isEmpty()) {
            // RFC 9110 section 4.2.3: an empty path with an authority means "/".
            decodedPath = "/";
            canonicalPath = "/";
            badReason = null;
        } else {
            PathDecoder.Result result = PathDecoder.decode(path);
            decodedPath = result.decoded();
            canonicalPath = result.canonical();
            badReason = result.badReason();
            found = result.violations();
        }
        if (user != null || fragment != null) {
            EnumSet<Violation> all = EnumSet.noneOf(Violation.class);
            all.addAll(found);
            if (user != null) {
                all.add(Violation.USER_INFO);
            }
            if (fragment != null) {
                all.add(Violation.FRAGMENT);
            }
            found = Collections.unmodifiableSet(all);
        }
        this.violations = found;
    }

    /** A copy of an origin-form URI with a scheme and an authority; the path is not decoded again. */
    private HttpURI(HttpURI origin, String scheme, String host, int port) {
        this.scheme = scheme;
        this.user = null;
        this.host = host;
        this.port = port;
        this.path = origin.path;
        this.query = origin.query;
        this.fragment = origin.fragment;
        this.decodedPath = origin.decodedPath;
        this.canonicalPath = origin.canonicalPath;
        this.badReason = origin.badReason;
        this.violations = origin.violations;
    }

    /**
     * What a server does to every origin-form and asterisk-form request target: adds the
     * scheme and the authority (from the {@code Host} field). The path, its decoded and
     * canonical forms and its violations are shared with this URI, not computed again. An
     * asterisk-form target keeps {@code "*"} as its path, for handlers of {@code OPTIONS *};
     * as text it is the target URI of RFC 9112 section 3.3, {@code scheme://authority} with
     * an empty path.
     *
     * @param authority a parsed host and port
     * @return the absolute URI
     * @throws IllegalArgumentException when {@code scheme} is not a scheme
     */
    public HttpURI withAuthority(String scheme, HostPort authority) {
        if (isAsteriskForm()) {
            return new HttpURI(this, checkedScheme(scheme), authority.getHost(), authority.getPort());
        }
        if (host != null || user != null || path == null || path.isEmpty() || path.charAt(0) != '/') {
            return build(this).scheme(scheme).host(authority.getHost()).port(authority.getPort()).asImmutable();
        }
        return new HttpURI(this, checkedScheme(scheme), authority.getHost(), authority.getPort());
    }

    /** @return whether this is the asterisk-form target {@code *} of {@code OPTIONS *} */
    private boolean isAsteriskForm() {
        return scheme == null && host == null && "*".equals(path);
    }

    /** @return {@code scheme} lower-cased, after checking it is one (RFC 3986 section 3.1) */
    static String checkedScheme(String scheme) {
        if (scheme.equals("http") || scheme.equals("https")) {
            return scheme; // What nearly every request carries, valid and in lower case already.
        }
        boolean valid = !scheme.isEmpty() && UriCharacters.isAlpha(scheme.charAt(0));
        for (int i = 1; valid && i < scheme.length(); i++) {
            valid = UriCharacters.isSchemeCharacter(scheme.charAt(i));
        }
        if (!valid) {
            throw new IllegalArgumentException("not a scheme: '" + scheme + "'");
        }
        return scheme.toLowerCase(Locale.ROOT);
    }

    /**
     * Reads a request-target in origin, absolute or asterisk form. The scheme is lower-cased;
     * every other component is kept as received. In absolute form an http, https, ws or wss
     * URI must name a host; a path after the authority that is empty counts as {@code "/"}
     * for the decoded and canonical path.
     *
     * @param target the request-target, as the request line carries it
     * @return the URI, possibly with violations or bad; see {@link UriCompliance#check}
     * @throws BadMessageException 400 when the target is not a URI of those forms
     */
    public static HttpURI parse(String target) {
        return RequestTargetParser.parse(target);
    }

    /**
     * What a server does with every request-target: {@link #parse(String)}, then, for the
     * origin form, adds the scheme and the authority (from the {@code Host} field or the local
     * address) — in one object, without the copy {@link #withAuthority} makes.
     *
     * @param target the request-target, as the request line carries it
     * @param scheme the lower-case scheme the request arrived by, such as {@code "http"}
     * @param authority the host and port the request is for
     * @return the URI: absolute forms as {@link #parse(String)} reads them, the others with
     *     the scheme and authority as {@link #withAuthority} adds them
     * @throws BadMessageException 400 when the target is not a URI of those forms
     */
    public static HttpURI parse(String target, String scheme, HostPort authority) {
        return RequestTargetParser.parse(target, scheme, authority);
    }

    /**
     * Reads a CONNECT request-target in authority form, {@code host:port} (RFC 9112 section
     * 3.2.3). The result has a host and a port and no path.
     *
     * @throws BadMessageException 400 naming the problem, including a missing port
     */
    public static HttpURI parseAuthority(String authority) {
        return RequestTargetParser.parseAuthority(authority);
    }

    /**
     * @return a URI with those components; {@code port} -1 for none, {@code pathQuery} may be null
     * @throws IllegalArgumentException when a component is not valid
     */
    public static HttpURI from(String scheme, String host, int port, String pathQuery) {
        return build().scheme(scheme).host(host).port(port).pathQuery(pathQuery).asImmutable();
    }

    /** @return an empty builder */
    public static Builder build() {
        return new Builder();
    }

    /** @return a builder holding the components of {@code uri}, to change some of them */
    public static Builder build(HttpURI uri) {
        return new Builder(uri);
    }

    /** @return the scheme, lower-case, or null for an origin-form or authority-form target */
    public String getScheme() {
        return scheme;
    }

    /** @return the raw user info (what precedes {@code '@'} in the authority), or null */
    public String getUser() {
        return user;
    }

    /** @return the host as received (an IP-literal with its brackets), or null when there is no authority */
    public String getHost() {
        return host;
    }

    /** @return the port, or -1 when none was given */
    public int getPort() {
        return port;
    }

    /** @return {@code host} or {@code host:port} without user info, or null when there is no host */
    public String getAuthority() {
        if (host == null) {
            return null;
        }
        return port < 0 ? host : host + ":" + port;
    }

    /** @return the raw path, still encoded, parameters kept; {@code "*"} for asterisk form; null for authority form */
    public String getPath() {
        return path;
    }

    /**
     * @return the path percent-decoded (strict UTF-8), without path parameters and with dot
     *     segments removed; null for authority form and when the URI {@linkplain #isBad() is bad}
     */
    public String getDecodedPath() {
        return decodedPath;
    }

    /**
     * @return the path without parameters and dot segments but still encoded; null like
     *     {@link #getDecodedPath()}
     */
    public String getCanonicalPath() {
        return canonicalPath;
    }

    /** @return the raw parameter of the last path segment (after its first {@code ';'}), or null */
    public String getParam() {
        if (path == null) {
            return null;
        }
        int segmentStart = path.lastIndexOf('/') + 1;
        int semicolon = path.indexOf(';', segmentStart);
        return semicolon < 0 ? null : path.substring(semicolon + 1);
    }

    /** @return the raw query without its {@code '?'}, or null when there is none */
    public String getQuery() {
        return query;
    }

    /** @return the raw fragment without its {@code '#'}, or null when there is none */
    public String getFragment() {
        return fragment;
    }

    /**
     * @return the raw path and query as an origin-form target — an empty path after an
     *     authority is given as {@code "/"} — or null for authority form
     */
    public String getPathQuery() {
        if (path == null) {
            return null;
        }
        String origin = path.isEmpty() && host != null ? "/" : path;
        return query == null ? origin : origin + "?" + query;
    }

    /** @return whether the URI has a scheme */
    public boolean isAbsolute() {
        return scheme != null;
    }

    /** @return the violations found in this URI, in declaration order; unmodifiable */
    public Set<Violation> getViolations() {
        return violations;
    }

    /** @return whether any violation was found */
    public boolean hasViolations() {
        return !violations.isEmpty();
    }

    /** @return whether the path is ambiguous: a disguised dot segment, an empty segment, {@code %2F}, a parameter or {@code %25} */
    public boolean isAmbiguous() {
        for (Violation violation : violations) {
            if (AMBIGUITIES.contains(violation)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether the path can never be accepted: a NUL in it, or a {@code ".."} above the root */
    public boolean isBad() {
        return badReason != null;
    }

    /** @return why the URI is bad, or null */
    String badReason() {
        return badReason;
    }

    /** @return the URI as text, from its raw components; an authority-form URI as {@code host:port} */
    public String asString() {
        String result = text;
        if (result == null) {
            result = compose();
            text = result;
        }
        return result;
    }

    private String compose() {
        if (path == null) {
            return getAuthority();
        }
        StringBuilder out = new StringBuilder(64);
        if (scheme != null) {
            out.append(scheme).append(':');
        }
        if (host != null) {
            out.append("//");
            if (user != null) {
                out.append(user).append('@');
            }
            out.append(host);
            if (port >= 0) {
                out.append(':').append(port);
            }
        }
        if (host == null || !"*".equals(path)) {
            out.append(path);
        }
        if (query != null) {
            out.append('?').append(query);
        }
        if (fragment != null) {
            out.append('#').append(fragment);
        }
        return out.toString();
    }

    /**
     * @return the URI as a {@link URI}
     * @throws IllegalArgumentException when {@code java.net.URI} refuses it (it is stricter
     *     about some raw characters)
     */
    public URI toURI() {
        try {
            return new URI(asString());
        } catch (URISyntaxException refused) {
            throw new IllegalArgumentException("not a java.net.URI: " + refused.getReason(), refused);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HttpURI that && asString().equals(that.asString());
    }

    @Override
    public int hashCode() {
        return asString().hashCode();
    }

    /** @return {@link #asString()} */
    @Override
    public String toString() {
        return asString();
    }

    /**
     * Collects the components of a URI a server or client constructs, checking each as it is
     * set, then makes the immutable {@link HttpURI}. Components are raw: the caller encodes
     * the path (see {@link UriPath#encodePath}) and the query.
     *
     * <p>Mutable and owned by one thread at a time.
     */
    public static final class Builder {

        private String scheme;
        private String user;
        private String host;
        private int port = -1;
        private String path = "";
        private String query;
        private String fragment;

        private Builder() {
        }

        private Builder(HttpURI uri) {
            scheme = uri.scheme;
            user = uri.user;
            host = uri.host;
            port = uri.port;
            path = uri.path;
            query = uri.query;
            fragment = uri.fragment;
        }

        /** @param scheme a scheme such as {@code "https"}, lower-cased here, or null */
        public Builder scheme(String scheme) {
            this.scheme = scheme == null ? null : checkedScheme(scheme);
            return this;
        }

        /** @param user raw, already encoded user info, or null */
        public Builder user(String user) {
            if (user != null && !UriCharacters.isEncodedText(user, 0, user.length(), ":")) {
                throw new IllegalArgumentException("user info holds a character that must be percent-encoded");
            }
            this.user = user;
            return this;
        }

        /** @param host a reg-name, IPv4 address or IP-literal (brackets added if missing), empty, or null */
        public Builder host(String host) {
            this.host = host == null || host.isEmpty() ? host : HostPort.of(host, -1).getHost();
            return this;
        }

        /** @param port 0-65535, or -1 for none */
        public Builder port(int port) {
            if (port < -1 || port > HostPort.MAXIMUM_PORT) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            this.port = port;
            return this;
        }

        /** @param path the raw, encoded path, parameters included; without {@code '?'} or {@code '#'} */
        public Builder path(String path) {
            Objects.requireNonNull(path, "path");
            if (path.indexOf('?') >= 0 || path.indexOf('#') >= 0) {
                throw new IllegalArgumentException("path holds '?' or '#': encode them, or use pathQuery");
            }
            this.path = path;
            return this;
        }

        /** @param pathQuery a raw path, then optionally {@code '?'} and a raw query; null for an empty path */
        public Builder pathQuery(String pathQuery) {
            if (pathQuery == null) {
                path("");
                return query(null);
            }
            int question = pathQuery.indexOf('?');
            if (question < 0) {
                path(pathQuery);
                return query(null);
            }
            path(pathQuery.substring(0, question));
            return query(pathQuery.substring(question + 1));
        }

        /** @param query the raw, encoded query without {@code '?'}, or null */
        public Builder query(String query) {
            if (query != null && (RequestTargetParser.illegalIn(query, false) >= 0 || query.indexOf('#') >= 0)) {
                throw new IllegalArgumentException("query holds a space, a control character or '#': encode them");
            }
            this.query = query;
            return this;
        }

        /** @param fragment the raw fragment without {@code '#'}, or null */
        public Builder fragment(String fragment) {
            if (fragment != null && RequestTargetParser.illegalIn(fragment, true) >= 0) {
                throw new IllegalArgumentException("fragment holds a space, a control character or '#': encode them");
            }
            this.fragment = fragment;
            return this;
        }

        /** Replaces the parameter of the last path segment; null removes it. */
        public Builder param(String param) {
            if (param != null && (param.indexOf('/') >= 0 || param.indexOf('?') >= 0 || param.indexOf('#') >= 0)) {
                throw new IllegalArgumentException("parameter holds '/', '?' or '#': encode them");
            }
            String base = path == null ? "" : path;
            int segmentStart = base.lastIndexOf('/') + 1;
            int semicolon = base.indexOf(';', segmentStart);
            String withoutParam = semicolon < 0 ? base : base.substring(0, semicolon);
            path = param == null ? withoutParam : withoutParam + ";" + param;
            return this;
        }

        /**
         * @return the URI built from the components set
         * @throws IllegalArgumentException when they do not fit together: user info or a port
         *     without a host, a path after a host not starting with {@code '/'}, a path
         *     starting with {@code "//"} after a scheme without a host
         */
        public HttpURI asImmutable() {
            if (host == null && (user != null || port >= 0)) {
                throw new IllegalArgumentException("user info or port without a host");
            }
            if (path == null) {
                if (host == null || port < 0) {
                    throw new IllegalArgumentException("an authority-form URI needs a host and a port");
                }
            } else if (host != null && !path.isEmpty() && path.charAt(0) != '/') {
                throw new IllegalArgumentException("a path after a host must start with '/'");
            } else if (scheme != null && host == null && path.startsWith("//")) {
                throw new IllegalArgumentException("a path after a scheme without a host cannot start with '//'");
            }
            return new HttpURI(scheme, user, host, port, path, query, fragment);
        }
    }
}
