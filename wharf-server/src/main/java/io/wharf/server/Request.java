package io.wharf.server;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import io.wharf.http.ComplianceViolation;
import io.wharf.http.CookieCompliance;
import io.wharf.http.CookieParser;
import io.wharf.http.HttpCookie;
import io.wharf.http.HttpFields;
import io.wharf.http.form.FormFields;
import io.wharf.http.form.FormLimits;
import io.wharf.http.form.UrlEncodedParser;
import io.wharf.http.HttpURI;
import io.wharf.io.Content;
import io.wharf.io.ContentInputStream;

/**
 * A request a handler sees: its method, URI, headers, attributes and connection, and its
 * content as a {@link Content.Source} to read (see {@link Content} for the read/demand
 * protocol and chunk ownership).
 *
 * <p><b>Threads.</b> A request is used by one thread at a time: the one running the handler,
 * then whichever thread a demand callback runs on. Its header fields are valid until the
 * handler's callback completes; copy them ({@code getHeaders().asImmutable()}) to keep them
 * longer. {@link Wrapper} lets a handler change what later handlers see.
 *
 * <p><b>Bad content.</b> When the content fails with an {@link io.wharf.http.BadMessageException}
 * — a malformed chunk, or a wrapper's limit — and the handler completes without committing a
 * response of its own (its callback succeeds or fails, or it throws), the server answers
 * that exception's status and reason and closes the connection. A wrapper whose content
 * source fails the content itself (a size limit, inflation) reports the failure with
 * {@link #fail} on the request it wraps, so that the server learns of it.
 */
public interface Request extends Content.Source {

    /** @return an id unique within the connection's life, for logs */
    String getId();

    /** @return the connection it came on */
    ConnectionMetaData getConnectionMetaData();

    /** @return the method token, e.g. {@code "GET"} */
    String getMethod();

    /** @return the URI, complete with scheme and authority */
    HttpURI getHttpURI();

    /** @return the header fields; read-only */
    HttpFields getHeaders();

    /** @return the trailer fields once the content was fully read, or null */
    HttpFields getTrailers();

    /**
     * @return {@link System#nanoTime()} when the read that brought the request line ended
     *     (requests pipelined in one read share it)
     */
    long getBeginNanoTime();

    /** @return {@link System#nanoTime()} when the read that completed the header ended */
    long getHeadersNanoTime();

    /**
     * @return the switch to another protocol that this request asked for and its connection
     *     can make (see {@link ProtocolUpgrade}): an HTTP/1.1 {@code Upgrade}, or an HTTP/2
     *     extended CONNECT's {@code :protocol}; or null
     */
    default ProtocolUpgrade getProtocolUpgrade() {
        return null;
    }

    /**
     * @return how to push resources with this request's response (an HTTP/2 request from a
     *     client that accepts pushes), or null when its connection cannot push
     */
    default Push getPush() {
        return null;
    }

    /** @return whether the request came over TLS (or a customizer says it did) */
    default boolean isSecure() {
        return getConnectionMetaData().isSecure();
    }

    /** @return the attribute named {@code name}, or null */
    Object getAttribute(String name);

    /** Sets an attribute; a null value removes it. @return the previous value */
    Object setAttribute(String name, Object value);

    /** @return the previous value of the removed attribute */
    default Object removeAttribute(String name) {
        return setAttribute(name, null);
    }

    /** @return the attribute names, a snapshot */
    Set<String> getAttributeNames();

    /**
     * The path the handler should act on: the decoded, canonical path of the URI, less the
     * context path when a {@code ContextHandler} is in between. It starts with {@code '/'},
     * but for the two request targets that name no path, where it is {@code ""}:
     * <ul>
     * <li>the authority form of {@code CONNECT host:port} (RFC 9112 section 3.2.3), and an
     *     HTTP/2 CONNECT without {@code :protocol} (RFC 9113 section 8.5), which ask for a
     *     tunnel to {@code host:port};</li>
     * <li>the asterisk form of {@code OPTIONS *} (RFC 9112 section 3.2.4, {@code :path *} over
     *     HTTP/2), which asks about the server as a whole.</li>
     * </ul>
     * Never null. An empty path matches no context, path mapping, resource or WebSocket
     * mapping, so the standard handlers pass such requests on, and the server answers them
     * when no handler took them (405 for CONNECT, 200 with {@code Allow} for {@code OPTIONS *});
     * a handler that wants them tests {@code getPathInContext().isEmpty()} and the method.
     *
     * @return the path in context, or {@code ""} for a target without a path
     */
    default String getPathInContext() {
        HttpURI uri = getHttpURI();
        String path = uri.getPath();
        if (path == null || path.equals("*")) {
            return "";
        }
        String decoded = uri.getDecodedPath();
        return decoded == null ? "" : decoded;
    }

    /** @return the context path of the enclosing context, {@code ""} for the root */
    default String getContextPath() {
        return "";
    }

    /** @return the client's IP address as text, or null when the transport has none */
    static String getRemoteAddress(Request request) {
        SocketAddress address = request.getConnectionMetaData().getRemoteSocketAddress();
        if (address instanceof InetSocketAddress inet) {
            return inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
        }
        return address == null ? null : address.toString();
    }

    /** @return the client's port, or 0 when the transport has none */
    static int getRemotePort(Request request) {
        return request.getConnectionMetaData().getRemoteSocketAddress() instanceof InetSocketAddress inet ? inet.getPort() : 0;
    }

    /** @return a blocking stream over the request's content; never use it on a selector thread */
    static InputStream asInputStream(Request request) {
        return new ContentInputStream(request);
    }

    /**
     * Reads the whole content as text, blocking; for small bodies in BLOCKING handlers.
     *
     * @param maxBytes the most bytes accepted; more fails with an {@link IllegalStateException}
     */
    static String getContentAsString(Request request, Charset charset, int maxBytes) throws java.io.IOException {
        try (InputStream input = asInputStream(request)) {
            byte[] bytes = input.readNBytes(maxBytes + 1);
            if (bytes.length > maxBytes) {
                throw new IllegalStateException("request content is larger than " + maxBytes + " bytes");
            }
            return new String(bytes, charset == null ? StandardCharsets.UTF_8 : charset);
        }
    }

    /**
     * Reads an {@code application/x-www-form-urlencoded} body, blocking, within {@code limits}
     * (a body over the limits fails with a {@link io.wharf.http.BadMessageException} 413 as
     * soon as the limit is passed, without reading the rest). For BLOCKING handlers.
     */
    static FormFields readFormFields(Request request, Charset charset, FormLimits limits) throws java.io.IOException {
        UrlEncodedParser parser = new UrlEncodedParser(charset == null ? StandardCharsets.UTF_8 : charset, limits);
        try (InputStream input = asInputStream(request)) {
            byte[] bytes = new byte[8192];
            int read;
            while ((read = input.read(bytes)) >= 0) {
                parser.parse(java.nio.ByteBuffer.wrap(bytes, 0, read), false);
            }
        }
        parser.parse(java.nio.ByteBuffer.allocate(0), true);
        return parser.getFields();
    }

    /**
     * @return the request's cookies, parsed once in the connection's
     *     {@linkplain HttpConfiguration#getCookieCompliance() cookie compliance mode} (strict
     *     RFC 6265 by default: invalid pairs dropped) and kept as an attribute for later calls
     * @throws io.wharf.http.BadMessageException 400 when the mode does not allow
     *     {@code INVALID_COOKIES} and a pair is invalid (a handler that lets it escape gets 400)
     */
    @SuppressWarnings("unchecked")
    static List<HttpCookie> getCookies(Request request) {
        Object cached = request.getAttribute(COOKIES_ATTRIBUTE);
        if (cached instanceof List<?> list) {
            return (List<HttpCookie>) list;
        }
        CookieCompliance compliance = request.getConnectionMetaData().getHttpConfiguration().getCookieCompliance();
        CookieParser parser = new CookieParser(compliance, ComplianceViolation.Listener.NONE, CookieParser.DEFAULT_MAX_COOKIES);
        List<HttpCookie> cookies = List.copyOf(parser.parse(request.getHeaders()));
        request.setAttribute(COOKIES_ATTRIBUTE, cookies);
        return cookies;
    }

    /** The attribute holding the parsed cookies. */
    String COOKIES_ATTRIBUTE = "io.wharf.server.cookies";

    /** Reads and releases all remaining content without waiting; @return whether the end was reached */
    static boolean consumeAvailable(Request request) {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                return false;
            }
            chunk.release();
            if (chunk.isLast()) {
                return true;
            }
        }
    }

    /** A request that delegates everything; override what should change. */
    class Wrapper implements Request {
        private final Request wrapped;

        public Wrapper(Request wrapped) {
            this.wrapped = wrapped;
        }

        /** @return the request this one wraps */
        public Request getWrapped() {
            return wrapped;
        }

        @Override
        public String getId() {
            return wrapped.getId();
        }

        @Override
        public ConnectionMetaData getConnectionMetaData() {
            return wrapped.getConnectionMetaData();
        }

        @Override
        public Push getPush() {
            return getWrapped().getPush();
        }

        @Override
        public ProtocolUpgrade getProtocolUpgrade() {
            return wrapped.getProtocolUpgrade();
        }

        @Override
        public String getMethod() {
            return wrapped.getMethod();
        }

        @Override
        public HttpURI getHttpURI() {
            return wrapped.getHttpURI();
        }

        @Override
        public HttpFields getHeaders() {
            return wrapped.getHeaders();
        }

        @Override
        public HttpFields getTrailers() {
            return wrapped.getTrailers();
        }

        @Override
        public long getBeginNanoTime() {
            return wrapped.getBeginNanoTime();
        }

        @Override
        public long getHeadersNanoTime() {
            return wrapped.getHeadersNanoTime();
        }

        @Override
        public boolean isSecure() {
            return wrapped.isSecure();
        }

        @Override
        public Object getAttribute(String name) {
            return wrapped.getAttribute(name);
        }

        @Override
        public Object setAttribute(String name, Object value) {
            return wrapped.setAttribute(name, value);
        }

        @Override
        public Set<String> getAttributeNames() {
            return wrapped.getAttributeNames();
        }

        @Override
        public String getPathInContext() {
            return wrapped.getPathInContext();
        }

        @Override
        public String getContextPath() {
            return wrapped.getContextPath();
        }

        @Override
        public Content.Chunk read() {
            return wrapped.read();
        }

        @Override
        public void demand(Runnable onContentAvailable) {
            wrapped.demand(onContentAvailable);
        }

        @Override
        public void fail(Throwable cause) {
            wrapped.fail(cause);
        }

        @Override
        public long getLength() {
            return wrapped.getLength();
        }
    }
}
