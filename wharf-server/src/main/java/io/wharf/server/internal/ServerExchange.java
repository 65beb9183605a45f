package io.wharf.server.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import io.wharf.http.BadMessageException;
import io.wharf.http.ComplianceViolation;
import io.wharf.http.HostPort;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpURI;
import io.wharf.http.UriCompliance;
import io.wharf.io.Content;
import io.wharf.server.ConnectionMetaData;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.ProtocolUpgrade;
import io.wharf.server.Push;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * One request and its response on the server, whatever the protocol: the {@link Request}
 * handlers see, its {@link ExchangeResponse}, and — the exchange itself — the callback handed
 * to the handler, whose completion ends the exchange. Its URI and authority, the customizers,
 * the attributes, the error answers, the completion rules and {@code 100 Continue} are made
 * here once; what differs between protocols is a {@link ServerStream}, which also keeps the
 * request's head in the protocol's own form.
 *
 * <p>This is the seam where a protocol plugs into the server: HTTP/1.1 and HTTP/2 each supply
 * only their stream, and HTTP/3 will supply one per QUIC stream.
 *
 * <pre>
 *                      Server.handle(request, response, callback) -&gt; handler tree
 *                                 |            |            |
 *            +--------------------v------------v------------v--------------------+
 *            |  ServerExchange (Request + Callback)    ExchangeResponse           |
 *            |  URI and authority, customizers,        status, fields, trailers,  |
 *            |  attributes, error answers, completion, commit, one write at a     |
 *            |  100 Continue, switch of protocols      time       [Output enum]   |
 *            |  [Input enum, completed by CAS]                                    |
 *            +------------------------------+-------------------------------------+
 *              head: method, target, fields | read, demand, fail, trailers
 *              authority, scheme, intercept | claimWrite, write head + content,
 *              offerSwitch, push, id        | interim, continue, closeAfterResponse,
 *                                           | switchProtocols, responseDone
 *   =========================== ServerStream (the seam) ===========================
 *                  |                            |                            |
 *             Http1Stream                 Http2ServerStream            (HTTP/3: a stream
 *          one per request on           one per Http2Stream of an      per QUIC stream)
 *          an HttpConnection: its       Http2ServerConnection: DATA
 *          parser, generator and        and HEADERS frames through
 *          writer (HttpCodec)           the Http2Session
 * </pre>
 *
 * <p><b>State is data.</b> The request side is an {@link Input} (whether the client still waits
 * for {@code 100 Continue}), moved once by compare-and-set; the response side is the
 * response's {@link ExchangeResponse.Output}; the handler's completion is decided once, by a
 * compare-and-set on {@code completed}.
 *
 * <p><b>Threads.</b> Made on the connection's reading thread and handled there (or on the
 * executor when the handler tree blocks); its content is read by one thread at a time; it is
 * completed on any thread, once. Holds no buffer: content chunks are the stream's, owned by
 * whoever reads them.
 */
public final class ServerExchange implements Request, Callback {

    private static final VarHandle COMPLETED;
    private static final VarHandle INPUT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            COMPLETED = lookup.findVarHandle(ServerExchange.class, "completed", boolean.class);
            INPUT = lookup.findVarHandle(ServerExchange.class, "input", Input.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    /** The request side, as the exchange sees it. */
    enum Input {
        /** The client holds its content back until it is sent {@code 100 Continue}. */
        AWAITING_CONTINUE,
        /** The content comes as the client sends it. */
        FLOWING
    }

    private final ServerStream stream;
    private final ConnectionMetaData metaData;
    private final boolean authorityForm;
    private final long beginNanos;
    private final long headersNanos;
    private final boolean head;
    private final ExchangeResponse response;
    private String id;
    private HttpURI uri;
    private Map<String, Object> attributes;
    /** The switch of protocols this request offers, made when a handler first asks; see {@link #getProtocolUpgrade()}. */
    private ProtocolSwitch upgrade;
    private boolean upgradeChecked;
    /** Read and set through {@code INPUT}. */
    private volatile Input input;
    /** Set once by the first completion, through {@code COMPLETED}. */
    @SuppressWarnings("unused")
    private volatile boolean completed;

    /**
     * The request's method, target, fields and length are the stream's ({@link ServerStream#method()}
     * and the next), which has them in the protocol's own form; these are given to decide what
     * is decided once.
     *
     * @param authorityForm whether the target is an authority: a CONNECT that opens a tunnel
     * @param continuable whether content may follow that the client holds back for {@code 100 Continue}
     */
    public ServerExchange(ServerStream stream, ConnectionMetaData metaData, String method, boolean authorityForm, HttpFields fields,
                          boolean continuable, long beginNanos, long headersNanos) {
        this.stream = stream;
        this.metaData = metaData;
        this.authorityForm = authorityForm;
        this.beginNanos = beginNanos;
        this.headersNanos = headersNanos;
        this.head = HttpMethod.HEAD.is(method);
        // A plain store: the exchange reaches other threads through a hand-over that publishes it.
        INPUT.set(this, continuable && fields.contains(HttpHeader.EXPECT, HttpHeaderValue.CONTINUE.asString())
                ? Input.AWAITING_CONTINUE : Input.FLOWING);
        this.response = new ExchangeResponse(this);
    }

    /** @return the stream this exchange runs on */
    ServerStream stream() {
        return stream;
    }

    /** @return the response of this exchange */
    public ExchangeResponse response() {
        return response;
    }

    /** @return whether the request is a HEAD: its response sends the head only */
    public boolean isHead() {
        return head;
    }

    /** Builds the URI, lets the stream and the customizers see the request, and runs the handler tree. */
    public void handle() {
        Request request = this;
        try {
            uri = buildUri();
            if (stream.intercept(this)) {
                return;
            }
            for (HttpConfiguration.Customizer customizer : metaData.getHttpConfiguration().getCustomizers()) {
                request = customizer.customize(request, response.getHeaders());
            }
        } catch (BadMessageException x) {
            stream.closeAfterResponse();
            Response.writeError(this, response, this, x.getStatus(), x.getReason());
            return;
        } catch (Throwable x) {
            stream.closeAfterResponse();
            Response.writeError(this, response, this, HttpStatus.INTERNAL_SERVER_ERROR_500, null, x);
            return;
        }
        metaData.getConnector().getServer().handle(request, response, this);
    }

    /**
     * @return the request's URI: its target with the authority the request names (or the local
     *     address) and the stream's scheme, checked by the URI compliance mode; the same URI as
     *     the last request's when made from the same inputs and the stream keeps a {@link UriMemory}
     * @throws BadMessageException for a bad authority, a URI the compliance mode refuses, or
     *     the asterisk form on another method than OPTIONS
     */
    private HttpURI buildUri() {
        UriCompliance compliance = metaData.getHttpConfiguration().getUriCompliance();
        String target = stream.target();
        if (authorityForm) {
            return checked(HttpURI.parseAuthority(target), compliance);
        }
        if (target.equals("*") && !HttpMethod.OPTIONS.is(stream.method())) {
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "asterisk-form target * on " + stream.method()
                    + ", not OPTIONS (RFC 9112 section 3.2.4)");
        }
        HostPort authority = stream.authority();
        if (authority == null && metaData.getLocalSocketAddress() instanceof java.net.InetSocketAddress local) {
            authority = HostPort.of(local.getHostString(), local.getPort());
        }
        String scheme = stream.scheme();
        UriMemory memory = stream.uriMemory();
        if (memory != null) {
            HttpURI remembered = memory.get(target, authority, scheme, compliance);
            if (remembered != null) {
                return remembered;
            }
        }
        HttpURI parsed = authority != null ? HttpURI.parse(target, scheme, authority) : HttpURI.parse(target);
        boolean complete = parsed.isAbsolute() || "*".equals(parsed.getPath());
        HttpURI built = checked(complete ? parsed : HttpURI.build(parsed).scheme(scheme).asImmutable(), compliance);
        if (memory != null) {
            memory.put(target, authority, scheme, compliance, built);
        }
        return built;
    }

    private static HttpURI checked(HttpURI uri, UriCompliance compliance) {
        compliance.check(uri, ComplianceViolation.Listener.NONE);
        return uri;
    }

    /**
     * Sends {@code 100 Continue} if the client still waits for it and the response is not
     * committed; called by the stream before it waits for content. At most once.
     */
    public void continueIfExpected() {
        if (input == Input.AWAITING_CONTINUE && INPUT.compareAndSet(this, Input.AWAITING_CONTINUE, Input.FLOWING)
                && !response.isCommitted()) {
            stream.writeContinue();
        }
    }

    /** @return the switch a handler accepted and that is still on, or null */
    public ProtocolSwitch acceptedSwitch() {
        ProtocolSwitch accepted = upgrade;
        return accepted != null && accepted.isAccepted() ? accepted : null;
    }

    // ---- Content.Source ----

    @Override
    public Content.Chunk read() {
        return stream.read();
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        stream.demand(onContentAvailable);
    }

    @Override
    public void fail(Throwable cause) {
        stream.fail(cause);
    }

    @Override
    public long getLength() {
        return stream.length();
    }

    // ---- Request ----

    @Override
    public ProtocolUpgrade getProtocolUpgrade() {
        if (!upgradeChecked) {
            upgradeChecked = true;
            upgrade = stream.offerSwitch(response);
        }
        return upgrade;
    }

    @Override
    public Push getPush() {
        return stream.push();
    }

    /** @return the connection's id and this request's on it; made on first use, as few handlers ask */
    @Override
    public String getId() {
        String made = id;
        if (made == null) {
            made = stream.id();
            id = made;
        }
        return made;
    }

    @Override
    public ConnectionMetaData getConnectionMetaData() {
        return metaData;
    }

    @Override
    public String getMethod() {
        return stream.method();
    }

    @Override
    public HttpURI getHttpURI() {
        return uri;
    }

    @Override
    public HttpFields getHeaders() {
        return stream.fields();
    }

    @Override
    public HttpFields getTrailers() {
        return stream.trailers();
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
        return stream.method() + " " + stream.target() + " " + metaData.getProtocol() + "@" + getId();
    }

    // ---- the handler's callback ----

    /**
     * The handler succeeded. The response ends if the handler did not end it, or is the head
     * that opens the protocol a handler switched to. One rule for every handler and wrapper:
     * when the request content failed with a {@link BadMessageException} (a bad chunk, or a
     * wrapper's limit such as 413 reported through {@link Request#fail}) and the handler did not
     * commit a response of its own, the answer is that status.
     */
    @Override
    public void succeeded() {
        if (!COMPLETED.compareAndSet(this, false, true)) {
            return;
        }
        BadMessageException bad = stream.contentFailure();
        if (bad != null && !response.isCommitted()) {
            if (upgrade != null) {
                upgrade.lapse();
            }
            answerError(bad, bad);
            return;
        }
        ProtocolSwitch accepted = acceptedSwitch();
        if (accepted != null) {
            stream.switchProtocols(accepted, response);
            return;
        }
        response.complete(stream.responseDone());
    }

    /**
     * The handler failed: answers 500 (or the bad request's status) while the response is not
     * committed, else the stream is aborted (the connection closes, or the stream is reset).
     */
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
            answerError(bad != null ? bad : stream.contentFailure(), cause);
            return;
        }
        abort(cause);
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    /** Answers {@code bad}'s status and reason, or 500 when null; the connection is then not reused. */
    private void answerError(BadMessageException bad, Throwable cause) {
        stream.closeAfterResponse();
        int status = bad != null ? bad.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR_500;
        String message = bad != null ? bad.getReason() : null;
        Response.writeError(this, response, Callback.from(InvocationType.NON_BLOCKING,
                () -> response.complete(stream.responseDone()), this::abort), status, message, cause);
    }

    private void abort(Throwable cause) {
        stream.closeAfterResponse();
        stream.responseDone().failed(cause);
    }
}
