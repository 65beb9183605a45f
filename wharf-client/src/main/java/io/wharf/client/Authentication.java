package io.wharf.client;

import java.net.URI;

/**
 * Credentials for one authentication scheme, for the URIs under one prefix and one realm (or
 * any realm), kept in the client's {@link AuthenticationStore}. When a response is 401, the
 * client parses its {@code WWW-Authenticate} challenges, finds an authentication that
 * {@linkplain #matches matches} one, asks it to {@linkplain #authenticate answer}, and sends
 * the request once more with the {@link Result} applied; when that request is not answered
 * 401 again, the result is kept in the store and applied to later requests under its URI
 * before they are sent (preemptively).
 *
 * <p>{@link io.wharf.client.auth.BasicAuthentication} and
 * {@link io.wharf.client.auth.DigestAuthentication} come with the client, in
 * {@code io.wharf.client.auth}; an application adds another scheme by implementing this
 * interface (extending {@link io.wharf.client.auth.AbstractAuthentication} gives the matching).
 * This interface, its {@link AuthenticationStore} and {@link Challenge} are part of the
 * client's core, which holds them; the schemes sit in {@code io.wharf.client.auth} on top of it.
 *
 * <p><b>Threads.</b> {@link #matches} and {@link #authenticate} are called on the thread that
 * read the 401, often a selector thread: they must not block. {@link Result#apply} is called
 * on the thread that sends a request, possibly several at once for one result.
 */
public interface Authentication {

    /**
     * @param scheme the challenge's scheme, e.g. {@code Basic} (compare it ignoring case)
     * @param uri the URI of the request that was challenged
     * @param realm the challenge's realm, or null when it has none
     * @return whether this authentication answers that challenge
     */
    boolean matches(String scheme, URI uri, String realm);

    /**
     * Answers a challenge.
     *
     * @param request the request that was answered 401
     * @param response the 401 response (its head; the content is not read yet)
     * @param challenge the challenge to answer, one that {@link #matches} accepted
     * @return what to apply to the request sent again, or null when this challenge cannot be
     *     answered (an algorithm or option the scheme does not support)
     */
    Result authenticate(Request request, Response response, Challenge challenge);

    /**
     * An answer to a challenge: applied to the request sent again, then kept in the store and
     * applied to later requests under {@link #getURI()}. Must be safe to apply from several
     * threads at once.
     */
    interface Result {

        /** @return the URI prefix the result may be sent to preemptively */
        URI getURI();

        /** Adds the credentials to {@code request} (its {@code Authorization} field). */
        void apply(Request request);
    }
}
