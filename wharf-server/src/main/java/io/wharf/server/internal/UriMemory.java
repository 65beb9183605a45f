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
 * <p>Kept by a protocol's {@link ServerStream}: HTTP/1.1 keeps one in each codec its connections
 * borrow, HTTP/2 one per connection. <b>Threads:</b> HTTP/2 builds the URIs of a connection's
 * streams on whichever threads run their handlers, so the memory keeps its inputs and answer in
 * one immutable object behind a plain field. A thread sees an older or a newer one, never a mixed
 * one (its fields are final), and either is right for the inputs it matches.
 */
public final class UriMemory {

    private record Remembered(String target, HostPort authority, String scheme, UriCompliance compliance, HttpURI uri) {
    }

    private Remembered last;

    /** @return the URI remembered for exactly these inputs, or null */
    public HttpURI get(String target, HostPort authority, String scheme, UriCompliance compliance) {
        Remembered remembered = last;
        if (remembered != null && compliance == remembered.compliance && scheme.equals(remembered.scheme)
                && target.equals(remembered.target) && sameAuthority(authority, remembered.authority)) {
            return remembered.uri;
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
        last = new Remembered(target, authority, scheme, compliance, uri);
    }
}
