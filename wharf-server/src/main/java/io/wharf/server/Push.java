package io.wharf.server;

import io.wharf.http.HttpFields;

/**
 * Server push (RFC 9113 section 8.4) for one request: promises a resource the client will need
 * with this request's response, and answers it at once through the server's handlers, as if
 * the client had asked for it. Only HTTP/2 connections whose client accepts pushes have it (see
 * {@link Request#getPush()}); current browsers do not, and get 103 Early Hints instead
 * (see {@code io.wharf.server.handler.push.PushHandler}).
 *
 * <p><b>Threads.</b> Any thread, before the response that refers to the resource is complete;
 * best before its first write, so the promise reaches the client before the content naming it.
 */
@FunctionalInterface
public interface Push {

    /**
     * Promises a GET of {@code pathQuery} on this request's origin.
     *
     * @param pathQuery the absolute path and query of the resource, e.g. {@code /site.css}
     * @param headers the request fields of the pushed request (for example the original
     *     request's {@code user-agent}, {@code accept-encoding}, {@code cookie}); names lower case
     * @return false when nothing was promised: the client disabled push, the connection is
     *     closing, or as many pushes are under way as the client allows
     */
    boolean push(String pathQuery, HttpFields headers);
}
