package io.wharf.websocket.client;

import java.io.EOFException;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.wharf.client.HttpClient;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.session.Http2Session;
import io.wharf.http2.session.Http2Stream;
import io.wharf.http2.session.Http2StreamEndPoint;
import io.wharf.http2.session.NetworkReader;
import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslConnection;
import io.wharf.io.ssl.SslEndPoint;
import io.wharf.io.ssl.SslHandshake;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.websocket.core.Extension;
import io.wharf.websocket.core.ExtensionConfig;
import io.wharf.websocket.core.ExtensionNegotiation;

/**
 * The client's side of a WebSocket opening handshake over HTTP/2 (RFC 8441), on a fresh h2 (TLS,
 * ALPN) or h2c (prior knowledge) connection: a client-role {@link Http2Session} that waits for the
 * server's SETTINGS, refuses to go on unless they enable extended CONNECT, sends
 * {@code CONNECT} with {@code :protocol websocket} on a stream, checks the answer ({@code 200},
 * not the end of the stream, a subprotocol and extensions we offered), and then runs the
 * WebSocket connection the {@link HandshakeConnection.Handshake} makes on an
 * {@link Http2StreamEndPoint} over that stream.
 *
 * <p>It is the one class of this module that uses {@code wharf-http2}, which the module requires
 * only statically: {@link WebSocketClient} names it in one method, run only for a session over
 * HTTP/2 once it checked that {@code io.wharf.http2} is there, so a client whose sessions run
 * over HTTP/1.1 never loads it.
 *
 * <p>The connection carries this one WebSocket: once the stream is open the session says GOAWAY
 * (no stream will come from the server), so the connection closes when the stream has ended.
 *
 * <p><b>Threads.</b> NON_BLOCKING, on the selector thread that reads the network; the outcome is
 * told to the handshake once. <b>Buffers.</b> The {@link NetworkReader}'s, as for every HTTP/2
 * connection: borrowed when bytes arrive, released when empty.
 */
final class Http2HandshakeConnection extends AbstractConnection implements Http2Session.Listener, Http2Stream.Listener {

    private final HandshakeConnection.Handshake handshake;
    private final HttpFields request;
    private final Http2Session session;
    private final NetworkReader reader;
    private final String origin;
    private final AtomicBoolean settingsSeen = new AtomicBoolean();
    private final AtomicBoolean done = new AtomicBoolean();

    private Http2HandshakeConnection(EndPoint endPoint, HttpClient client, String origin, HttpFields request,
                                     HandshakeConnection.Handshake handshake) {
        super(endPoint, client.getExecutor());
        this.handshake = handshake;
        this.request = request;
        this.origin = origin;
        this.session = new Http2Session(Http2Session.Role.CLIENT, endPoint, client.getExecutor(), client.getScheduler(),
                client.getByteBufferPool(), client.getHttp2Configuration(), this);
        this.reader = new NetworkReader(session, client.getByteBufferPool(), client.getResponseBufferSize());
    }

    /**
     * @param endPoint the new connection's endpoint; over TLS, the server must pick h2 by ALPN, or
     *     the handshake fails saying what it picked
     * @param origin the server's scheme, host and port, for messages
     * @param request the extended CONNECT's pseudo-headers and fields
     * @return the connection that runs the handshake on {@code endPoint}
     */
    static Connection open(EndPoint endPoint, HttpClient client, String origin, HttpFields request, HandshakeConnection.Handshake handshake) {
        Http2HandshakeConnection connection = new Http2HandshakeConnection(endPoint, client, origin, request, handshake);
        if (endPoint instanceof SslEndPoint tls) {
            tls.getSslConnection().addListener(new SslConnection.Listener() {
                @Override
                public void handshakeSucceeded(SslHandshake tlsHandshake) {
                    String picked = tlsHandshake.applicationProtocol();
                    if (!"h2".equals(picked)) {
                        connection.fail(new WebSocketHandshakeException(0, "WebSocket handshake failed: the server at " + origin
                            + " picked " + (picked.isEmpty() ? "no protocol" : picked) + " by ALPN, not h2"));
                    }
                }
            });
        }
        return connection;
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        session.start();
        fillInterested();
    }

    @Override
    public void onFillable() {
        try {
            if (reader.read() == 0) {
                if (getEndPoint().isOpen()) {
                    fillInterested();
                }
                return;
            }
            getEndPoint().close(new EOFException("the server at " + origin + " closed the HTTP/2 connection"));
        } catch (Throwable x) {
            getEndPoint().close(x);
        }
    }

    /**
     * Nothing moved for the idle timeout: before the answer, the handshake fails; once the
     * WebSocket runs, its own idle timeout governs and the connection stays.
     */
    @Override
    public boolean onIdleExpired(java.util.concurrent.TimeoutException timeout) {
        if (done.get() && session.getStreamCount() > 0) {
            return false;
        }
        fail(timeout);
        return true;
    }

    @Override
    public void onClose(Throwable cause) {
        fail(cause != null ? cause : new ClosedChannelException());
        session.onClose(cause);
        super.onClose(cause);
    }

    // ---- Http2Session.Listener, on the reading thread ----

    @Override
    public void onSettings(Settings settings) {
        if (!settingsSeen.compareAndSet(false, true)) {
            return;
        }
        if (!session.isPeerConnectProtocolEnabled()) {
            fail(new WebSocketHandshakeException(0, "WebSocket handshake failed: the HTTP/2 server at " + origin
                    + " did not enable extended CONNECT (SETTINGS_ENABLE_CONNECT_PROTOCOL), so it takes no WebSocket over HTTP/2 (RFC 8441)"));
            return;
        }
        session.newStream(request, false, this,
                Callback.from(InvocationType.NON_BLOCKING, () -> { }, this::fail));
    }

    @Override
    public void onStream(Http2Stream stream, HeaderBlock headers, boolean endStream) {
        // Servers push only to clients that allow it, and this one does not.
        stream.reject(ErrorCode.PROTOCOL_ERROR);
    }

    @Override
    public void onGoAway(int lastStreamId, ErrorCode error) {
        // Our stream, if refused, was reset with the cause: onReset fails the handshake.
    }

    // ---- Http2Stream.Listener of the CONNECT's stream, until the answer ----

    @Override
    public void onHeaders(Http2Stream stream, HeaderBlock headers, boolean endStream) {
        String status = headers.pseudoHeader(":status");
        if (status != null && status.length() == 3 && status.charAt(0) == '1') {
            return; // An interim answer: the final one follows.
        }
        int code = parseStatus(status);
        HttpFields fields = headers.fields();
        String problem = problem(code, fields, endStream);
        if (problem != null) {
            fail(new WebSocketHandshakeException(code, "WebSocket handshake failed: " + problem));
            stream.reset(ErrorCode.CANCEL);
            return;
        }
        List<Extension> extensions;
        try {
            extensions = handshake.extensions(ExtensionConfig.parse(fields.getValuesList(HttpHeader.SEC_WEBSOCKET_EXTENSIONS)));
        } catch (IllegalArgumentException x) {
            fail(new WebSocketHandshakeException(code, "WebSocket handshake failed: " + x.getMessage()));
            stream.reset(ErrorCode.CANCEL);
            return;
        }
        if (!done.compareAndSet(false, true)) {
            ExtensionNegotiation.close(extensions);
            return;
        }
        Http2StreamEndPoint endPoint = new Http2StreamEndPoint(stream);
        endPoint.setIdleTimeout(getEndPoint().getIdleTimeout());
        Connection next = handshake.upgrade(endPoint, fields.get(HttpHeader.SEC_WEBSOCKET_PROTOCOL), extensions);
        endPoint.setConnection(next);
        endPoint.onOpen();
        // This connection carries the one stream: it closes once the stream ended.
        session.shutdown();
        next.onOpen();
        handshake.opened();
    }

    @Override
    public void onReset(Http2Stream stream, ErrorCode error, Throwable cause) {
        fail(new WebSocketHandshakeException(0, "WebSocket handshake failed: the HTTP/2 server at " + origin
                + " reset the extended CONNECT's stream (" + error + ")"));
    }

    /** @return what is wrong with the answer, or null */
    private String problem(int status, HttpFields fields, boolean endStream) {
        if (status != 200) {
            return "the HTTP/2 server answered " + status + " instead of 200 to the extended CONNECT";
        }
        if (endStream) {
            return "the HTTP/2 server ended the stream with its 200";
        }
        List<String> protocols = fields.getValuesList(HttpHeader.SEC_WEBSOCKET_PROTOCOL);
        if (protocols.size() > 1 || protocols.size() == 1 && !handshake.subprotocols().contains(protocols.get(0))) {
            return "the server picked subprotocol " + protocols + ", which was not offered (offered: " + handshake.subprotocols() + ")";
        }
        return null;
    }

    private static int parseStatus(String status) {
        try {
            return status == null ? 0 : Integer.parseInt(status);
        } catch (NumberFormatException x) {
            return 0;
        }
    }

    /** Fails the handshake once, and closes the connection. */
    void fail(Throwable cause) {
        if (done.compareAndSet(false, true)) {
            handshake.failed(cause);
            session.failConnection(ErrorCode.NO_ERROR, "WebSocket handshake failed");
            getEndPoint().close(cause);
        }
    }

    @Override
    public String toString() {
        return "Http2HandshakeConnection@" + Integer.toHexString(hashCode()) + "{" + session + "," + getEndPoint() + "}";
    }
}
