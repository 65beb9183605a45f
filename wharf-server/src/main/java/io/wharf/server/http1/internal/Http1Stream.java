package io.wharf.server.http1.internal;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.wharf.http.BadMessageException;
import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.http.MetaData;
import io.wharf.io.Connection;
import io.wharf.io.Content;
import io.wharf.io.EndPoint;
import io.wharf.io.EofException;
import io.wharf.server.Push;
import io.wharf.server.Request;
import io.wharf.server.internal.ServerExchange;
import io.wharf.server.internal.ExchangeResponse;
import io.wharf.server.internal.Http1Handover;
import io.wharf.server.internal.ProtocolSwitch;
import io.wharf.server.internal.ServerStream;
import io.wharf.server.internal.UriMemory;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * HTTP/1.1's {@link ServerStream}: one request on an {@link HttpConnection} and the way its
 * response goes out, through the {@link HttpCodec} the connection borrowed for it (given
 * here, not asked of the connection). Its content is read by the codec's parser from the
 * connection's network buffer; its response is framed by the codec's generator and written by
 * the codec's {@link ResponseWrite}. It keeps what HTTP/1 alone has: whether the connection
 * carries another request after this one, the parser's events about the content, and the
 * {@code Upgrade} offer with its 101.
 *
 * <p><b>Threads.</b> Made and handled on the connection's loop thread; afterwards its content
 * is read by one thread at a time (the handler's, then a demand callback's). Content chunks
 * are slices of the connection's network buffer, each holding a reference to it.
 */
final class Http1Stream implements ServerStream {

    private static final MetaData.Response CONTINUE = new MetaData.Response(HttpStatus.CONTINUE_100, HttpVersion.HTTP_1_1, HttpFields.EMPTY);

    private final HttpConnection connection;
    /** The codec the connection borrowed for this request: its parser reads the content, its writer writes the response. */
    private final HttpCodec codec;
    private final long number;
    private final String method;
    private final String target;
    private final HttpFields fields;
    /** The content's length from the head: -1 when chunked. */
    private final long length;
    private final HttpVersion version;
    private final ServerExchange exchange;
    private HttpFields.Mutable trailers;
    private Content.Chunk pending;
    /** Set on the parsing thread, by a wrapper's fail() or by a timeout: read by the completing thread too. */
    private volatile Throwable failure;
    private boolean contentComplete;
    private boolean persistent;

    Http1Stream(HttpConnection connection, HttpCodec codec, long number, String method, String target, HttpVersion version,
                HttpFields fields, long length, long beginNanos, long headersNanos) {
        this.connection = connection;
        this.codec = codec;
        this.number = number;
        this.method = method;
        this.target = target;
        this.fields = fields;
        this.length = length;
        this.version = version;
        this.persistent = persistentByRequest(version, fields);
        this.exchange = new ServerExchange(this, connection, method, HttpMethod.CONNECT.is(method), fields,
                version == HttpVersion.HTTP_1_1 && length != 0,
                beginNanos, headersNanos);
    }

    private static boolean persistentByRequest(HttpVersion version, HttpFields fields) {
        if (version == HttpVersion.HTTP_1_1) {
            return !fields.contains(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        return version == HttpVersion.HTTP_1_0 && fields.contains(HttpHeader.CONNECTION, HttpHeaderValue.KEEP_ALIVE.asString());
    }

    /** @return the exchange this stream serves */
    ServerExchange exchange() {
        return exchange;
    }

    // ---- the request's head ----

    @Override
    public String method() {
        return method;
    }

    @Override
    public String target() {
        return target;
    }

    @Override
    public HttpFields fields() {
        return fields;
    }

    @Override
    public long length() {
        return length;
    }

    // ---- the request, before the handlers ----

    @Override
    public HostPort authority() {
        HttpField hostField = fields.getField(HttpHeader.HOST);
        return hostField == null || hostField.getValue().isEmpty() ? null : connection.hostPortOf(hostField);
    }

    @Override
    public String scheme() {
        return connection.isSecure() ? "https" : "http";
    }

    @Override
    public UriMemory uriMemory() {
        return codec.uriMemory;
    }

    /**
     * An {@code Upgrade} that a protocol on the connector takes over ({@link Http1Handover},
     * such as h2c) is answered here, with a 101 and the response over that protocol; an
     * expectation other than {@code 100-continue} is 417.
     */
    @Override
    public boolean intercept(ServerExchange exchange) {
        if (fields.contains(HttpHeader.UPGRADE)) {
            // Only then the connector's (synchronized) factories.
            Http1Handover handover = connection.getConnector().getConnectionFactory(Http1Handover.class);
            Function<EndPoint, Connection> takeover = handover == null ? null
                    : handover.upgrade(connection.getConnector(), method, target, version, fields, length);
            if (takeover != null && exchange.getProtocolUpgrade() != null) {
                exchange.getProtocolUpgrade().accept(handover.getProtocol(), HttpFields.EMPTY, takeover);
                exchange.succeeded();
                return true;
            }
        }
        if (hasUnknownExpectation()) {
            throw new BadMessageException(HttpStatus.EXPECTATION_FAILED_417, "only the 100-continue expectation is supported");
        }
        return false;
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

    /** @return the offer of a request with {@code Upgrade} and {@code Connection: upgrade}, on HTTP/1.1 only */
    @Override
    public ProtocolSwitch offerSwitch(ExchangeResponse response) {
        if (version != HttpVersion.HTTP_1_1 || !fields.contains(HttpHeader.UPGRADE)
                || !fields.contains(HttpHeader.CONNECTION, HttpHeaderValue.UPGRADE.asString())) {
            return null;
        }
        List<String> protocols = fields.getCommaSeparated(HttpHeader.UPGRADE);
        return protocols.isEmpty() ? null : new ProtocolSwitch(response, List.copyOf(protocols), HttpStatus.SWITCHING_PROTOCOLS_101);
    }

    @Override
    public Push push() {
        return null;
    }

    @Override
    public String id() {
        return connection.getId() + "-" + number;
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

    // ---- the request's content ----

    @Override
    public Content.Chunk read() {
        Content.Chunk ready = takeReady();
        if (ready != null) {
            return ready;
        }
        if (!connection.isCurrent(this)) {
            // The parser now reads the next request (or another protocol): never hand its bytes out here.
            return Content.Chunk.from(new IllegalStateException("request content read after its exchange ended: " + exchange));
        }
        try {
            while (true) {
                RetainableByteBuffer network = connection.network();
                ByteBuffer buffer = network != null ? network.byteBuffer() : ByteBuffers.EMPTY;
                boolean hadBytes = buffer.hasRemaining();
                codec.parser.parseNext(buffer);
                ready = takeReady();
                if (ready != null) {
                    return ready;
                }
                if (hadBytes) {
                    continue;
                }
                exchange.continueIfExpected();
                int filled = connection.fill();
                if (filled == 0) {
                    connection.releaseNetworkIfUnused();
                    return null;
                }
                if (filled > 0) {
                    codec.guard.contentBytes(filled);
                }
                if (filled < 0) {
                    codec.parser.atEOF();
                    codec.parser.parseNext(connection.network().byteBuffer());
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
        return Request.consumeAvailable(exchange) && failure == null;
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
        exchange.continueIfExpected();
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
    public HttpFields trailers() {
        return trailers;
    }

    /** @return the bad-request failure the content ended with (from the parser or a wrapper's {@code fail}), or null */
    @Override
    public BadMessageException contentFailure() {
        return failure instanceof BadMessageException bad ? bad : null;
    }

    // ---- the response ----

    @Override
    public boolean claimWrite() {
        return codec.responseWrite.begin();
    }

    @Override
    public void writeContinue() {
        ResponseWrite write = codec.responseWrite;
        if (write.begin()) {
            write.start(false, CONTINUE, null, false, Callback.NOOP, null);
        }
    }

    @Override
    public void writeInterim(int status, HttpFields fields, Callback callback) {
        MetaData.Response info = new MetaData.Response(status, null, connection.getHttpVersion(), fields, -1, null);
        codec.responseWrite.write(exchange.isHead(), info, null, false, callback);
    }

    @Override
    public void write(ExchangeResponse response, boolean commit, ByteBuffer content, boolean last, Callback callback) {
        MetaData.Response info = null;
        if (commit) {
            codec.generator.setPersistent(persistent);
            info = new MetaData.Response(response.getStatus(), null, connection.getHttpVersion(), response.getHeaders(), -1,
                    response.getTrailersSupplier());
        }
        codec.responseWrite.start(exchange.isHead(), info, content, last, callback, info != null ? response : null);
    }

    /** Before the last write: a request whose content is not all read cannot be followed by another. */
    @Override
    public void beforeLastWrite() {
        if (!skipRemainingContent()) {
            persistent = false;
        }
        if (connection.isShutdown()) {
            persistent = false;
        }
    }

    @Override
    public void closeAfterResponse() {
        persistent = false;
    }

    /** @return whether the connection may carry another request after this one */
    boolean isPersistent() {
        return persistent && codec.generator.isPersistent();
    }

    /** Writes {@code 101 Switching Protocols} as the whole response; the connection switches once it is written. */
    @Override
    public void switchProtocols(ProtocolSwitch accepted, ExchangeResponse response) {
        Callback done = connection.exchangeDone();
        if (!response.commitWhole()) {
            done.failed(new IllegalStateException("the response is committed: cannot switch protocols"));
            return;
        }
        codec.responseWrite.write(false, switchingProtocols(accepted), null, true, done);
    }

    /** @return the {@code 101 Switching Protocols} head of {@code accepted} */
    private static MetaData.Response switchingProtocols(ProtocolSwitch accepted) {
        HttpFields fields = accepted.fields();
        HttpFields.Mutable head = HttpFields.build(fields.size() + 2);
        for (HttpField field : fields) {
            if (field.getHeader() != HttpHeader.UPGRADE && field.getHeader() != HttpHeader.CONNECTION) {
                head.add(field);
            }
        }
        head.add(HttpHeader.UPGRADE, accepted.protocol());
        head.add(HttpHeader.CONNECTION, HttpHeaderValue.UPGRADE.asString());
        return new MetaData.Response(accepted.openingStatus(), null, HttpVersion.HTTP_1_1, head, -1, null);
    }

    /** @return the connection's one callback: its request loop goes on, or it closes on failure */
    @Override
    public Callback responseDone() {
        return connection.exchangeDone();
    }

    @Override
    public String toString() {
        return exchange.toString();
    }
}
