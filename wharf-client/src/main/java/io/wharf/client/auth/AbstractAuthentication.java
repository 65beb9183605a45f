package io.wharf.client.auth;

import java.net.URI;
import java.util.Objects;

import io.wharf.client.Authentication;
import io.wharf.client.internal.auth.UriPrefix;

/**
 * What most {@link Authentication}s share: one scheme, a URI prefix and a realm (or any
 * realm), and the {@link #matches} test on them. Immutable; any thread.
 */
public abstract class AbstractAuthentication implements Authentication {

    /** The realm that matches every realm. */
    public static final String ANY_REALM = null;

    private final String scheme;
    private final URI uri;
    private final String realm;

    /**
     * @param scheme the scheme answered, e.g. {@code Basic}
     * @param uri the URI prefix the credentials are for, e.g. {@code http://host:8080/api}
     * @param realm the realm the credentials are for, or {@link #ANY_REALM}
     */
    protected AbstractAuthentication(String scheme, URI uri, String realm) {
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        this.uri = Objects.requireNonNull(uri, "uri");
        if (uri.getScheme() == null || uri.getHost() == null) {
            throw new IllegalArgumentException("an authentication URI needs a scheme and a host: " + uri);
        }
        this.realm = realm;
    }

    /** @return the scheme answered */
    public String getScheme() {
        return scheme;
    }

    /** @return the URI prefix the credentials are for */
    public URI getURI() {
        return uri;
    }

    /** @return the realm, or null for any */
    public String getRealm() {
        return realm;
    }

    @Override
    public boolean matches(String challengeScheme, URI requestUri, String challengeRealm) {
        return scheme.equalsIgnoreCase(challengeScheme)
                && (realm == null || realm.equals(challengeRealm))
                && UriPrefix.covers(uri, requestUri);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + uri + (realm == null ? "" : ", realm=" + realm) + "]";
    }
}
