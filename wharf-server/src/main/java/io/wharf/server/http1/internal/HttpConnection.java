package io.wharf.server.http1.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.http.BadMessageException;
import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpGenerator;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.GracefulConnection;
import io.wharf.server.Connector;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.http1.internal.RequestHeadReader.Head;
import io.wharf.server.internal.EndPointMetaData;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * An HTTP/1.1 server connection: it reads requests with an {@link HttpParser}, hands each
 * to the server's handler tree, and writes responses with an {@link HttpGenerator}. Parser,
 * generator and writer form an {@link HttpCodec} that the connection borrows from its
 * factory's {@link HttpCodecs} when bytes of a request arrive and gives back when it is idle
 * again; between requests it keeps only its {@link HttpParser.FieldMemory}, the field lines
 * its client repeats.
 *
 * <p>It keeps the request loop, its network buffer and its codec; its partners do one job each
 * on it: {@link RequestHeadReader} runs the steps that read a request head (and answers a bad
 * one), {@link Http1Stream} is the request under way, {@link AfterResponse} is the callback
 * each exchange completes and decides what follows it (the next request, a protocol switch or
 * the close), and {@link EndPointMetaData} answers the endpoint's part of the
 * {@link io.wharf.server.ConnectionMetaData} this connection is to its exchanges.
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
        implements EndPointMetaData, GracefulConnection, Connection.UpgradeFrom, Connection.UpgradeTo {

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
    private final AfterResponse afterResponse = new AfterResponse(this);
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
        if (hasBufferedBytes()) {
            // Bytes handed over by an upgrade (e.g. the request after a PROXY header): parse them now.
            resumeLoop();
        } else {
            awaitInput();
        }
    }

    /**
     * Waits for the next bytes, unless a graceful stop came meanwhile. {@link #shutdown()} sets
     * its flag, then closes the connection if it waits for input; this asks for input, then
     * reads the flag. Each side writes before it reads, so at least one sees the other and a
     * stop that found the connection still busy is not missed (it would last until the idle
     * timeout).
     */
    private void awaitInput() {
        fillInterested();
        if (shutdown && exchange == null) {
            getEndPoint().close();
        }
    }

    @Override
    public void onFillable() {
        drained = false;
        processRequests();
    }

    /**
     * The request loop: read a request head ({@link RequestHeadReader}), handle it inline, and
     * go on while exchanges complete on this thread.
     */
    private void processRequests() {
        if (codec == null) {
            if (fieldMemory == null) {
                fieldMemory = new HttpParser.FieldMemory(codecs.limits());
            }
            codec = codecs.lend(this, fieldMemory, requestFields);
        }
        while (true) {
            if (exchange == null) {
                Head head = RequestHeadReader.read(this);
                if (head != Head.READY) {
                    if (head == Head.WAITING) {
                        awaitInput();
                    }
                    return;
                }
            }
            Http1Stream current = exchange;
            loop = Loop.HANDLING;
            current.exchange().handle();
            if (LOOP.compareAndSet(this, Loop.HANDLING, Loop.WAITING)) {
                return;
            }
            // COMPLETED: the exchange finished inline; carry on with the next request.
            loop = Loop.READING;
            if (!afterResponse.finish()) {
                return;
            }
        }
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
        if (!afterResponse.finish()) {
            return;
        }
        if (hasBufferedBytes()) {
            resumeLoop();
        } else {
            releaseNetworkIfUnused();
            if (shutdown) {
                getEndPoint().close();
            } else {
                giveBackCodecIfIdle();
                awaitInput();
            }
        }
    }

    /** Goes on with pipelined bytes: inline when the handler tree never blocks, else on the pool. */
    private void resumeLoop() {
        if (invocationType() == InvocationType.BLOCKING) {
            getExecutor().execute(this::processRequests);
        } else {
            processRequests();
        }
    }

    // ---- the network buffer ----

    /**
     * Reads into the network buffer, borrowing one when there is none or when the current one
     * is still referenced by content chunks.
     *
     * @return the bytes read, 0 for none now, -1 at the end of input
     */
    int fill() throws IOException {
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

    /** @return whether the last fill found the socket empty (then forgotten): the next read would most likely find nothing */
    boolean takeDrained() {
        boolean was = drained;
        drained = false;
        return was;
    }

    /** @return whether unread bytes are buffered */
    boolean hasBufferedBytes() {
        return network != null && network.byteBuffer().hasRemaining();
    }

    /**
     * The connection reads no more: drops its reference to the network buffer, unread bytes and
     * all (content chunks that still reference it keep it until they are released).
     */
    void releaseNetwork() {
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

    // ---- the codec and the exchange ----

    /** @return the codec lent to this connection, or null while it is idle */
    HttpCodec codec() {
        return codec;
    }

    /**
     * Gives the codec back to the pool when nothing of a next request is buffered or under
     * way: a waiting keep-alive connection then holds no parser, generator or writer.
     */
    void giveBackCodecIfIdle() {
        HttpCodec idle = codec;
        if (idle != null && exchange == null && network == null && idle.isIdle()) {
            codec = null;
            codecs.giveBack(idle);
        }
    }

    /** Gives the codec back for good: another protocol's connection takes the endpoint. */
    void giveBackCodec() {
        codec.guard.reset();
        HttpCodec idle = codec;
        codec = null;
        codecs.giveBack(idle);
    }

    /** @return the stream of the request under way, or null */
    Http1Stream exchange() {
        return exchange;
    }

    /** @return whether {@code candidate} is the exchange the parser reads for */
    boolean isCurrent(Http1Stream candidate) {
        return exchange == candidate;
    }

    /** The exchange under way is over: the parser reads for the next request, or for none. */
    void forgetExchange() {
        exchange = null;
    }

    /** @return the number of request heads read on this connection */
    long requests() {
        return requests;
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

    /** @return the callback an exchange completes when its response is done; one per connection */
    Callback exchangeDone() {
        return afterResponse;
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
                throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "Bad Host header: " + x.getMessage());
            }
            lastHostField = hostField;
        }
        return lastHostPort;
    }

    // ---- the connection's life ----

    /**
     * Closes now when idle, else after the exchange under way. A stop that comes after an upgrade
     * replaced this connection leaves the endpoint alone: it belongs to the next protocol, which
     * the stop reaches through {@link GracefulConnection#shutdown(io.wharf.io.EndPoint)}.
     */
    @Override
    public void shutdown() {
        shutdown = true;
        EndPoint endPoint = getEndPoint();
        if (endPoint.getConnection() == this && loop == Loop.READING && exchange == null && endPoint.isFillInterested()) {
            endPoint.close();
        }
    }

    /** @return whether a graceful shutdown asked this connection to close after its exchange */
    @Override
    public boolean isShutdown() {
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

    // ---- ConnectionMetaData: the endpoint's part is EndPointMetaData's ----

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
    public HttpConfiguration getHttpConfiguration() {
        return configuration;
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
}
