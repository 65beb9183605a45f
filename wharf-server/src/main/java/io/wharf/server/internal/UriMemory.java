package io.wharf.server.internal;

import io.wharf.http.HostPort;
import io.wharf.http.HttpURI;
import io.wharf.http.UriCompliance;

/**
 * The last request's URI and what it was made from: its target, its authority (host as
 * written, and port), the scheme and the URI compliance mode that checked it. A client that
 * asks for the same resource again — on the same connection, or on another that borrows the
 * same codec — gets the same immutable {@link HttpURI} without parsing, decoding and checking
 * it anew.
 *
 * <p>Kept by a protocol's {@link ServerStream} (HTTP/1.1 keeps one in each codec its connections
 * borrow), so used by one thread at a time.
 */
public final class UriMemory {

    private String target;
    private HostPort authority;
    private String scheme;
    private UriCompliance compliance;
    private HttpURI uri;

    /** @return the URI remembered for exactly these inputs, or null */
    public HttpURI get(String target, HostPort authority, String scheme, UriCompliance compliance) {
        if (uri != null && scheme.equals(this.scheme) && compliance == this.compliance && target.equals(this.target)
                && sameAuthority(authority, this.authority)) {
            return uri;
        }
        return null;
    }

    /** @return whether both are null, or have the same host, as written, and port: a URI made from either is the same */
    private static boolean sameAuthority(HostPort one, HostPort other) {
        if (one == other) {
            return true;
        }
        return one != null && other != null && one.getPort() == other.getPort() && one.getHost().equals(other.getHost());
    }

    /** Remembers {@code uri}, made from these inputs and passed by {@code compliance}. */
    public void put(String target, HostPort authority, String scheme, UriCompliance compliance, HttpURI uri) {
        this.target = target;
        this.authority = authority;
        this.scheme = scheme;
        this.compliance = compliance;
        this.uri = uri;
    }
}
