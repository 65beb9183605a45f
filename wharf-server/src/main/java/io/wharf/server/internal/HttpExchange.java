package io.wharf.server.internal;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import io.wharf.http.BadMessageException;
import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpURI;
import io.wharf.http.HttpVersion;
import io.wharf.http.UriCompliance;
import io.wharf.io.Content;
import io.wharf.io.EofException;
import io.wharf.server.ConnectionMetaData;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * One request and its response on an {@link HttpConnection}: the {@link Request} handlers
 * see (its content source reads through the connection's parser), the {@link ServerResponse}
 * and the callback handed to the handler, whose completion ends the exchange.
 *
 * <p><b>Threads.</b> Made and handled on the connection's loop thread; afterwards its content
 * is read by one thread at a time (the handler's, then a demand callback's). Content chunks
 * are slices of the connection's network buffer, each holding a reference to it.
 */
final class HttpExchange implements Request {

    private static final java.lang.invoke.VarHandle COMPLETED;

    static {
        try {
            COMPLETED = java.lang.invoke.MethodHandles.lookup().findVarHandle(Completion.class, "completed", boolean.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final HttpConnection connection;
    private final long number;
    private String id;
    private final String method;
    private final String target;
    private final HttpVersion version;
    private final HttpFields fields;
    private final long beginNanos;
    private final long headersNanos;
    private final ServerResponse response;
    private final Completion completion = new Completion();
    private final boolean head;
    /** The content's length from the head: -1 when chunked. */
    private final long length;
    private HttpURI uri;
    /** The switch of protocols this request asked for, made when a handler first asks; see {@link #getProtocolUpgrade()}. */
    private HttpUpgrade upgrade;
    private boolean upgradeChecked;
    private Map<String, Object> attributes;
    private HttpFields.Mutable trailers;
    private Content.Chunk pending;
    /** Set on the parsing thread, by a wrapper's fail() or by a timeout: read by the completing thread too. */
    private volatile Throwable failure;
    private boolean contentComplete;
    private boolean expectsContinue;
    private boolean persistent;

    HttpExchange(HttpConnection connection, long number, String method, String target, HttpVersion version,
                 HttpFields fields, long length, long beginNanos, long headersNanos) {
        this.connection = connection;
        this.number = number;
        this.method = method;
        this.target = target;
        this.version = version;
        this.fields = fields;
        this.beginNanos = beginNanos;
        this.headersNanos = headersNanos;
        this.head = HttpMethod.HEAD.is(method);
        this.length = length;
        this.persistent = persistentByRequest(version, fields);
        this.expectsContinue = version == HttpVersion.HTTP_1_1 && length != 0
                && fields.contains(HttpHeader.EXPECT, HttpHeaderValue.CONTINUE.asString());
        this.response = new ServerResponse(this, connection);
    }

    private static boolean persistentByRequest(HttpVersion version, HttpFields fields) {
        if (version == HttpVersion.HTTP_1_1) {
            return !fields.contains(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        return version == HttpVersion.HTTP_1_0 && fields.contains(HttpHeader.CONNECTION, HttpHeaderValue.KEEP_ALIVE.asString());
    }

    /** Builds the URI, applies customizers and runs the handler tree; on the loop thread. */
    void handle() {
        Request request = this;
        try {
            uri = buildUri();
            java.util.function.Function<io.wharf.io.EndPoint, io.wharf.io.Connection> h2c =
                    io.wharf.server.http2.internal.H2cUpgrade.of(connection.getConnector(), method, target, version, fields, length);
            if (h2c != null && getProtocolUpgrade() != null) {
                // Upgrade: h2c (RFC 7540 section 3.2): 101, then this request is answered on stream 1 over HTTP/2.
                getProtocolUpgrade().accept("h2c", HttpFields.EMPTY, h2c);
                completion.succeeded();
                return;
            }
            if (hasUnknownExpectation()) {
                persistent = false;
                Response.writeError(this, response, completion, HttpStatus.EXPECTATION_FAILED_417, "only the 100-continue expectation is supported");
                return;
            }
            for (HttpConfiguration.Customizer customizer : connection.configuration().getCustomizers()) {
                request = customizer.customize(request, response.getHeaders());
            }
        } catch (BadMessageException x) {
            persistent = false;
            Response.writeError(this, response, completion, x.getStatus(), x.getReason());
            return;
        } catch (Throwable x) {
            persistent = false;
            Response.writeError(this, response, completion, HttpStatus.INTERNAL_SERVER_ERROR_500, null, x);
            return;
        }
        connection.getConnector().getServer().handle(request, response, completion);
    }

    /**
     * @return whether the request expects something other than {@code 100-continue}, which
     *     RFC 9110 section 10.1.1 lets a server answer with 417 (an HTTP/1.0 client's
     *     100-continue is ignored, as that section requires)
     */
    private boolean hasUnknownExpectation() {
        if (!fields.contains(HttpHeader.EXPECT)) {
            return false;
        }
        for (String expectation : fields.getCommaSeparated(HttpHeader.EXPECT)) {
            if (!expectation.equalsIgnoreCase(HttpHeaderValue.CONTINUE.asString())) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return the request's URI: its target with the Host field's authority (or the local
     *     address) and the connection's scheme, checked by the URI compliance mode; the same
     *     URI as the last request's when made from the same inputs ({@link UriMemory})
     * @throws BadMessageException for a bad Host field, a URI the compliance mode refuses, or
     *     the asterisk form on another method than OPTIONS
     */
    private HttpURI buildUri() {
        UriCompliance compliance = connection.configuration().getUriCompliance();
        if (HttpMethod.CONNECT.is(method)) {
            return checked(HttpURI.parseAuthority(target), compliance);
        }
        if (target.equals("*") && !HttpMethod.OPTIONS.is(method)) {
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "asterisk-form target * on " + method
                    + ", not OPTIONS (RFC 9112 section 3.2.4)");
        }
        HttpField hostField = fields.getField(HttpHeader.HOST);
        HostPort authority = hostField == null || hostField.getValue().isEmpty() ? null : connection.hostPortOf(hostField);
        if (authority == null && connection.getLocalSocketAddress() instanceof java.net.InetSocketAddress local) {
            authority = HostPort.of(local.getHostString(), local.getPort());
        }
        boolean secure = isSecure();
        UriMemory memory = connection.uriMemory();
        HttpURI remembered = memory.get(target, authority, secure, compliance);
        if (remembered != null) {
            return remembered;
        }
        String scheme = secure ? "https" : "http";
        HttpURI parsed = authority != null ? HttpURI.parse(target, scheme, authority) : HttpURI.parse(target);
        boolean complete = parsed.isAbsolute() || "*".equals(parsed.getPath());
        HttpURI built = checked(complete ? parsed : HttpURI.build(parsed).scheme(scheme).asImmutable(), compliance);
        memory.put(target, authority, secure, compliance, built);
        return built;
    }

    private static HttpURI checked(HttpURI uri, UriCompliance compliance) {
        compliance.check(uri, io.wharf.http.ComplianceViolation.Listener.NONE);
        return uri;
    }

    // ---- parser events, on the thread that parses ----

    boolean onContent(ByteBuffer content) {
        RetainableByteBuffer network = connection.network();
        network.retain();
        pending = Content.Chunk.from(content, false, network);
        return true;
    }

    void onTrailer(HttpField field) {
        if (trailers == null) {
            trailers = HttpFields.build(4);
        }
        trailers.add(field);
    }

    void onMessageComplete() {
        contentComplete = true;
    }

    void onBadContent(BadMessageException cause) {
        persistent = false;
        failure = cause;
    }

    void onEarlyEOF() {
        persistent = false;
        failure = new EofException("early EOF: the client closed before the request content was complete");
    }

    boolean onIdleTimeout(TimeoutException timeout) {
        if (failure == null && !contentComplete) {
            failure = timeout;
        }
        persistent = false;
        return true;
    }

    void onConnectionClosed(Throwable cause) {
        if (failure == null && !contentComplete) {
            failure = cause != null ? cause : new EofException("connection closed");
        }
        persistent = false;
    }

    // ---- Content.Source ----

    @Override
    public Content.Chunk read() {
        Content.Chunk ready = takeReady();
        if (ready != null) {
            return ready;
        }
        if (!connection.isCurrent(this)) {
            // The parser now reads the next request (or another protocol): never hand its bytes out here.
            return Content.Chunk.from(new IllegalStateException("request content read after its exchange ended: " + this));
        }
        try {
            while (true) {
                RetainableByteBuffer network = connection.network();
                ByteBuffer buffer = network != null ? network.byteBuffer() : ByteBuffers.EMPTY;
                boolean hadBytes = buffer.hasRemaining();
                connection.parser().parseNext(buffer);
                ready = takeReady();
                if (ready != null) {
                    return ready;
                }
                if (hadBytes) {
                    continue;
                }
                sendContinueIfExpected();
                int filled = connection.fill();
                if (filled == 0) {
                    connection.releaseNetworkIfUnused();
                    return null;
                }
                if (filled > 0) {
                    connection.guard().contentBytes(filled);
                }
                if (filled < 0) {
                    connection.parser().atEOF();
                    connection.parser().parseNext(connection.network().byteBuffer());
                    if (failure == null && !contentComplete) {
                        onEarlyEOF();
                    }
                }
            }
        } catch (Throwable x) {
            failure = x;
            persistent = false;
            return Content.Chunk.from(x);
        }
    }

    /** @return the chunk parsed but not yet read, the failure, the end, or null when none is ready */
    private Content.Chunk takeReady() {
        if (pending != null) {
            Content.Chunk chunk = pending;
            pending = null;
            return chunk;
        }
        if (failure != null) {
            return Content.Chunk.from(failure);
        }
        return contentComplete ? Content.Chunk.EOF : null;
    }

    /**
     * Reads and drops the rest of the content that is already here, so the parser reaches the
     * end of the message; @return whether it did (else the connection cannot be reused).
     */
    boolean skipRemainingContent() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
        return Request.consumeAvailable(this) && failure == null;
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        RetainableByteBuffer network = connection.network();
        boolean ready = pending != null || failure != null || contentComplete
                || network != null && network.byteBuffer().hasRemaining();
        if (ready) {
            onContentAvailable.run();
            return;
        }
        sendContinueIfExpected();
        InvocationType type = io.wharf.util.Invocable.typeOf(onContentAvailable);
        connection.getEndPoint().fillInterested(Callback.from(type, onContentAvailable, cause -> {
            if (failure == null) {
                failure = cause;
            }
            persistent = false;
            onContentAvailable.run();
        }));
    }

    @Override
    public void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        persistent = false;
    }

    @Override
    public long getLength() {
        return length;
    }

    private void sendContinueIfExpected() {
        if (expectsContinue) {
            expectsContinue = false;
            if (!response.isCommitted()) {
                response.writeContinue();
            }
        }
    }

    /** Makes the connection close once this exchange's response is written. */
    void closeAfterResponse() {
        persistent = false;
    }

    /** @return whether the connection may carry another request after this one */
    boolean isPersistent() {
        return persistent && connection.generator().isPersistent();
    }

    /** @return whether the request was persistent by its version and Connection field, so far */
    boolean wantsPersistence() {
        return persistent;
    }

    boolean isHead() {
        return head;
    }

    /** Before the last write: a request whose content is not all read cannot be followed by another. */
    void beforeLastWrite() {
        if (!skipRemainingContent()) {
            persistent = false;
        }
        if (connection.isShutdown()) {
            persistent = false;
        }
    }

    // ---- Request ----

    @Override
    public io.wharf.server.ProtocolUpgrade getProtocolUpgrade() {
        if (!upgradeChecked) {
            upgradeChecked = true;
            upgrade = HttpUpgrade.offeredBy(version, fields, response);
        }
        return upgrade;
    }

    /** @return the switch a handler accepted and that is still on, or null */
    HttpUpgrade acceptedUpgrade() {
        HttpUpgrade accepted = upgrade;
        return accepted != null && accepted.isAccepted() ? accepted : null;
    }

    /** @return the connection's id and this request's number on it; made on first use, as few handlers ask */
    @Override
    public String getId() {
        String made = id;
        if (made == null) {
            made = connection.getId() + "-" + number;
            id = made;
        }
        return made;
    }

    @Override
    public ConnectionMetaData getConnectionMetaData() {
        return connection;
    }

    @Override
    public String getMethod() {
        return method;
    }

    @Override
    public HttpURI getHttpURI() {
        return uri;
    }

    @Override
    public HttpFields getHeaders() {
        return fields;
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
        return headersNanos;
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
        return method + " " + target + " " + version + "@" + getId();
    }

    /** @return the bad-request failure the content ended with (from the parser or a wrapper's {@link #fail}), or null */
    private BadMessageException contentFailure() {
        return failure instanceof BadMessageException bad ? bad : null;
    }

    /**
     * The callback a handler completes; ends the exchange once the response is complete.
     *
     * <p>One rule for every handler and wrapper: when the request content failed with a
     * {@link BadMessageException} (a bad chunk, or a wrapper's limit such as 413 reported
     * through {@link Request#fail}) and the handler did not commit a response of its own, the
     * answer is that status — whether the handler succeeds, fails or throws.
     */
    private final class Completion implements Callback {
        private volatile boolean completed;

        @Override
        public void succeeded() {
            if (!COMPLETED.compareAndSet(this, false, true)) {
                return;
            }
            BadMessageException bad = contentFailure();
            if (bad != null && !response.isCommitted()) {
                if (upgrade != null) {
                    upgrade.lapse();
                }
                answerError(bad, bad);
                return;
            }
            HttpUpgrade accepted = acceptedUpgrade();
            if (accepted != null) {
                response.writeSwitchingProtocols(accepted, connection.exchangeDone());
                return;
            }
            response.complete(connection.exchangeDone());
        }

        @Override
        public void failed(Throwable cause) {
            if (!COMPLETED.compareAndSet(this, false, true)) {
                return;
            }
            if (upgrade != null) {
                upgrade.lapse();
            }
            if (!response.isCommitted()) {
                BadMessageException bad = BadMessageException.find(cause);
                answerError(bad != null ? bad : contentFailure(), cause);
                return;
            }
            abort(cause);
        }

        /** Answers {@code bad}'s status and reason, or 500 when null; the connection then closes. */
        private void answerError(BadMessageException bad, Throwable cause) {
            persistent = false;
            int status = bad != null ? bad.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR_500;
            String message = bad != null ? bad.getReason() : null;
            Response.writeError(HttpExchange.this, response, Callback.from(InvocationType.NON_BLOCKING,
                    () -> response.complete(connection.exchangeDone()), this::abort), status, message, cause);
        }

        private void abort(Throwable cause) {
            persistent = false;
            connection.getEndPoint().close(cause);
            connection.onExchangeComplete();
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
