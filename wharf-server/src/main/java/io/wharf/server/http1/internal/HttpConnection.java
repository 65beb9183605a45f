package io.wharf.server.http1.internal;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.http.BadMessageException;
import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpGenerator;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpVersion;
import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.GracefulConnection;
import io.wharf.server.ConnectionMetaData;
import io.wharf.server.Connector;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.ProxyHeader;
import io.wharf.server.internal.Http1Handover;
import io.wharf.server.internal.ProtocolSwitch;
import io.wharf.server.internal.ProxyHeaderSource;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.RetainableByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP/1.1 server connection: it reads requests with an {@link HttpParser}, hands each
 * to the server's handler tree, and writes responses with an {@link HttpGenerator}. Parser,
 * generator and writer form an {@link HttpCodec} that the connection borrows from its
 * factory's {@link HttpCodecs} when bytes of a request arrive and gives back when it is idle
 * again; between requests it keeps only its {@link HttpParser.FieldMemory}, the field lines
 * its client repeats.
 *
 * <p><b>Threads.</b> Reading is driven by {@link #onFillable()}, on the thread the selector's
 * execution strategy picks for this connection's {@link #invocationType()} — the handler
 * tree's type, so a BLOCKING tree never runs on a selector thread. That thread parses and
 * calls the handler inline. Pipelined requests are handled in a loop on the same thread.
 * While a request is in flight, only its content source reads (see {@link Http1Stream});
 * when the exchange completes on another thread, that thread resumes the loop.
 *
 * <p><b>Buffers.</b> The network buffer is borrowed from the pool when the selector says
 * bytes arrived and returned as soon as it is empty and no content chunk references it; an
 * idle keep-alive connection holds no buffer.
 */
public final class HttpConnection extends AbstractConnection
        implements ConnectionMetaData, GracefulConnection, Connection.UpgradeFrom, Connection.UpgradeTo {

    private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);
    private static final AtomicLong IDS = new AtomicLong();
    private static final java.lang.invoke.VarHandle LOOP;

    static {
        try {
            LOOP = java.lang.invoke.MethodHandles.lookup().findVarHandle(HttpConnection.class, "loop", Loop.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    /** Where the request loop is. */
    enum Loop {
        /** Reading or waiting for the next request. */
        READING,
        /** A handler runs on the loop's thread. */
        HANDLING,
        /** The handler returned; its exchange completes later on some thread. */
        WAITING,
        /** The exchange completed while the handler was still running; the loop thread goes on. */
        COMPLETED
    }

    private final Connector connector;
    private final HttpConfiguration configuration;
    private final HttpCodecs codecs;
    private final long number = IDS.incrementAndGet();
    /** The connection id for logs and request ids, made on first use. */
    private String id;
    /** The parser, generator and writer while a request is under way; null while idle. */
    private HttpCodec codec;
    /** The field lines the client repeats, learned by the codecs this connection borrows; made with the first. */
    private HttpParser.FieldMemory fieldMemory;
    /** Where the request loop is; read and set through {@link #LOOP}. */
    private volatile Loop loop = Loop.READING;
    /**
     * The fields of the request under way. Kept by the connection rather than the codec: a
     * handler that reads them after its callback completed sees this connection's next
     * request at worst, never another client's.
     */
    private final HttpFields.Mutable requestFields = HttpFields.build(8);
    /** Completed when an exchange's response is complete: the loop goes on, or the connection closes on failure. */
    private final io.wharf.util.Callback exchangeDone = new ExchangeDone();
    private RetainableByteBuffer network;
    private Http1Stream exchange;
    /** The last Host field parsed and what it said: the parser hands out the same field while the line repeats. */
    private HttpField lastHostField;
    private HostPort lastHostPort;
    private HttpVersion version = HttpVersion.HTTP_1_1;
    /**
     * Whether the last fill read less than it had room for, so the socket held no more bytes
     * then: once those are parsed, the loop waits for the selector instead of trying a read
     * that would most likely find nothing (as a non-pipelining client waits for its answer).
     */
    private boolean drained;
    private long requests;
    private volatile boolean shutdown;

    /** @param codecs the codecs of the connection's factory, which also hold its configuration */
    public HttpConnection(Connector connector, EndPoint endPoint, HttpCodecs codecs) {
        super(endPoint, connector.getExecutor());
        this.connector = connector;
        this.configuration = codecs.configuration();
        this.codecs = codecs;
    }

    @Override
    public InvocationType invocationType() {
        var handler = connector.getServer().getHandler();
        return handler == null ? InvocationType.NON_BLOCKING : handler.invocationType();
    }

    @Override
    public void onOpen() {
        super.onOpen();
        if (network != null && network.byteBuffer().hasRemaining()) {
            // Bytes handed over by an upgrade (e.g. the request after a PROXY header): parse them now.
            resumeLoop();
        } else {
            fillInterested();
        }
    }

    @Override
    public void onFillable() {
        drained = false;
        processRequests();
    }

    /**
     * The request loop: parse what is buffered (filling when empty), handle each complete
     * request head inline, and go on while exchanges complete on this thread.
     */
    private void processRequests() {
        if (codec == null) {
            if (fieldMemory == null) {
                fieldMemory = new HttpParser.FieldMemory(codecs.limits());
            }
            codec = codecs.lend(this, fieldMemory, requestFields);
        }
        while (true) {
            if (exchange == null && parseRequestHead() != Head.READY) {
                return;
            }
            Http1Stream current = exchange;
            loop = Loop.HANDLING;
            current.exchange().handle();
            if (LOOP.compareAndSet(this, Loop.HANDLING, Loop.WAITING)) {
                return;
            }
            // COMPLETED: the exchange finished inline; carry on with the next request.
            loop = Loop.READING;
            if (!finishExchange()) {
                return;
            }
        }
    }

    /** Where reading a request head is, after one of its steps. */
    private enum Head {
        /** A whole head was parsed: its exchange is ready to handle. */
        READY,
        /** The step is done; the next one goes on reading. */
        AGAIN,
        /** No bytes now: the connection waits for the selector. */
        WAITING,
        /** The connection is closed, or was handed to another protocol: the loop stops. */
        CLOSED
    }

    /**
     * Reads until a request head is complete, one step at a time: parse what is buffered (after
     * a look for another protocol's preface), else read more (guarding against slow clients),
     * else wait, else end at the end of input.
     *
     * @return {@link Head#READY}, {@link Head#WAITING} or {@link Head#CLOSED}
     */
    private Head parseRequestHead() {
        try {
            while (true) {
                Head step = network != null && network.byteBuffer().hasRemaining() ? parseBuffered() : fillForHead();
                if (step != Head.AGAIN) {
                    return step;
                }
            }
        } catch (Throwable x) {
            LOG.debug("Reading requests failed on {}", this, x);
            releaseNetwork();
            getEndPoint().close(x);
            return Head.CLOSED;
        }
    }

    /**
     * Parses the buffered bytes: the first bytes of a connection may be another protocol's
     * preface; after a bad message the bytes are drained, never parsed.
     */
    private Head parseBuffered() throws java.io.IOException {
        ByteBuffer bytes = network.byteBuffer();
        HttpParser parser = codec.parser;
        // The bytes first, the connector's (synchronized) factories only for what may be a preface.
        if (requests == 0 && parser.isStart() && mayBePreface(bytes)) {
            Http1Handover handover = connector.getConnectionFactory(Http1Handover.class);
            Head step = handover == null ? null : takePreface(handover, bytes);
            if (step != null) {
                return step;
            }
        }
        if (parser.isClosed()) {
            // After a bad message nothing more is parsed: drain until the client closes.
            bytes.position(bytes.limit());
            return Head.AGAIN;
        }
        parser.parseNext(bytes);
        if (exchange != null) {
            return Head.READY;
        }
        if (!getEndPoint().isOpen()) {
            releaseNetwork();
            return Head.CLOSED;
        }
        return Head.AGAIN;
    }

    /**
     * Acts on what the first bytes say about the preface of the protocol of {@code handover}.
     *
     * @return the step's outcome, or null when the bytes are for the HTTP/1 parser
     */
    private Head takePreface(Http1Handover handover, ByteBuffer bytes) throws java.io.IOException {
        switch (handover.preface(bytes)) {
            case WHOLE -> {
                handOver(handover);
                return Head.CLOSED;
            }
            case PARTIAL -> {
                int filled = fill();
                if (filled > 0) {
                    return Head.AGAIN;
                }
                if (filled == 0) {
                    fillInterested();
                    return Head.WAITING;
                }
                // The end of input: what came is parsed as HTTP/1.
                return null;
            }
            case BROKEN -> {
                // Answered as the other protocol answers a bad preface; nothing more is read as a request.
                codec.parser.close();
                handover.refuseBrokenPreface(getEndPoint(), connector.getByteBufferPool());
                return Head.AGAIN;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * Nothing is buffered: reads (unless the last read found the socket empty), guards the head
     * against a slow client, and waits for the selector when nothing came.
     */
    private Head fillForHead() throws java.io.IOException {
        int filled;
        if (drained) {
            // The last read found the socket empty before this request's bytes ran out.
            drained = false;
            filled = 0;
        } else {
            filled = fill();
            if (getEndPoint().getConnection() != this) {
                // The read completed a TLS handshake whose ALPN switched the endpoint to another protocol.
                releaseNetwork();
                giveBackCodec();
                return Head.CLOSED;
            }
        }
        if (filled > 0) {
            guardHeadBytes(filled);
            return Head.AGAIN;
        }
        releaseNetworkIfUnused();
        return filled == 0 ? waitForHead() : endOfInput();
    }

    /** Bytes of a head arrived: a client too slow is answered 408 and nothing more is parsed. */
    private void guardHeadBytes(int filled) {
        try {
            codec.guard.headBytes(filled);
        } catch (BadMessageException tooSlow) {
            codec.parser.close();
            writeBadMessage(tooSlow);
        }
    }

    /** No bytes now: the connection waits for the selector, holding no codec when nothing is under way. */
    private Head waitForHead() {
        if (shutdown) {
            getEndPoint().close();
            return Head.CLOSED;
        }
        codec.guard.waitingForHead(this);
        giveBackCodecIfIdle();
        fillInterested();
        return Head.WAITING;
    }

    /** The client closed its output: what is buffered is parsed to the end, then the connection closes. */
    private Head endOfInput() {
        HttpParser parser = codec.parser;
        parser.atEOF();
        if (network != null && network.byteBuffer().hasRemaining()) {
            parser.parseNext(network.byteBuffer());
        }
        // Bytes a closed parser left unread (after a bad message) go with the buffer.
        releaseNetwork();
        getEndPoint().close();
        return Head.CLOSED;
    }

    /**
     * @return whether a connection's first bytes may be another protocol's preface: they do not
     *     start with a standard method's request line, or start with {@code PRI}, the method no
     *     HTTP/1 request uses (RFC 9113 section 3.4 reserves it for a preface)
     */
    private static boolean mayBePreface(ByteBuffer bytes) {
        HttpMethod method = HttpMethod.LOOK_AHEAD.getBest(bytes);
        return method == null || method == HttpMethod.PRI;
    }

    /** The client sent the preface of the protocol of {@code handover}: hands it the endpoint, with the bytes read. */
    private void handOver(Http1Handover handover) {
        giveBackCodec();
        getEndPoint().upgrade(handover.newConnection(connector, getEndPoint()));
    }

    /** Gives the codec back for good: another protocol's connection takes the endpoint. */
    private void giveBackCodec() {
        codec.guard.reset();
        HttpCodec idle = codec;
        codec = null;
        codecs.giveBack(idle);
    }

    /**
     * Reads into the network buffer, borrowing one when there is none or when the current one
     * is still referenced by content chunks.
     *
     * @return the bytes read, 0 for none now, -1 at the end of input
     */
    int fill() throws java.io.IOException {
        if (network == null) {
            network = connector.getByteBufferPool().acquire(configuration.getInputBufferSize(), true);
        } else if (network.isRetained() && (!network.byteBuffer().hasRemaining() || isFull(network.byteBuffer()))) {
            // Content chunks still reference this buffer: its bytes must not move. Unread bytes go to a new one.
            RetainableByteBuffer referenced = network;
            network = connector.getByteBufferPool().acquire(configuration.getInputBufferSize(), true);
            ByteBuffer unread = referenced.byteBuffer();
            network.byteBuffer().clear().put(unread).flip();
            referenced.release();
        }
        ByteBuffer buffer = network.byteBuffer();
        if (!buffer.hasRemaining()) {
            buffer.clear().limit(0);
        } else if (isFull(buffer)) {
            buffer.compact().flip();
        }
        int room = buffer.capacity() - buffer.limit();
        int filled = getEndPoint().fill(buffer);
        drained = filled >= 0 && filled < room;
        return filled;
    }

    private static boolean isFull(ByteBuffer buffer) {
        return buffer.limit() == buffer.capacity();
    }

    /**
     * The connection reads no more: drops its reference to the network buffer, unread bytes and
     * all (content chunks that still reference it keep it until they are released).
     */
    private void releaseNetwork() {
        RetainableByteBuffer buffer = network;
        if (buffer != null) {
            network = null;
            buffer.release();
        }
    }

    /** Returns the network buffer to the pool when it is empty and no chunk references it. */
    void releaseNetworkIfUnused() {
        RetainableByteBuffer buffer = network;
        if (buffer != null && !buffer.byteBuffer().hasRemaining()) {
            network = null;
            buffer.release();
        }
    }

    /** @return the network buffer, for content chunks to slice and retain; may be null */
    RetainableByteBuffer network() {
        return network;
    }

    /** @return whether {@code candidate} is the exchange the parser reads for */
    boolean isCurrent(Http1Stream candidate) {
        return exchange == candidate;
    }

    /**
     * Gives the codec back to the pool when nothing of a next request is buffered or under
     * way: a waiting keep-alive connection then holds no parser, generator or writer.
     */
    private void giveBackCodecIfIdle() {
        HttpCodec idle = codec;
        if (idle != null && exchange == null && network == null && idle.isIdle()) {
            codec = null;
            codecs.giveBack(idle);
        }
    }

    /** @return the stream of the request under way, or null */
    Http1Stream exchange() {
        return exchange;
    }

    /** The parser read a request line of {@code version}. */
    void onRequestLine(HttpVersion version) {
        this.version = version;
    }

    /** The parser read a whole request head: it becomes the exchange, handled next by the loop. */
    void onRequestHead(String method, String target, long length, long beginNanos, long headersNanos) {
        requests++;
        exchange = new Http1Stream(this, codec, requests, method, target, version, requestFields, length, beginNanos, headersNanos);
    }

    /**
     * Called by the exchange, on any thread, when its response is fully written (or failed)
     * and its request content is dealt with.
     */
    void onExchangeComplete() {
        if (LOOP.compareAndSet(this, Loop.HANDLING, Loop.COMPLETED)) {
            return; // the loop thread is still in the handler and carries on itself
        }
        loop = Loop.READING;
        if (!finishExchange()) {
            return;
        }
        if (network != null && network.byteBuffer().hasRemaining()) {
            resumeLoop();
        } else {
            releaseNetworkIfUnused();
            if (shutdown) {
                getEndPoint().close();
            } else {
                giveBackCodecIfIdle();
                fillInterested();
            }
        }
    }

    /** The exchange's response could not be completed: the connection closes. */
    private void onExchangeFailed(Throwable cause) {
        getEndPoint().close(cause);
        onExchangeComplete();
    }

    /** @return the callback an exchange completes when its response is done; one per connection */
    io.wharf.util.Callback exchangeDone() {
        return exchangeDone;
    }

    /** Goes on with pipelined bytes: inline when the handler tree never blocks, else on the pool. */
    private void resumeLoop() {
        if (invocationType() == InvocationType.BLOCKING) {
            getExecutor().execute(this::processRequests);
        } else {
            processRequests();
        }
    }

    /**
     * Resets the parser and generator after an exchange.
     *
     * @return whether the connection stays open for another request
     */
    private boolean finishExchange() {
        Http1Stream done = exchange;
        HttpParser parser = codec.parser;
        // Skipped while still the current exchange, so that the parser's end-of-message reaches it.
        ProtocolSwitch upgrade = done == null ? null : done.exchange().acceptedSwitch();
        boolean goesOn = done != null && getEndPoint().isOpen() && (upgrade != null || done.isPersistent() && !shutdown);
        boolean contentDone = goesOn && done.skipRemainingContent() && parser.isComplete();
        exchange = null;
        if (upgrade != null && getEndPoint().isOpen()) {
            switchProtocols(upgrade, contentDone);
            return false;
        }
        boolean persistent = contentDone && done.isPersistent() && !shutdown;
        if (persistent) {
            parser.reset();
        }
        codec.generator.reset();
        requestFields.clear();
        codec.guard.reset();
        if (!persistent) {
            releaseNetworkIfUnused();
            getEndPoint().shutdownOutput();
            if (network != null) {
                network.byteBuffer().position(network.byteBuffer().limit());
                releaseNetworkIfUnused();
            }
            getEndPoint().close();
            return false;
        }
        return true;
    }

    /**
     * After a 101 was written: skips what is left of the request's content and hands the
     * endpoint, with the bytes already read past the request, to the accepted protocol's
     * connection. The request loop stops here; this connection is closed by the switch.
     */
    private void switchProtocols(ProtocolSwitch upgrade, boolean contentDone) {
        codec.generator.reset();
        requestFields.clear();
        codec.guard.reset();
        try {
            if (!contentDone) {
                throw new IllegalStateException("the request content was not all read before switching protocols");
            }
            codec.parser.reset();
            releaseNetworkIfUnused();
            getEndPoint().upgrade(upgrade.newConnection(getEndPoint()));
            if (shutdown) {
                // A graceful stop began during the exchange: the protocol switched to finishes too.
                GracefulConnection.shutdown(getEndPoint());
            }
        } catch (Throwable x) {
            LOG.debug("Switching protocols failed on {}", this, x);
            RetainableByteBuffer unused = network;
            network = null;
            if (unused != null) {
                unused.release();
            }
            getEndPoint().close(x);
        }
    }

    /**
     * Answers a request whose head could not be parsed, then closes: nothing after a bad
     * message is read. The reason names the problem and never echoes the request's bytes.
     */
    void writeBadMessage(BadMessageException failure) {
        LOG.debug("Bad message on {}", this, failure);
        exchange = null;
        if (requests == 0 && HttpParser.NOT_HTTP_1.equals(failure.getReason())) {
            Http1Handover handover = connector.getConnectionFactory(Http1Handover.class);
            if (handover != null) {
                handover.refuseNotHttp1(getEndPoint(), connector.getByteBufferPool());
                return;
            }
        }
        String body = failure.getStatus() + " " + io.wharf.http.HttpStatus.getReason(failure.getStatus()) + "\n" + failure.getReason() + "\n";
        HttpFields.Mutable fields = HttpFields.build(4)
                .add(io.wharf.http.MimeTypes.Type.TEXT_PLAIN_UTF_8.getContentTypeField())
                .add(io.wharf.http.HttpHeader.CONNECTION, "close");
        HttpVersion answerVersion = version == HttpVersion.HTTP_1_0 ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
        io.wharf.http.MetaData.Response info = new io.wharf.http.MetaData.Response(failure.getStatus(), null, answerVersion, fields, -1, null);
        codec.generator.reset();
        codec.generator.setPersistent(false);
        io.wharf.util.Callback close = io.wharf.util.Callback.from(InvocationType.NON_BLOCKING,
                () -> getEndPoint().shutdownOutput(), cause -> getEndPoint().close(cause));
        codec.responseWrite.write(false, info, ByteBuffer.wrap(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)), true, close);
    }

    /** On the scheduler: a request head is still incomplete at the header timeout. */
    void onHeaderTimeout() {
        if (exchange == null) {
            getEndPoint().close(new TimeoutException("request header not received within " + configuration.getHeaderTimeout()));
        }
    }

    /**
     * @return the host and port a request's {@code Host} field names, parsed once per
     *     connection while the client repeats the same line
     * @throws BadMessageException 400 when the field is not a host
     */
    HostPort hostPortOf(HttpField hostField) {
        if (hostField != lastHostField) {
            try {
                lastHostPort = HostPort.parse(hostField.getValue());
            } catch (IllegalArgumentException x) {
                throw new BadMessageException(io.wharf.http.HttpStatus.BAD_REQUEST_400, "Bad Host header: " + x.getMessage());
            }
            lastHostField = hostField;
        }
        return lastHostPort;
    }

    @Override
    public void shutdown() {
        shutdown = true;
        if (loop == Loop.READING && exchange == null && getEndPoint().isFillInterested()) {
            getEndPoint().close();
        }
    }

    /** @return whether a graceful shutdown asked this connection to close after its exchange */
    boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        Http1Stream current = exchange;
        if (current != null) {
            return current.onIdleTimeout(timeout);
        }
        return true;
    }

    @Override
    public void onClose(Throwable cause) {
        Http1Stream current = exchange;
        if (current != null) {
            current.onConnectionClosed(cause);
        }
        super.onClose(cause);
    }

    @Override
    public RetainableByteBuffer onUpgradeFrom() {
        RetainableByteBuffer unused = network;
        network = null;
        if (unused != null && !unused.byteBuffer().hasRemaining()) {
            unused.release();
            return null;
        }
        return unused;
    }

    @Override
    public void onUpgradeTo(RetainableByteBuffer prefilled) {
        network = prefilled;
    }

    // ---- ConnectionMetaData ----

    @Override
    public String getId() {
        String made = id;
        if (made == null) {
            made = Long.toString(number, 36);
            id = made;
        }
        return made;
    }

    @Override
    public String getProtocol() {
        return version.asString();
    }

    @Override
    public HttpVersion getHttpVersion() {
        return version;
    }

    @Override
    public Connector getConnector() {
        return connector;
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return getEndPoint().getRemoteSocketAddress();
    }

    @Override
    public HttpConfiguration getHttpConfiguration() {
        return configuration;
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return getEndPoint().getLocalSocketAddress();
    }

    @Override
    public Optional<ProxyHeader> getProxyHeader() {
        return ProxyHeaderSource.of(getEndPoint());
    }

    @Override
    public boolean isSecure() {
        return getEndPoint() instanceof io.wharf.io.ssl.SslEndPoint;
    }

    @Override
    public java.util.Optional<javax.net.ssl.SSLSession> getSslSession() {
        return getEndPoint() instanceof io.wharf.io.ssl.SslEndPoint tls
                ? java.util.Optional.of(tls.getSslConnection().getSslEngine().getSession()) : java.util.Optional.empty();
    }

    @Override
    public boolean isPersistent() {
        Http1Stream current = exchange;
        return !shutdown && (current == null || current.isPersistent());
    }

    @Override
    public String toString() {
        return "HttpConnection@" + getId() + "{" + loop + ",requests=" + requests + "," + getEndPoint() + "}";
    }

    /** The one callback every exchange of this connection completes when its response is done. */
    private final class ExchangeDone implements io.wharf.util.Callback {
        @Override
        public void succeeded() {
            onExchangeComplete();
        }

        @Override
        public void failed(Throwable cause) {
            onExchangeFailed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
