package io.wharf.websocket.client;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.client.HttpClient;
import io.wharf.client.Origin;
import io.wharf.http.HttpFields;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.util.InvocationType;
import io.wharf.util.OptionalModule;
import io.wharf.util.Promise;
import io.wharf.util.thread.Scheduler;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.core.Extension;
import io.wharf.websocket.core.ExtensionConfig;
import io.wharf.websocket.core.ExtensionFactory;
import io.wharf.websocket.core.ExtensionNegotiation;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.core.WebSocketConnection;
import io.wharf.websocket.endpoint.Endpoints;
import io.wharf.websocket.endpoint.ListenerSession;

/**
 * Opens WebSocket sessions to {@code ws://} and {@code wss://} URIs (RFC 6455 section 4.1):
 * the same {@link WebSocketConnection} core as the server's, in the client's role (every frame
 * masked with a fresh random mask, frames from the server must be unmasked).
 *
 * <pre>
 *  connect(listener, uri, request) ─► HttpClient.connect: TCP, a proxy's tunnel, TLS (the HttpClient's route)
 *      ─► HandshakeConnection: GET + Upgrade ─► 101 checked ─► endpoint.upgrade(WebSocketConnection)
 *      ─► listener.onOpen(session) ─► future completes with the session
 * </pre>
 *
 * <p><b>Over HTTP/2</b> ({@link ClientUpgradeRequest#withHttp2}, RFC 8441) the connect opens an
 * h2 connection ({@code wss://}, offering only h2 by ALPN) or h2c with prior knowledge
 * ({@code ws://}), waits for the server's SETTINGS to enable extended CONNECT, sends
 * {@code CONNECT} with {@code :protocol websocket}, expects {@code 200}, and runs the session on
 * the stream ({@link Http2HandshakeConnection}). Each such session has its connection to itself.
 * Only this path uses {@code wharf-http2}: a client whose sessions run over HTTP/1.1 loads no
 * class of it and runs without it; in a module graph without {@code io.wharf.http2} (or on a
 * class path without its jar) such a connect is refused with an {@link IllegalStateException}
 * that names the module.
 *
 * <p>It stands on a started {@link HttpClient}, which outlives the sessions, and opens its
 * connections along the HttpClient's routes ({@link HttpClient#connect}): its threads, buffer
 * pool, connect and idle timeouts, TLS settings ({@code setSslContext}, trust), Unix domain
 * path and {@linkplain HttpClient#setProxies proxies} serve the sessions too. Through an HTTP
 * proxy the connection is a {@code CONNECT} tunnel, for {@code ws://} as for {@code wss://}
 * (a proxy that forwards requests would not forward the upgraded connection); through a SOCKS5
 * proxy, a SOCKS5 tunnel; a refusing proxy fails the connect with a
 * {@link io.wharf.client.ProxyException} naming it and its answer. A {@code wss://} handshake
 * over HTTP/1.1 offers only {@code http/1.1} by ALPN. The handshake itself is written here
 * rather than sent as an HttpClient request, because the HttpClient's HTTP/1.1 connection has
 * no way yet to leave its pool and hand its endpoint over after a 101; so the HttpClient's
 * cookies and authentication do not apply to WebSocket handshakes (set such fields with
 * {@link ClientUpgradeRequest#withHeader}).
 *
 * <p><b>Extensions.</b> {@link #addExtension} offers an extension in every handshake, for
 * example {@code new PerMessageDeflateFactory()}; the server's answer is checked against it.
 *
 * <p><b>Threads.</b> {@link #connect} may be called from any thread; the future completes on
 * a selector thread (do not block in its dependent stages). Settings apply to later connects.
 */
public final class WebSocketClient {

    private final HttpClient httpClient;
    private final List<ExtensionFactory> extensions = new CopyOnWriteArrayList<>();
    private volatile WebSocketConfiguration configuration = WebSocketConfiguration.defaults();
    private volatile Duration handshakeTimeout = Duration.ofSeconds(15);

    /** @param httpClient the started client whose connector, TLS settings and pools the sessions use */
    public WebSocketClient(HttpClient httpClient) {
        this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
    }

    /** Offers {@code factory}'s extension in every handshake from now on; one factory per name. */
    public WebSocketClient addExtension(ExtensionFactory factory) {
        ExtensionNegotiation.add(extensions, factory);
        return this;
    }

    /** Sets the limits and timeouts of the sessions opened from now on. */
    public void setConfiguration(WebSocketConfiguration configuration) {
        this.configuration = Objects.requireNonNull(configuration, "configuration");
    }

    public WebSocketConfiguration getConfiguration() {
        return configuration;
    }

    /**
     * Sets how long a connect may take in all, from the TCP connect (also bounded by the
     * HttpClient's connect timeout) to the server's 101; 15 s by default.
     */
    public void setHandshakeTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the handshake timeout must be positive: " + timeout);
        }
        this.handshakeTimeout = timeout;
    }

    public Duration getHandshakeTimeout() {
        return handshakeTimeout;
    }

    /** @return a future of the session, see {@link #connect(Object, URI, ClientUpgradeRequest)} */
    public CompletableFuture<Session> connect(Object endpoint, URI uri) {
        return connect(endpoint, uri, ClientUpgradeRequest.defaults());
    }

    /**
     * Opens a session to {@code uri} whose events go to {@code endpoint}: a
     * {@link WebSocketListener} (or {@code WebSocketAdapter}) or an object of a class annotated
     * {@code @WebSocket} (see {@link Endpoints#toListener}).
     *
     * @return a future completed with the open session once the listener's {@code onOpen}
     *     returned (on the thread that ran it: the selector's for a NON_BLOCKING listener), or failed:
     *     a {@link WebSocketHandshakeException} naming what was wrong with the server's answer,
     *     a {@link TimeoutException} past the handshake timeout, the connect's own failure
     * @throws IllegalArgumentException for a URI that is not ws:// or wss:// with a host, or an
     *     endpoint that is neither a listener nor a well-formed annotated object
     * @throws IllegalStateException for a request over HTTP/2 when {@code io.wharf.http2}
     *     (wharf-http2) is missing: not in the module graph, or not on the class path
     */
    public CompletableFuture<Session> connect(Object endpoint, URI uri, ClientUpgradeRequest request) {
        WebSocketListener listener = Endpoints.toListener(endpoint);
        Objects.requireNonNull(request, "request");
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("ws") && !scheme.equals("wss") || uri.getHost() == null) {
            throw new IllegalArgumentException("a WebSocket URI is ws:// or wss:// with a host, not " + uri);
        }
        if (uri.getRawFragment() != null) {
            throw new IllegalArgumentException("a WebSocket URI has no fragment: " + uri);
        }
        if (request.http2()) {
            requireHttp2();
        }
        boolean secure = scheme.equals("wss");
        int port = uri.getPort() > 0 ? uri.getPort() : Origin.defaultPort(scheme);
        Attempt attempt = new Attempt(listener, uri, request, secure, port);
        Origin origin = new Origin(scheme, uri.getHost(), port, null);
        Promise<Connection> connected = Promise.from(InvocationType.NON_BLOCKING, opened -> { }, attempt::failed);
        if (request.http2()) {
            // wss: h2 by ALPN, whatever the HttpClient's transport offers; ws: h2c with prior knowledge.
            httpClient.connect(origin, secure ? List.of("h2") : List.of(), attempt::http2Connection, connected);
        } else {
            // Only http/1.1 by ALPN: a server that prefers h2 must not pick it for an HTTP/1.1 upgrade.
            httpClient.connect(origin, secure ? List.of("http/1.1") : List.of(), attempt::handshakeConnection, connected);
        }
        return attempt.future;
    }

    /**
     * Refuses WebSocket over HTTP/2 when wharf-http2 is missing, before any connection is made:
     * this module only requires {@code io.wharf.http2} statically, and without it the HTTP/2
     * handshake's classes could not load (on a selector thread, once connected).
     */
    private static void requireHttp2() {
        OptionalModule.require(WebSocketClient.class, "io.wharf.http2", "wharf-http2", "io/wharf/http2/session/Http2Session.class",
            "WebSocket over HTTP/2 (ClientUpgradeRequest.withHttp2)");
    }

    /** One connect: the handshake's inputs, its timer and its future. */
    private final class Attempt implements HandshakeConnection.Handshake {
        private final CompletableFuture<Session> future = new CompletableFuture<>();
        private final WebSocketListener listener;
        private final URI uri;
        private final ClientUpgradeRequest request;
        private final boolean secure;
        private final int port;
        private final List<ExtensionFactory> offered = List.copyOf(extensions);
        private final WebSocketConfiguration sessionConfiguration;
        private final Scheduler.Task timer;
        private volatile EndPoint endPoint;

        Attempt(WebSocketListener listener, URI uri, ClientUpgradeRequest request, boolean secure, int port) {
            this.listener = listener;
            this.sessionConfiguration = listener.configure(configuration);
            this.uri = uri;
            this.request = request;
            this.secure = secure;
            this.port = port;
            long millis = handshakeTimeout.toMillis();
            this.timer = httpClient.getScheduler().schedule(() -> failed(
                new TimeoutException("no WebSocket handshake with " + uri + " within " + millis + " ms")), millis, TimeUnit.MILLISECONDS);
        }

        Connection handshakeConnection(EndPoint endPoint) {
            this.endPoint = endPoint;
            if (future.isDone()) {
                endPoint.close();
            }
            return new HandshakeConnection(endPoint, httpClient.getExecutor(), httpClient.getByteBufferPool(), this);
        }

        /**
         * The connection of an HTTP/2 handshake. The one place this class names the HTTP/2
         * handshake, whose class (and wharf-http2's) loads only when this runs.
         */
        Connection http2Connection(EndPoint endPoint) {
            this.endPoint = endPoint;
            if (future.isDone()) {
                endPoint.close();
            }
            return Http2HandshakeConnection.open(endPoint, httpClient, uri.getScheme() + "://" + authority(), http2Request(), this);
        }

        /** @return the host (bracketed when IPv6) and the port when not the scheme's default */
        private String authority() {
            String host = uri.getHost().contains(":") && !uri.getHost().startsWith("[") ? "[" + uri.getHost() + "]" : uri.getHost();
            return port == Origin.defaultPort(uri.getScheme()) ? host : host + ":" + port;
        }

        /** @return the extended CONNECT's pseudo-headers and fields */
        private HttpFields http2Request() {
            HttpFields.Mutable fields = HttpFields.build();
            fields.add(":method", "CONNECT");
            fields.add(":protocol", "websocket");
            fields.add(":scheme", secure ? "https" : "http");
            fields.add(":authority", authority());
            fields.add(":path", target());
            fields.add("sec-websocket-version", "13");
            offeredFields((name, value) -> fields.add(name.toLowerCase(Locale.ROOT), value));
            return fields;
        }

        private String target() {
            String target = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            return uri.getRawQuery() == null ? target : target + "?" + uri.getRawQuery();
        }

        @Override
        public String request(String key) {
            StringBuilder head = new StringBuilder(256);
            head.append("GET ").append(target()).append(" HTTP/1.1\r\n")
                .append("Host: ").append(authority()).append("\r\n")
                .append("Upgrade: websocket\r\nConnection: Upgrade\r\n")
                .append("Sec-WebSocket-Key: ").append(key).append("\r\n")
                .append("Sec-WebSocket-Version: 13\r\n");
            offeredFields((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            return head.append("\r\n").toString();
        }

        /**
         * Gives {@code field} what both handshakes offer after their own fields, in order: the
         * subprotocols, the extensions, the HttpClient's User-Agent unless the request sets one,
         * then the request's own fields.
         */
        private void offeredFields(java.util.function.BiConsumer<String, String> field) {
            if (!request.subprotocols().isEmpty()) {
                field.accept("Sec-WebSocket-Protocol", String.join(", ", request.subprotocols()));
            }
            String offers = ExtensionConfig.format(ExtensionNegotiation.offers(offered));
            if (offers != null) {
                field.accept("Sec-WebSocket-Extensions", offers);
            }
            String userAgent = httpClient.getUserAgent();
            if (userAgent != null && request.headers().keySet().stream().noneMatch(name -> name.equalsIgnoreCase("User-Agent"))) {
                field.accept("User-Agent", userAgent);
            }
            for (Map.Entry<String, String> header : request.headers().entrySet()) {
                field.accept(header.getKey(), header.getValue());
            }
        }

        @Override
        public List<String> subprotocols() {
            return request.subprotocols();
        }

        @Override
        public List<Extension> extensions(List<ExtensionConfig> answer) {
            return ExtensionNegotiation.acceptResponse(offered, answer, httpClient.getByteBufferPool());
        }

        @Override
        public Connection upgrade(EndPoint endPoint, String subprotocol, List<Extension> agreed) {
            timer.cancel();
            ListenerSession session = new ListenerSession(listener, future);
            return new WebSocketConnection(endPoint, httpClient.getExecutor(), httpClient.getScheduler(),
                httpClient.getByteBufferPool(), sessionConfiguration, true, subprotocol, agreed, session);
        }

        @Override
        public void opened() {
            // The future completes once the listener's onOpen returned (ListenerSession), on its thread.
        }

        @Override
        public void failed(Throwable cause) {
            timer.cancel();
            if (future.completeExceptionally(cause)) {
                EndPoint current = endPoint;
                if (current != null) {
                    current.close(cause);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "WebSocketClient@" + Integer.toHexString(hashCode()) + "{" + httpClient + "}";
    }
}
