package io.wharf.client.internal.http1;

import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import io.wharf.client.internal.ClientContext;
import io.wharf.client.internal.HttpDestination;
import io.wharf.client.internal.HttpExchange;
import io.wharf.client.internal.content.DemandGate;
import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.ClientSettings;
import io.wharf.client.transport.TransportExchange;
import io.wharf.http.ComplianceViolation;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpGenerator;
import io.wharf.http.HttpParser;
import io.wharf.io.AbstractConnection;
import io.wharf.io.Content;
import io.wharf.io.EndPoint;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * An HTTP/1.1 client connection: carries one exchange at a time, writing its request with a
 * {@link RequestWriter} and reading its response with an {@link HttpParser}, then goes back to
 * its pool (keep-alive) or closes.
 *
 * <h2>Reading, with demand</h2>
 * The read loop runs on the selector thread that found bytes (this connection is
 * NON_BLOCKING: listeners must not block), or on the thread whose demand resumed it. It parses
 * what is buffered, filling when empty; each content slice is handed to the listeners as a
 * chunk, and the loop goes on only once they demanded the next one. Its state is a {@link DemandGate}:
 * <pre>
 *  IDLE ──bytes──► RUNNING ──chunk──► DELIVERING ──demand──► DEMANDED ──listener returns──► RUNNING
 *   ▲                 │                   └──listener returns──► STALLED ──demand──► RUNNING
 *   └──no bytes───────┘ (fill interest)        any state ──close──► CLOSED (by the loop, or from IDLE/STALLED by the closer)
 * </pre>
 * Nothing is read from the socket while STALLED: that is the back-pressure. An idle pooled
 * connection stays IDLE with fill interest, so a server's close is seen at once and the
 * connection leaves its pool.
 *
 * <h2>Buffers</h2>
 * The network buffer is borrowed from the client's pool when the selector says bytes arrived
 * and returned when empty; while STALLED it keeps the unparsed bytes. It belongs to whoever
 * runs the loop; the closer takes it (and releases it) only by moving STALLED to CLOSED.
 * Content chunks are slices of it, each holding a reference: a listener that retains one
 * keeps that buffer alive, and the loop then reads into a fresh one.
 *
 * <h2>Ending</h2>
 * Every failure (a bad or early-ended response, a write failure, a timeout, an abort) closes
 * the endpoint with its cause; {@link #onClose} then fails the exchange, or sends it again on
 * another connection when that is safe (see {@link #exchangeFailed}), and leaves the pool.
 * A connection is never reused after a failure.
 *
 * <h2>The SPI</h2>
 * It is an exported {@link ClientConnection}, and tells its exchange every event through the
 * {@link TransportExchange} view. The exchanges it is given are the client's own
 * {@link HttpExchange}s (the client makes no other), whose request it names in its failures and
 * whose {@code Expect} field its writer reads.
 */
public final class Http1Connection extends AbstractConnection implements ClientConnection {

    private static final VarHandle EXCHANGE;

    static {
        try {
            EXCHANGE = MethodHandles.lookup().findVarHandle(Http1Connection.class, "exchange", HttpExchange.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final HttpDestination destination;
    private final ClientContext context;
    /** The client's settings when this connection was opened. */
    private final ClientSettings settings;
    private final HttpParser parser;
    private final HttpGenerator generator = new HttpGenerator();
    private final ResponseParserListener parsing = new ResponseParserListener();
    private final DemandGate reading = new DemandGate(DemandGate.State.IDLE, this::readLoop);
    private final Runnable demand = reading::demand;
    /** The exchange carried now; read and cleared through {@link #EXCHANGE}. */
    private volatile HttpExchange exchange;
    private volatile RequestWriter writer;
    private volatile boolean closing;
    /** Whether the last response and request leave the connection reusable. */
    private volatile boolean reusable;
    private volatile int exchanges;
    /** The exchange the parser reads for; written by the loop's thread, read by a closer. */
    private volatile HttpExchange parsed;
    private RetainableByteBuffer network;
    /** Whether the last parse stopped early, so that the next may go on without new bytes; the loop's thread only. */
    private boolean parserStopped;
    /**
     * Whether the last fill took all the endpoint had ({@link io.wharf.io.EndPoint#isDrained()}):
     * once those bytes are parsed, the read loop waits for the next ones instead of reading at
     * once, which would nearly always find none (the next response comes after the next
     * request). Loop thread only.
     */
    private boolean drained;
    /** Whether the server closed its side; the loop's thread only. */
    private boolean inputEnded;

    public Http1Connection(EndPoint endPoint, HttpDestination destination) {
        super(endPoint, destination.context().executor());
        this.destination = destination;
        this.context = destination.context();
        this.settings = context.settings();
        this.parser = new HttpParser(parsing, settings.responseLimits(), HttpCompliance.RFC9112,
                ComplianceViolation.Listener.NONE);
    }

    ClientSettings settings() {
        return settings;
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        fillInterested();
    }

    // ---- carrying an exchange ----

    @Override
    public boolean send(TransportExchange sent) {
        HttpExchange next = (HttpExchange) sent;
        reusable = false;
        EXCHANGE.setVolatile(this, next);
        if (closing) {
            // Closed meanwhile: whoever clears the slot handles the exchange.
            return !EXCHANGE.compareAndSet(this, next, null);
        }
        exchanges++;
        RequestWriter created = new RequestWriter(this, next, generator, context.byteBufferPool());
        writer = created;
        created.start();
        return true;
    }

    @Override
    public void abort(TransportExchange aborted, Throwable cause) {
        if (exchange == aborted) {
            getEndPoint().close(cause);
        }
    }

    @Override
    public void close() {
        getEndPoint().close();
    }

    @Override
    public boolean isOpen() {
        return !closing && getEndPoint().isOpen();
    }

    /** The head was written: from now on the exchange's own idle timeout applies. Called by the writer. */
    void committed(HttpExchange current) {
        Duration idle = current.idleTimeout();
        if (idle != null) {
            getEndPoint().setIdleTimeout(idle.toMillis());
        }
    }

    /** The whole request was written. Called by the writer's thread. */
    void requestWritten(HttpExchange written) {
        if (written.requestSucceeded()) {
            tryFinish(written);
        }
    }

    /** The request could not be written: the connection closes, and {@link #onClose} deals with the exchange. */
    void requestFailed(HttpExchange failed, Throwable cause) {
        getEndPoint().close(cause);
    }

    /**
     * Ends the exchange when both sides are over: gives the connection back to the pool when
     * it is reusable (or closes it), then tells the listeners. Any thread; once per exchange.
     */
    private void tryFinish(HttpExchange done) {
        if (!done.tryComplete()) {
            return;
        }
        if (EXCHANGE.compareAndSet(this, done, null)) {
            writer = null;
            if (done.isSucceeded() && reusable && generator.isPersistent() && isOpen()) {
                generator.reset();
                getEndPoint().setIdleTimeout(settings.idleTimeout().toMillis());
                destination.release(this);
            } else {
                getEndPoint().close();
            }
        }
        done.complete();
    }

    // ---- closing ----

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        HttpExchange current = exchange;
        if (current == null) {
            // Idle in the pool: closing it evicts it.
            return true;
        }
        getEndPoint().close(new TimeoutException("idle timeout of " + getEndPoint().getIdleTimeout()
                + " ms elapsed for " + current.getRequest()));
        return false;
    }

    @Override
    public void onClose(Throwable cause) {
        closing = true;
        while (true) {
            DemandGate.State state = reading.get();
            if (state == DemandGate.State.STALLED && reading.compareAndSet(state, DemandGate.State.CLOSED)) {
                // The loop left the buffer to whoever demands next: no one will now.
                releaseNetwork();
                break;
            }
            if (state == DemandGate.State.IDLE && reading.compareAndSet(state, DemandGate.State.CLOSED)) {
                break;
            }
            if (state != DemandGate.State.STALLED && state != DemandGate.State.IDLE) {
                // The loop runs and will see the close.
                break;
            }
        }
        Throwable failure = cause != null ? cause
                : new EOFException("the connection to " + destination.getOrigin() + " closed");
        RequestWriter current = writer;
        if (current != null) {
            current.abort(failure);
        }
        HttpExchange carried = (HttpExchange) EXCHANGE.getAndSet(this, null);
        // Out of the pool before the exchange is told, so that whoever learns of the failure
        // (or the retry) never finds this connection there.
        destination.connectionClosed(this, carried == null);
        if (carried != null) {
            exchangeFailed(carried, failure);
            destination.connectionClosed(this, true);
        }
    }

    /**
     * The connection failed under {@code failed}: it is sent again on another connection when
     * the server closed this reused connection before a byte of the response came (a stale
     * keep-alive connection) and the request is idempotent with content that can be read
     * again; otherwise it fails with {@code failure}.
     */
    private void exchangeFailed(HttpExchange failed, Throwable failure) {
        failed.disassociate(this);
        boolean stale = exchanges > 1 && !(failure instanceof TimeoutException)
                && !(parsed == failed && parsing.hasReceived());
        if (stale && failed.retry()) {
            return;
        }
        failed.fail(failure);
        if (failed.tryComplete()) {
            failed.complete();
        }
    }

    // ---- reading ----

    @Override
    public void onFillable() {
        if (reading.compareAndSet(DemandGate.State.IDLE, DemandGate.State.RUNNING)) {
            readLoop();
        }
    }

    /** The read loop; the calling thread owns the loop (state RUNNING) until it returns. */
    private void readLoop() {
        while (true) {
            if (closing) {
                releaseNetwork();
                reading.set(DemandGate.State.CLOSED);
                return;
            }
            RetainableByteBuffer buffer = network;
            boolean bytes = buffer != null && buffer.hasRemaining();
            if (bytes || parserStopped) {
                HttpExchange current = exchange;
                if (current == null) {
                    parserStopped = false;
                    if (bytes) {
                        buffer.clear();
                        getEndPoint().close(new IOException("the server at " + destination.getOrigin()
                                + " sent bytes when no request was outstanding"));
                    }
                    continue;
                }
                prepareParsing(current);
                // A parser that stopped may go on without bytes (the end of a message whose content is all here).
                parserStopped = parser.parseNext(bytes ? buffer.byteBuffer() : ByteBuffers.EMPTY);
                if (!afterParse(current)) {
                    return;
                }
                continue;
            }
            if (drained) {
                drained = false;
                releaseNetworkIfEmpty();
                reading.set(DemandGate.State.IDLE);
                fillInterested();
                return;
            }
            int filled;
            try {
                filled = fill();
            } catch (IOException x) {
                getEndPoint().close(x);
                continue;
            }
            if (filled > 0) {
                drained = getEndPoint().isDrained();
                continue;
            }
            releaseNetworkIfEmpty();
            if (filled == 0 && closing) {
                // Closed meanwhile, or upgraded to HTTP/2 by ALPN while this fill ran the TLS handshake.
                continue;
            }
            if (filled == 0) {
                reading.set(DemandGate.State.IDLE);
                fillInterested();
                return;
            }
            if (!endOfInput()) {
                return;
            }
        }
    }

    /** Readies the parser for the response of {@code current} when it is a new exchange. */
    private void prepareParsing(HttpExchange current) {
        if (parsed != current) {
            parsed = current;
            parsing.begin(current);
            parser.setHeadResponse(current.isHead());
        }
    }

    /**
     * Acts on what the parser stopped for.
     *
     * @return false when the loop must stop (stalled waiting for demand), true to go on
     */
    private boolean afterParse(HttpExchange current) {
        Throwable failure = parsing.takeFailure();
        if (failure != null) {
            getEndPoint().close(failure);
            return true;
        }
        ByteBuffer slice = parsing.takeContent();
        if (slice != null) {
            return deliver(current, slice);
        }
        if (parsing.takeInterimComplete()) {
            boolean proceed = parsing.isContinue();
            parser.reset();
            parser.setHeadResponse(current.isHead());
            RequestWriter current100 = writer;
            if (proceed && current100 != null) {
                current100.onContinue();
            }
            return true;
        }
        if (parsing.takeMessageComplete()) {
            responseComplete(current);
        }
        return true;
    }

    /** @return false when the listeners did not demand more and the loop stalls */
    private boolean deliver(HttpExchange current, ByteBuffer slice) {
        if (current.isResponseOver()) {
            // Aborted: the close that follows stops the loop.
            return true;
        }
        RetainableByteBuffer buffer = network;
        buffer.retain();
        Content.Chunk chunk = Content.Chunk.from(slice, false, buffer);
        reading.delivering();
        try {
            current.responseContent(chunk, demand);
        } finally {
            chunk.release();
        }
        if (!reading.delivered()) {
            // A close that came meanwhile could not take the buffer: take the loop back to release it.
            return closing && reading.compareAndSet(DemandGate.State.STALLED, DemandGate.State.RUNNING);
        }
        return true;
    }

    /** The final response was parsed whole. On the loop's thread. */
    private void responseComplete(HttpExchange current) {
        // A close-delimited response (length unknown, not chunked) ends with the connection.
        boolean closeDelimited = parser.getContentLength() < 0 && !parser.isChunking();
        boolean persistent = parsing.isPersistent() && !closeDelimited && !inputEnded && !closing;
        if (persistent) {
            parser.reset();
        }
        reusable = persistent;
        if (!current.responseSucceeded()) {
            return;
        }
        RequestWriter pending = writer;
        if (pending != null && !current.isRequestOver() && pending.isAwaitingContinue()) {
            reusable = false;
            pending.abort(current.contentNotSentBeforeContinue());
            return;
        }
        tryFinish(current);
    }

    /**
     * The server closed its side.
     *
     * @return false when the loop must stop
     */
    private boolean endOfInput() {
        inputEnded = true;
        parser.atEOF();
        HttpExchange current = exchange;
        if (current != null) {
            prepareParsing(current);
            if (parser.parseNext(ByteBuffers.EMPTY.duplicate()) && !afterParse(current)) {
                return false;
            }
        }
        // Read once: another thread may clear the field (the exchange done, or aborted) between a check and a use.
        HttpExchange unanswered = exchange;
        getEndPoint().close(unanswered == null ? null : new EOFException("the server at " + destination.getOrigin()
                + " closed the connection before answering " + unanswered.getRequest()));
        return true;
    }

    /** Reads into the network buffer (empty here), borrowing a fresh one when chunks still reference it. */
    private int fill() throws IOException {
        if (network != null && network.isRetained()) {
            network.release();
            network = null;
        }
        if (network == null) {
            network = context.byteBufferPool().acquire(settings.responseBufferSize(), true);
        }
        ByteBuffer buffer = network.byteBuffer();
        buffer.position(0).limit(0);
        return getEndPoint().fill(buffer);
    }

    private void releaseNetworkIfEmpty() {
        if (network != null && !network.hasRemaining()) {
            releaseNetwork();
        }
    }

    private void releaseNetwork() {
        RetainableByteBuffer buffer = network;
        network = null;
        if (buffer != null) {
            buffer.release();
        }
    }

    @Override
    public String toString() {
        return "Http1Connection@" + Integer.toHexString(hashCode()) + "{" + reading.get() + ", " + exchange + ", "
                + getEndPoint() + "}";
    }
}
