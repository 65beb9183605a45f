package io.wharf.server.http2.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.http.MimeTypes;
import io.wharf.http.PreEncodedHttpField;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.session.Http2Session;
import io.wharf.http2.session.Http2Stream;
import io.wharf.http2.session.Http2StreamEndPoint;
import io.wharf.http2.session.NetworkReader;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.http2.session.SessionState;
import io.wharf.io.AbstractConnection;
import io.wharf.io.AbstractEndPoint;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.GracefulConnection;
import io.wharf.server.Connector;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.internal.EndPointMetaData;
import io.wharf.server.internal.UriMemory;
import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.RetainableByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's HTTP/2 connection (h2 over TLS, or h2c): reads the network, hands the bytes to an
 * {@link Http2Session}, and turns each stream the client opens into an {@link Http2ServerStream}, whose exchange is
 * handed to the server's handler tree.
 *
 * <p><b>Threads.</b> {@link #onFillable()} is NON_BLOCKING and runs on the selector's thread:
 * it never waits for the application, so control frames (WINDOW_UPDATE, SETTINGS, PING,
 * RST_STREAM) are handled even when every worker is busy. A request goes to the handler tree
 * inline when the tree is NON_BLOCKING, else on the executor, as HTTP/1 does.
 *
 * <p><b>Buffers.</b> The {@link NetworkReader} borrows the network buffer when bytes arrive;
 * DATA chunks retain it, so when chunks of it are still unread the next read takes a fresh
 * buffer, and an empty unreferenced buffer goes back to the pool at once: an idle connection
 * holds none.
 */
public final class Http2ServerConnection extends AbstractConnection
        implements EndPointMetaData, Http2Session.Listener, Connection.UpgradeTo, GracefulConnection {

    private static final Logger LOG = LoggerFactory.getLogger(Http2ServerConnection.class);
    private static final AtomicLong IDS = new AtomicLong();
    private static final HttpField SERVER_FIELD = new PreEncodedHttpField(HttpHeader.SERVER, "wharf");

    private final Connector connector;
    private final HttpConfiguration configuration;
    private final Http2Session session;
    private final String protocol;
    private final long number = IDS.incrementAndGet();
    private final NetworkReader reader;
    /** The client's settings and request of an HTTP/1.1 upgrade, until opened; null otherwise. */
    private Settings upgradeSettings;
    private RequestHead upgradeRequest;
    /** The endpoints of the streams that switched protocols (extended CONNECT), while open. */
    private volatile boolean shuttingDown;
    private final Set<Http2StreamEndPoint> tunnels = ConcurrentHashMap.newKeySet();
    /** The authority the streams name, parsed once (and made a Host field once) while it repeats. */
    private final LastAuthority lastAuthority = new LastAuthority();
    private final UriMemory uriMemory = new UriMemory();

    /** @param protocol what {@link #getProtocol()} says, e.g. {@code "h2"} or {@code "h2c"} */
    public Http2ServerConnection(Connector connector, EndPoint endPoint, HttpConfiguration configuration,
                                 SessionConfiguration sessionConfiguration, String protocol) {
        super(endPoint, connector.getExecutor());
        this.connector = connector;
        this.configuration = configuration;
        this.protocol = protocol;
        this.session = new Http2Session(Http2Session.Role.SERVER, endPoint, connector.getExecutor(), connector.getScheduler(),
                connector.getByteBufferPool(), sessionConfiguration, this);
        this.reader = new NetworkReader(session, connector.getByteBufferPool(), configuration.getInputBufferSize());
    }

    /** @return the session */
    public Http2Session getSession() {
        return session;
    }

    HttpConfiguration configuration() {
        return configuration;
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void onUpgradeTo(RetainableByteBuffer prefilled) {
        reader.prefill(prefilled);
    }

    /** This connection follows an HTTP/1.1 {@code Upgrade: h2c}: the request is answered on stream 1. Before {@link #onOpen()}. */
    void upgradedFrom(Settings settings, RequestHead request) {
        this.upgradeSettings = settings;
        this.upgradeRequest = request;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        session.start();
        if (upgradeRequest != null) {
            RequestHead request = upgradeRequest;
            upgradeRequest = null;
            handle(session.upgrade(upgradeSettings), request, true);
        }
        if (connector.isShutdown()) {
            // Made by an upgrade (ALPN, h2c) after a graceful stop asked the connection before it.
            shutdown();
        }
        if (reader.hasBytes()) {
            onFillable();
        } else {
            fillInterested();
        }
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
            getEndPoint().close();
        } catch (Throwable x) {
            LOG.debug("Reading failed on {}", this, x);
            getEndPoint().close(x);
        }
    }

    /**
     * Nothing moved either way for the idle timeout: unless streams that switched protocols are
     * open (they have idle timeouts of their own), the session says GOAWAY (NO_ERROR) and closes
     * once that is written, failing the streams still open, as HTTP/1.1 fails its request then.
     * When the session was already closing, or a write has waited the whole timeout (the peer
     * does not read, so the GOAWAY would only wait behind it for another timeout), the endpoint
     * closes now.
     */
    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        if (!tunnels.isEmpty()) {
            // A WebSocket (or other tunnel) may idle as long as its own idle timeout allows; it closes itself.
            return false;
        }
        SessionState state = session.getState();
        if (state == SessionState.FAILING || state == SessionState.CLOSED) {
            return true;
        }
        session.failConnection(ErrorCode.NO_ERROR, "idle timeout");
        return getEndPoint() instanceof AbstractEndPoint endPoint && endPoint.isWritePending();
    }

    @Override
    public void onClose(Throwable cause) {
        session.onClose(cause);
        super.onClose(cause);
    }

    /**
     * Graceful close: GOAWAY, the streams under way finish, then the connection closes. The
     * connections running on streams that switched protocols (WebSocket over HTTP/2) are asked to
     * finish too, as those on HTTP/1.1 connections are: a WebSocket closes with 1001.
     */
    @Override
    public void shutdown() {
        shuttingDown = true;
        session.shutdown();
        tunnels.forEach(tunnel -> GracefulConnection.shutdown(tunnel));
    }

    /**
     * A stream switched protocols and its connection is open: it is asked to finish when this
     * connection shuts down, at once if that began already.
     */
    void tunnelOpened(Http2StreamEndPoint tunnel) {
        tunnels.add(tunnel);
        tunnel.setCloseListener(cause -> tunnels.remove(tunnel));
        if (!tunnel.isOpen()) {
            tunnels.remove(tunnel);
        } else if (shuttingDown) {
            GracefulConnection.shutdown(tunnel);
        }
    }

    // ---- Http2Session.Listener, on the reading thread ----

    @Override
    public void onStream(Http2Stream stream, HeaderBlock headers, boolean endStream) {
        // A long :path is 414 even when it made the header list too large: the decoder counts it then too.
        if (headers.pathLength() > configuration.getRequestUriSize()) {
            refuse(stream, HttpStatus.URI_TOO_LONG_414, ":path longer than " + configuration.getRequestUriSize() + " bytes");
            return;
        }
        if (headers.tooLarge()) {
            refuse(stream, HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431,
                    "header list longer than " + session.getConfiguration().getMaxHeaderListSize() + " bytes");
            return;
        }
        // The session reset a malformed request already: this one is well-formed.
        handle(stream, RequestHead.of(headers, stream.getLength(), lastAuthority), endStream);
    }

    /**
     * Answers a request past one of our limits without a handler seeing it, as HTTP/1.1 does: the
     * status, and a line of text naming the limit. The stream ends; the connection lives on.
     */
    private static void refuse(Http2Stream stream, int status, String reason) {
        byte[] text = (status + " " + HttpStatus.getReason(status) + "\n" + reason + "\n").getBytes(StandardCharsets.UTF_8);
        HttpFields.Mutable answer = HttpFields.build(3)
                .add(":status", Integer.toString(status))
                .add(MimeTypes.Type.TEXT_PLAIN_UTF_8.getContentTypeField())
                .add(HttpHeader.CONTENT_LENGTH, Integer.toString(text.length));
        stream.headersAndData(answer, ByteBuffer.wrap(text), true, Callback.NOOP);
    }

    /** Hands a well-formed request (or a pushed one) to the handler tree: inline when it never blocks, else on the executor. */
    void handle(Http2Stream stream, RequestHead head, boolean endStream) {
        io.wharf.server.internal.ServerExchange exchange = new Http2ServerStream(this, stream, head, endStream).exchange();
        var handler = connector.getServer().getHandler();
        InvocationType type = handler == null ? InvocationType.NON_BLOCKING : handler.invocationType();
        Invocable.Task task = Invocable.task(type, exchange::handle);
        if (type == InvocationType.BLOCKING) {
            getExecutor().execute(task);
        } else {
            task.run();
        }
    }

    /**
     * @return the host and port of a request's non-empty {@code :authority} (or {@code Host}),
     *     parsed once per connection while the streams repeat it
     * @throws IllegalArgumentException when it is not an authority
     */
    HostPort authorityOf(String text) {
        return lastAuthority.parse(text);
    }

    /** @return the last URI a stream of this connection built, for the next to reuse while it asks for the same */
    UriMemory uriMemory() {
        return uriMemory;
    }

    /** Adds the {@code Server} and {@code Date} fields the configuration asks for. */
    void addServerFields(HttpFields.Mutable fields) {
        if (configuration.isSendServerVersion() && !fields.contains(HttpHeader.SERVER)) {
            fields.add(SERVER_FIELD);
        }
        if (configuration.isSendDateHeader() && !fields.contains(HttpHeader.DATE)) {
            fields.add(connector.getServer().getDateField().get());
        }
    }

    // ---- ConnectionMetaData ----

    @Override
    public String getId() {
        return Long.toString(number, 36) + "h2";
    }

    /** @return {@code "HTTP/2.0"}, as the request line of HTTP/1 would say */
    @Override
    public String getProtocol() {
        return HttpVersion.HTTP_2.asString();
    }

    /** @return how the connection started: {@code "h2"} (TLS with ALPN) or {@code "h2c"} (cleartext) */
    public String getTransport() {
        return protocol;
    }

    @Override
    public HttpVersion getHttpVersion() {
        return HttpVersion.HTTP_2;
    }

    @Override
    public Connector getConnector() {
        return connector;
    }

    @Override
    public HttpConfiguration getHttpConfiguration() {
        return configuration();
    }

    @Override
    public boolean isPersistent() {
        return session.getState() == SessionState.OPEN;
    }

    @Override
    public String toString() {
        return "Http2ServerConnection@" + getId() + "{" + session + "," + getEndPoint() + "}";
    }
}
