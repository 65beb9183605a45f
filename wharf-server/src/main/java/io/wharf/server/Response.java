package io.wharf.server;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import io.wharf.http.HttpCookie;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;
import io.wharf.io.ContentOutputStream;
import io.wharf.util.Callback;

/**
 * A response a handler writes: a status, header fields, content written to this
 * {@link io.wharf.io.Content.Sink}, and optional trailers. The first write commits the
 * status and headers; after that they cannot change. A write with {@code last} ends the
 * content; completing the handler's callback ends it too if the handler did not.
 *
 * <p><b>Threads.</b> One write at a time, from any thread; a second write before the first
 * completed fails its callback with a {@link java.nio.channels.WritePendingException}. The
 * buffer passed to a write belongs to the caller again once the write's callback completes.
 */
public interface Response extends io.wharf.io.Content.Sink {

    /** @return the request this response answers */
    Request getRequest();

    /** @return the status, 200 unless set */
    int getStatus();

    /** Sets the status; ignored once committed. */
    void setStatus(int status);

    /** @return the header fields, mutable until committed */
    HttpFields.Mutable getHeaders();

    /** @return the supplier of trailer fields, or null */
    Supplier<HttpFields> getTrailersSupplier();

    /** Sets the supplier asked for trailers after the last content (chunked HTTP/1.1 or HTTP/2). */
    void setTrailersSupplier(Supplier<HttpFields> trailers);

    /** @return whether the status and headers were written */
    boolean isCommitted();

    /** Clears the status and headers; fails with {@link IllegalStateException} once committed. */
    void reset();

    /**
     * Writes an interim 1xx response (100 Continue, 103 Early Hints) before the final one.
     *
     * @throws IllegalArgumentException when {@code status} is not 1xx (101 excluded)
     */
    void writeInterim(int status, HttpFields headers, Callback callback);

    /** Writes {@code text} as UTF-8 with {@code last}; sets no Content-Type. */
    static void write(Response response, boolean last, String text, Callback callback) {
        response.write(last, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
    }

    /** @return a blocking stream over the response content; never use it on a selector thread */
    static OutputStream asOutputStream(Response response) {
        return new ContentOutputStream(response);
    }

    /**
     * Answers with an error page made by the server's error handler (HTML, JSON or text by
     * the request's Accept), unless the response is committed, in which case the callback
     * fails so the connection is aborted.
     */
    static void writeError(Request request, Response response, Callback callback, int status, String message) {
        writeError(request, response, callback, status, message, null);
    }

    /** As {@link #writeError(Request, Response, Callback, int, String)}, with the cause. */
    static void writeError(Request request, Response response, Callback callback, int status, String message, Throwable cause) {
        if (response.isCommitted()) {
            callback.failed(cause != null ? cause : new IllegalStateException("committed before error " + status + ": " + message));
            return;
        }
        response.reset();
        response.setStatus(status);
        Server server = request.getConnectionMetaData().getConnector().getServer();
        server.getErrorHandler().writeError(request, response, callback, status, message, cause);
    }

    /**
     * Redirects with {@code status} (a 3xx) to {@code location}, which is sent as given
     * (relative references are legal, RFC 9110 section 10.2.2). Headers set before, such as
     * {@code Set-Cookie}, go with the redirect; those that describe content ({@code Content-Type},
     * {@code Content-Length}, {@code Content-Encoding}) are removed because a redirect sends none.
     * When the response is already committed the callback fails and nothing is written.
     */
    static void sendRedirect(Request request, Response response, Callback callback, int status, String location) {
        if (!HttpStatus.isRedirection(status)) {
            throw new IllegalArgumentException("not a redirection status: " + status);
        }
        if (response.isCommitted()) {
            callback.failed(new IllegalStateException("committed before redirect " + status + " to " + location));
            return;
        }
        HttpFields.Mutable headers = response.getHeaders();
        headers.remove(HttpHeader.CONTENT_TYPE);
        headers.remove(HttpHeader.CONTENT_LENGTH);
        headers.remove(HttpHeader.CONTENT_ENCODING);
        response.setStatus(status);
        headers.put(HttpHeader.LOCATION, location);
        response.write(true, null, callback);
    }

    /**
     * Adds a {@code Set-Cookie} field for {@code cookie} (RFC 6265 section 4.1), with its
     * {@code Domain}, {@code Path}, {@code Expires}, {@code Max-Age}, {@code Secure},
     * {@code HttpOnly}, {@code SameSite} and {@code Partitioned} as {@link
     * HttpCookie#asSetCookieValue()} writes them. Another cookie of the same name, domain and
     * path already in the response stays: browsers keep the last; use
     * {@link #replaceCookie} to send only the new one.
     *
     * @throws NullPointerException when {@code cookie} is null
     * @throws IllegalArgumentException naming the first illegal character, when the cookie
     *     was read from a request in a legacy mode and holds what no {@code Set-Cookie} may
     *     carry (cookies made with {@link HttpCookie#build} are checked as they are built)
     * @throws IllegalStateException when the response is committed
     */
    static void addCookie(Response response, HttpCookie cookie) {
        String value = setCookieValue(response, cookie);
        response.getHeaders().add(HttpHeader.SET_COOKIE, value);
    }

    /**
     * As {@link #addCookie}, after removing every {@code Set-Cookie} field of the response that
     * sets the same cookie (same name, domain and path; see {@link HttpCookie#isSameCookieAs}),
     * whether added with {@link #addCookie} or written as text.
     */
    static void replaceCookie(Response response, HttpCookie cookie) {
        String value = setCookieValue(response, cookie);
        HttpFields.Mutable headers = response.getHeaders();
        for (int index = headers.size() - 1; index >= 0; index--) {
            HttpField field = headers.getField(index);
            if (field.getHeader() == HttpHeader.SET_COOKIE && cookie.isSameCookieAs(field.getValue())) {
                headers.remove(index);
            }
        }
        headers.add(HttpHeader.SET_COOKIE, value);
    }

    /**
     * Tells the browser to drop a cookie: replaces it (see {@link #replaceCookie}) with an empty
     * value, {@code Max-Age=0} and an {@code Expires} in 1970. Its {@code Secure},
     * {@code HttpOnly}, {@code SameSite} and {@code Partitioned} are kept: a partitioned cookie
     * is only reached by a partitioned {@code Set-Cookie}, and a secure one only by a secure one.
     *
     * @param cookie the cookie as it was set: its name, domain and path say which one to drop
     */
    static void deleteCookie(Response response, HttpCookie cookie) {
        HttpCookie.Builder expired = HttpCookie.build(cookie.getName(), "").domain(cookie.getDomain()).path(cookie.getPath())
                .maxAge(0).secure(cookie.isSecure()).httpOnly(cookie.isHttpOnly()).sameSite(cookie.getSameSite())
                .partitioned(cookie.isPartitioned());
        replaceCookie(response, expired.build());
    }

    /**
     * Tells the browser to drop the cookie {@code name} set for {@code path} and {@code domain}
     * (either null when it was set without one), as {@link #deleteCookie(Response, HttpCookie)}.
     * A name with the {@code __Secure-} or {@code __Host-} prefix is deleted with {@code Secure},
     * without which browsers ignore it (RFC 6265bis section 4.1.3).
     *
     * @throws IllegalArgumentException naming the problem, for a name that is no token or a
     *     path or domain with an illegal character
     */
    static void deleteCookie(Response response, String name, String path, String domain) {
        boolean prefixed = name != null && (name.startsWith("__Secure-") || name.startsWith("__Host-"));
        deleteCookie(response, HttpCookie.build(name, "").path(path).domain(domain).secure(prefixed).build());
    }

    /** @return the {@code Set-Cookie} value of {@code cookie}, once it is sure the response may still carry it */
    private static String setCookieValue(Response response, HttpCookie cookie) {
        java.util.Objects.requireNonNull(cookie, "cookie");
        if (response.isCommitted()) {
            throw new IllegalStateException("the response is committed: too late to set cookie \"" + cookie.getName() + "\"");
        }
        return cookie.asSetCookieValue();
    }

    /** A response that delegates everything; override what should change. */
    class Wrapper implements Response {
        private final Request request;
        private final Response wrapped;

        public Wrapper(Request request, Response wrapped) {
            this.request = request;
            this.wrapped = wrapped;
        }

        /** @return the response this one wraps */
        public Response getWrapped() {
            return wrapped;
        }

        @Override
        public Request getRequest() {
            return request;
        }

        @Override
        public int getStatus() {
            return wrapped.getStatus();
        }

        @Override
        public void setStatus(int status) {
            wrapped.setStatus(status);
        }

        @Override
        public HttpFields.Mutable getHeaders() {
            return wrapped.getHeaders();
        }

        @Override
        public Supplier<HttpFields> getTrailersSupplier() {
            return wrapped.getTrailersSupplier();
        }

        @Override
        public void setTrailersSupplier(Supplier<HttpFields> trailers) {
            wrapped.setTrailersSupplier(trailers);
        }

        @Override
        public boolean isCommitted() {
            return wrapped.isCommitted();
        }

        @Override
        public void reset() {
            wrapped.reset();
        }

        @Override
        public void writeInterim(int status, HttpFields headers, Callback callback) {
            wrapped.writeInterim(status, headers, callback);
        }

        @Override
        public void write(boolean last, ByteBuffer buffer, Callback callback) {
            wrapped.write(last, buffer, callback);
        }
    }
}
