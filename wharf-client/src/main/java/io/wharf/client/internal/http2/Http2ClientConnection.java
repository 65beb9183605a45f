package io.wharf.client.internal.http2;

import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.wharf.client.internal.ClientContext;
import io.wharf.client.internal.HttpDestination;
import io.wharf.client.internal.HttpExchange;
import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.TransportExchange;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.session.Http2Session;
import io.wharf.http2.session.Http2Stream;
import io.wharf.http2.session.NetworkReader;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.http2.session.SessionState;
import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.util.InvocationType;
import io.wharf.util.Promise;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * A client's HTTP/2 connection (h2 after ALPN, or h2c with prior knowledge): reads the network
 * into a client-role {@link Http2Session} and carries many exchanges at once, each on a stream
 * of its own ({@link Http2ClientStream}). It is ready for its pool as soon as its preface and
 * SETTINGS are queued, carrying one exchange: the first request goes with the preface instead of
 * a round trip later. The server's first SETTINGS then say how many it may carry
 * (SETTINGS_MAX_CONCURRENT_STREAMS, {@link #DEFAULT_MAX_MULTIPLEX} when absent; see
 * {@code MultiplexConnectionPool.setMaxMultiplex}), and later SETTINGS change it.
 *
 * <p><b>Threads.</b> {@link #onFillable()} is NON_BLOCKING and runs on a selector thread; the
 * session tells streams and this listener there. {@link #send}, {@link #abort} and
 * {@link #close} come from any thread. <b>Buffers.</b> The {@link NetworkReader} borrows the
 * network buffer when bytes arrive and releases it when empty and unreferenced; DATA chunks are
 * slices that retain it (the session's rules).
 */
public final class Http2ClientConnection extends AbstractConnection
        implements ClientConnection, Http2Session.Listener, Connection.UpgradeTo {

    /** How many exchanges a connection carries when the server sets no SETTINGS_MAX_CONCURRENT_STREAMS. */
    static final int DEFAULT_MAX_MULTIPLEX = 100;

    private final HttpDestination destination;
    private final ClientContext context;
    /** Told once when the preface is queued, or when the connection closed before. */
    private final Promise<ClientConnection> opening;
    private final Http2Session session;
    private final Map<HttpExchange, Http2ClientStream> carried = new ConcurrentHashMap<>();
    private final AtomicBoolean settingsReceived = new AtomicBoolean();
    private volatile int maxMultiplex = 1;
    /** Whether a whole response came on this connection: a stream opened after it is on a reused connection. */
    private volatile boolean responded;
    private volatile boolean goAwayReceived;
    /** Whether the server ended the connection: its end of input, or a reset. */
    private volatile boolean serverClosed;
    private final NetworkReader reader;

    public Http2ClientConnection(EndPoint endPoint, HttpDestination destination, SessionConfiguration configuration,
                                 Promise<ClientConnection> opening) {
        super(endPoint, destination.context().executor());
        this.destination = destination;
        this.context = destination.context();
        this.opening = opening;
        this.session = new Http2Session(Http2Session.Role.CLIENT, endPoint, context.executor(), context.scheduler(),
                context.byteBufferPool(), configuration, this);
        this.reader = new NetworkReader(session, context.byteBufferPool(), context.settings().responseBufferSize());
    }

    Http2Session session() {
        return session;
    }

    ClientContext context() {
        return context;
    }

    HttpDestination destination() {
        return destination;
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void onUpgradeTo(RetainableByteBuffer prefilled) {
        reader.prefill(prefilled);
    }

    @Override
    public void onOpen() {
        super.onOpen();
        session.start();
        opening.succeeded(this);
        if (reader.hasBytes()) {
            onFillable();
        } else {
            fillInterested();
        }
    }

    /** @return how many exchanges this connection may carry at once: one until the server's SETTINGS say */
    @Override
    public int getMaxMultiplex() {
        return maxMultiplex;
    }

    // ---- ClientConnection ----

    @Override
    public boolean send(TransportExchange sent) {
        if (!isOpen()) {
            return false;
        }
        // The client's own exchange (it makes no other): a push makes exchanges of its kind.
        HttpExchange exchange = (HttpExchange) sent;
        Http2ClientStream stream = new Http2ClientStream(this, exchange);
        carried.put(exchange, stream);
        stream.start();
        return true;
    }

    @Override
    public void abort(TransportExchange exchange, Throwable cause) {
        Http2ClientStream stream = carried.get(exchange);
        if (stream != null) {
            stream.cancel();
        }
    }

    @Override
    public boolean isOpen() {
        return session.getState() == SessionState.OPEN && getEndPoint().isOpen();
    }

    @Override
    public void close() {
        session.failConnection(ErrorCode.NO_ERROR, "closed by the client");
        getEndPoint().close();
    }

    /**
     * Forgets {@code exchange} and gives its hold on this connection back to the pool, once:
     * whoever ends the exchange first (its end, its reset, its abort) does it.
     *
     * @return whether this call forgot it
     */
    boolean forget(HttpExchange exchange) {
        if (carried.remove(exchange) == null) {
            return false;
        }
        destination.release(this);
        return true;
    }

    /** A whole response came on this connection. Per response: a read, and a write only the first time. */
    void responded() {
        if (!responded) {
            responded = true;
        }
    }

    /** @return whether a whole response came on this connection */
    boolean hasResponded() {
        return responded;
    }

    /**
     * @return whether the server ended this connection (end of input, or a reset) without a
     *     GOAWAY: whether the streams it carried were processed is then unknown
     */
    boolean closedByServerWithoutGoAway() {
        return serverClosed && !goAwayReceived;
    }

    /** Drops {@code exchange} without giving its hold back: the connection left its pool already, or will. */
    void drop(HttpExchange exchange) {
        carried.remove(exchange);
    }

    // ---- reading ----

    @Override
    public void onFillable() {
        try {
            if (reader.read() == 0) {
                if (getEndPoint().isOpen()) {
                    fillInterested();
                }
                return;
            }
            serverClosed = true;
            getEndPoint().close(new EOFException("the server at " + destination.getOrigin() + " closed the HTTP/2 connection"));
        } catch (Throwable x) {
            serverClosed = x instanceof IOException;
            getEndPoint().close(x);
        }
    }

    // ---- closing ----

    /**
     * Nothing moved for the idle timeout: an idle pooled connection closes (and so leaves its
     * pool); one carrying exchanges fails them with a {@link TimeoutException} and closes.
     */
    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        if (carried.isEmpty()) {
            return true;
        }
        TimeoutException cause = new TimeoutException("idle timeout of " + getEndPoint().getIdleTimeout()
                + " ms elapsed on the HTTP/2 connection to " + destination.getOrigin());
        // Out of the pool before the exchanges hear of it, so that what they send next goes elsewhere.
        destination.connectionClosed(this, false);
        for (Http2ClientStream stream : List.copyOf(carried.values())) {
            stream.fail(cause);
        }
        getEndPoint().close(cause);
        return false;
    }

    @Override
    public void onClose(Throwable cause) {
        // Out of the pool first, so that exchanges sent again never find this connection there.
        destination.connectionClosed(this, false);
        opening.failed(cause != null ? cause : new EOFException("the HTTP/2 connection to " + destination.getOrigin()
                + " closed before it opened"));
        session.onClose(cause);
        super.onClose(cause);
        if (context.isRunning()) {
            destination.process();
        }
    }

    // ---- Http2Session.Listener, on the reading thread ----

    @Override
    public void onStream(Http2Stream stream, HeaderBlock headers, boolean endStream) {
        // A server opens no stream by HEADERS: its pushes come as PUSH_PROMISE (Http2ClientStream.onPush).
        stream.reject(ErrorCode.PROTOCOL_ERROR);
    }

    @Override
    public void onSettings(Settings settings) {
        boolean first = settingsReceived.compareAndSet(false, true);
        if (settings.contains(Setting.MAX_CONCURRENT_STREAMS)) {
            maxMultiplex = (int) Math.max(0, Math.min(Integer.MAX_VALUE, settings.get(Setting.MAX_CONCURRENT_STREAMS)));
        } else if (first) {
            maxMultiplex = DEFAULT_MAX_MULTIPLEX;
        } else {
            return;
        }
        destination.setMaxMultiplex(this, maxMultiplex);
    }

    @Override
    public void onGoAway(int lastStreamId, ErrorCode error) {
        goAwayReceived = true;
        // No new stream here: out of the pool, so that queued exchanges get another connection.
        destination.connectionClosed(this, true);
    }

    @Override
    public String toString() {
        return "Http2ClientConnection@" + Integer.toHexString(hashCode()) + "{" + session + ", " + carried.size()
                + " exchanges, " + getEndPoint() + "}";
    }
}
