package io.wharf.server.http2.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import io.wharf.http.BadMessageException;
import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpURI;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.session.Http2Stream;
import io.wharf.http2.session.Http2StreamEndPoint;
import io.wharf.io.Connection;
import io.wharf.io.Content;
import io.wharf.server.ConnectionMetaData;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Push;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * One request on an HTTP/2 stream as the Handler API sees it: the {@link Request} (its content
 * read straight from the {@link Http2Stream}, whose window is credited back as the handler
 * reads), its {@link Http2Response}, and the callback handed to the handler, whose completion
 * ends the stream.
 *
 * <p><b>Threads.</b> Made on the connection's reading thread; handled there when the handler
 * tree is NON_BLOCKING, else on the executor; its content is read by one thread at a time.
 * <b>Buffers.</b> Content chunks are slices of network buffers, owned by whoever reads them.
 */
final class Http2Exchange implements Request, Http2Stream.Listener {

    private static final java.lang.invoke.VarHandle COMPLETED;

    static {
        try {
            COMPLETED = java.lang.invoke.MethodHandles.lookup().findVarHandle(Completion.class, "completed", boolean.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final Http2ServerConnection connection;
    private final Http2Stream stream;
    private final RequestHead head;
    private final long beginNanos = System.nanoTime();
    private final Http2Response response;
    private final Completion completion = new Completion();
    private final boolean headRequest;
    private HttpURI uri;
    private Map<String, Object> attributes;
    private volatile HttpFields trailers;
    private volatile boolean expectsContinue;
    /** The switch an extended CONNECT offers (RFC 8441), made when a handler first asks; null otherwise. */
    private Http2Upgrade upgrade;

    Http2Exchange(Http2ServerConnection connection, Http2Stream stream, RequestHead head, boolean endStream) {
        this.connection = connection;
        this.stream = stream;
        this.head = head;
        this.headRequest = HttpMethod.HEAD.is(head.method());
        this.response = new Http2Response(this, stream);
        this.expectsContinue = !endStream && head.fields().contains(HttpHeader.EXPECT, HttpHeaderValue.CONTINUE.asString());
        stream.setListener(this);
    }

    Http2ServerConnection connection() {
        return connection;
    }

    /** @return pushes for a request the client opened (never a pushed one) while its session accepts them */
    @Override
    public Push getPush() {
        if ((stream.getId() & 1) == 0 || !connection.getSession().isPushEnabled()) {
            return null;
        }
        return this::push;
    }

    /** Promises a GET of {@code pathQuery} on this stream and answers it on the promised stream. */
    private boolean push(String pathQuery, HttpFields headers) {
        if (pathQuery == null || !pathQuery.startsWith("/")) {
            throw new IllegalArgumentException("not an absolute path: " + pathQuery);
        }
        String authority = head.authority() != null ? head.authority() : head.fields().get(HttpHeader.HOST);
        HttpFields.Mutable promise = HttpFields.build(headers.size() + 4);
        promise.add(":method", "GET");
        promise.add(":scheme", head.scheme());
        if (authority != null) {
            promise.add(":authority", authority);
        }
        promise.add(":path", pathQuery);
        HttpFields.Mutable fields = HttpFields.build(headers.size() + 1);
        for (HttpField field : headers) {
            promise.add(field);
            fields.add(field);
        }
        Http2Stream promised = stream.push(promise);
        if (promised == null) {
            return false;
        }
        if (authority != null && !fields.contains(HttpHeader.HOST)) {
            fields.add(HttpHeader.HOST, authority);
        }
        connection.handle(promised, new RequestHead("GET", head.scheme(), authority, pathQuery, fields.asImmutable(), -1), true);
        return true;
    }

    boolean isHead() {
        return headRequest;
    }

    /** Builds the URI, applies the customizers and runs the handler tree. */
    void handle() {
        Request request = this;
        try {
            uri = buildUri();
            for (HttpConfiguration.Customizer customizer : connection.configuration().getCustomizers()) {
                request = customizer.customize(request, response.getHeaders());
            }
        } catch (BadMessageException x) {
            Response.writeError(this, response, completion, x.getStatus(), x.getReason());
            return;
        } catch (Throwable x) {
            Response.writeError(this, response, completion, HttpStatus.INTERNAL_SERVER_ERROR_500, null, x);
            return;
        }
        connection.getConnector().getServer().handle(request, response, completion);
    }

    private HttpURI buildUri() {
        HttpURI built;
        if (HttpMethod.CONNECT.is(head.method()) && head.protocol() == null) {
            built = HttpURI.parseAuthority(head.authority());
        } else {
            String authorityText = head.authority() != null ? head.authority() : head.fields().get(HttpHeader.HOST);
            HostPort authority = null;
            if (authorityText != null && !authorityText.isEmpty()) {
                try {
                    authority = connection.authorityOf(authorityText);
                } catch (IllegalArgumentException x) {
                    throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "Bad :authority: " + x.getMessage());
                }
            }
            if (authority == null && connection.getLocalSocketAddress() instanceof java.net.InetSocketAddress local) {
                authority = HostPort.of(local.getHostString(), local.getPort());
            }
            HttpURI parsed = authority != null ? HttpURI.parse(head.path(), head.scheme(), authority) : HttpURI.parse(head.path());
            boolean complete = parsed.isAbsolute() || "*".equals(parsed.getPath());
            built = complete ? parsed : HttpURI.build(parsed).scheme(head.scheme()).asImmutable();
        }
        connection.configuration().getUriCompliance().check(built, io.wharf.http.ComplianceViolation.Listener.NONE);
        return built;
    }

    // ---- Http2Stream.Listener, on the reading thread ----

    @Override
    public void onTrailers(Http2Stream stream, HeaderBlock block) {
        trailers = block.fields().asImmutable();
    }

    // ---- Content.Source ----

    @Override
    public Content.Chunk read() {
        Content.Chunk chunk = stream.read();
        if (chunk == null) {
            sendContinueIfExpected();
        }
        return chunk;
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        sendContinueIfExpected();
        stream.demand(onContentAvailable);
    }

    @Override
    public void fail(Throwable cause) {
        stream.fail(cause);
    }

    @Override
    public long getLength() {
        return head.contentLength();
    }

    private void sendContinueIfExpected() {
        if (expectsContinue) {
            expectsContinue = false;
            if (!response.isCommitted()) {
                response.writeInterim(HttpStatus.CONTINUE_100, HttpFields.EMPTY, Callback.NOOP);
            }
        }
    }

    // ---- Request ----

    /**
     * @return for an extended CONNECT (RFC 8441), the switch to its {@code :protocol}: accepted,
     *     the server answers {@code 200} and the stream becomes the new protocol's endpoint; else null
     */
    @Override
    public io.wharf.server.ProtocolUpgrade getProtocolUpgrade() {
        if (upgrade == null && head.protocol() != null) {
            upgrade = new Http2Upgrade(response, head.protocol());
        }
        return upgrade;
    }

    /** @return whether a handler accepted the switch of an extended CONNECT */
    boolean isUpgradeAccepted() {
        Http2Upgrade accepted = upgrade;
        return accepted != null && accepted.isAccepted();
    }

    /**
     * The handler accepted the switch and succeeded: {@code 200} with its fields, then the stream
     * is the endpoint of the connection the handler's factory makes. Content the client sent
     * already waits on the stream for that connection to read.
     */
    private void switchProtocols(Callback failed) {
        for (HttpField field : upgrade.fields()) {
            response.getHeaders().add(field);
        }
        response.setStatus(HttpStatus.OK_200);
        response.writeTunnelHead(Callback.from(InvocationType.NON_BLOCKING, this::openTunnel, failed::failed));
    }

    private void openTunnel() {
        Http2StreamEndPoint endPoint = new Http2StreamEndPoint(stream);
        endPoint.setIdleTimeout(connection.getEndPoint().getIdleTimeout());
        Connection next;
        try {
            next = upgrade.newConnection(endPoint);
        } catch (Throwable x) {
            endPoint.close(x);
            return;
        }
        endPoint.setConnection(next);
        endPoint.onOpen();
        next.onOpen();
        connection.tunnelOpened(endPoint);
    }

    @Override
    public String getId() {
        return connection.getId() + "-" + stream.getId();
    }

    @Override
    public ConnectionMetaData getConnectionMetaData() {
        return connection;
    }

    @Override
    public String getMethod() {
        return head.method();
    }

    @Override
    public HttpURI getHttpURI() {
        return uri;
    }

    @Override
    public HttpFields getHeaders() {
        return head.fields();
    }

    @Override
    public HttpFields getTrailers() {
        return trailers;
    }

    @Override
    public long getBeginNanoTime() {
        return beginNanos;
    }

    @Override
    public long getHeadersNanoTime() {
        return beginNanos;
    }

    @Override
    public Object getAttribute(String name) {
        return attributes == null ? null : attributes.get(name);
    }

    @Override
    public Object setAttribute(String name, Object value) {
        if (value == null) {
            return attributes == null ? null : attributes.remove(name);
        }
        if (attributes == null) {
            attributes = new HashMap<>();
        }
        return attributes.put(name, value);
    }

    @Override
    public Set<String> getAttributeNames() {
        return attributes == null ? Set.of() : Set.copyOf(attributes.keySet());
    }

    @Override
    public String toString() {
        return head.method() + " " + head.path() + " HTTP/2.0@" + getId();
    }

    /**
     * The callback a handler completes. Success ends the response if the handler did not; then
     * content nobody will read is dropped, and a client still sending much of it is told to stop
     * with NO_ERROR (RFC 9113 section 8.1). Failure answers 500 (or the bad request's status) while
     * the response is not committed, else resets the stream.
     */
    private final class Completion implements Callback {
        /** Set once by the first completion, through {@code COMPLETED}. */
        @SuppressWarnings("unused")
        private volatile boolean completed;

        @Override
        public void succeeded() {
            if (!COMPLETED.compareAndSet(this, false, true)) {
                return;
            }
            if (isUpgradeAccepted()) {
                switchProtocols(Callback.from(InvocationType.NON_BLOCKING, () -> { }, this::abort));
                return;
            }
            if (response.isComplete()) {
                finish();
                return;
            }
            response.write(true, null, Callback.from(InvocationType.NON_BLOCKING, this::finish, this::abort));
        }

        @Override
        public void failed(Throwable cause) {
            if (!COMPLETED.compareAndSet(this, false, true)) {
                return;
            }
            if (upgrade != null) {
                upgrade.lapse();
            }
            if (response.isCommitted()) {
                abort(cause);
                return;
            }
            BadMessageException bad = BadMessageException.find(cause);
            int status = bad != null ? bad.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR_500;
            Response.writeError(Http2Exchange.this, response, Callback.from(InvocationType.NON_BLOCKING, this::finish, this::abort),
                    status, bad != null ? bad.getReason() : null, cause);
        }

        /**
         * The response is complete: content nobody read is dropped (and credited back). The rest
         * of a request still coming is read and dropped too, its errors still caught, unless it
         * goes on past a bound: then the session tells the client to stop with NO_ERROR.
         */
        private void finish() {
            if (!stream.isContentConsumed()) {
                stream.fail(new ExchangeCompleteException(Http2Exchange.this));
            }
        }

        private void abort(Throwable cause) {
            stream.reset(ErrorCode.INTERNAL_ERROR);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }

    /**
     * What a read of the request content finds after the exchange completed. Made only when
     * content was still unread or still coming, so it has no stack trace (which
     * would only show the completing thread) and makes its message when asked: filling a stack
     * trace here was over half the bytes allocated per request and a good part of the CPU.
     */
    static final class ExchangeCompleteException extends java.io.IOException {
        private final transient Http2Exchange exchange;

        ExchangeCompleteException(Http2Exchange exchange) {
            this.exchange = exchange;
        }

        @Override
        public String getMessage() {
            return "the exchange of " + exchange + " is complete";
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
