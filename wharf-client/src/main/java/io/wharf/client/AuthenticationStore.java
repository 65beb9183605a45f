package io.wharf.client;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.client.internal.auth.UriPrefix;

/**
 * The credentials of an {@link HttpClient} and the answers that worked: the
 * {@link Authentication}s the application adds (each for a URI prefix and a realm), and the
 * {@link Authentication.Result}s the client keeps once a request answered with one was not
 * refused, to send them with later requests under their URI without waiting for a 401.
 *
 * <pre>{@code
 * client.getAuthenticationStore().addAuthentication(
 *     new DigestAuthentication(URI.create("http://host:8080/api"), "shop", "ann", "secret"));
 * }</pre>
 *
 * <p><b>Threads.</b> Any thread, any time: both lists are copy-on-write, read on every request
 * and changed rarely.
 */
public final class AuthenticationStore {

    private final List<Authentication> authentications = new CopyOnWriteArrayList<>();
    private final List<Authentication.Result> results = new CopyOnWriteArrayList<>();

    /** Adds credentials; the first added that matches a challenge answers it. */
    public void addAuthentication(Authentication authentication) {
        authentications.add(Objects.requireNonNull(authentication, "authentication"));
    }

    /** Removes credentials (not the results they gave: see {@link #clearAuthenticationResults}). */
    public void removeAuthentication(Authentication authentication) {
        authentications.remove(authentication);
    }

    /** @return the credentials, in the order added */
    public List<Authentication> getAuthentications() {
        return List.copyOf(authentications);
    }

    /** @return whether any credentials were added */
    public boolean hasAuthentications() {
        return !authentications.isEmpty();
    }

    /** @return the first credentials that answer {@code scheme} and {@code realm} for {@code uri}, or null */
    public Authentication findAuthentication(String scheme, URI uri, String realm) {
        for (Authentication authentication : authentications) {
            if (authentication.matches(scheme, uri, realm)) {
                return authentication;
            }
        }
        return null;
    }

    /**
     * Keeps {@code result} to send preemptively, replacing a result kept for the same URI.
     * The client calls it when a request answered with it was not refused; an application may
     * call it to send credentials from the first request on (see
     * {@link io.wharf.client.auth.BasicAuthentication#preemptive}).
     */
    public void addAuthenticationResult(Authentication.Result result) {
        Objects.requireNonNull(result, "result");
        results.removeIf(kept -> kept.getURI().equals(result.getURI()));
        results.add(result);
    }

    /** Forgets {@code result}: the client calls it when a request sent with it was refused. */
    public void removeAuthenticationResult(Authentication.Result result) {
        results.remove(result);
    }

    /** @return the kept result whose URI prefix covers {@code uri} most closely, or null */
    public Authentication.Result findAuthenticationResult(URI uri) {
        Authentication.Result best = null;
        int bestLength = -1;
        for (Authentication.Result result : results) {
            if (UriPrefix.covers(result.getURI(), uri)) {
                int length = UriPrefix.specificity(result.getURI());
                if (length > bestLength) {
                    best = result;
                    bestLength = length;
                }
            }
        }
        return best;
    }

    /** Forgets every kept result: later requests are sent without credentials until challenged. */
    public void clearAuthenticationResults() {
        results.clear();
    }

    @Override
    public String toString() {
        return "AuthenticationStore[" + authentications.size() + " authentications, " + results.size() + " results]";
    }
}
