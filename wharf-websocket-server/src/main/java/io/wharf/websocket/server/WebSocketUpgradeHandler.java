package io.wharf.websocket.server;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpVersion;
import io.wharf.server.Connector;
import io.wharf.server.Handler;
import io.wharf.server.ProtocolUpgrade;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.core.Extension;
import io.wharf.websocket.core.ExtensionConfig;
import io.wharf.websocket.core.ExtensionFactory;
import io.wharf.websocket.core.ExtensionNegotiation;
import io.wharf.websocket.core.HandshakeKey;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.core.WebSocketConnection;
import io.wharf.websocket.endpoint.Endpoints;
import io.wharf.websocket.endpoint.ListenerSession;

/**
 * A server {@link Handler} that turns WebSocket opening handshakes (RFC 6455 section 4.2) on
 * mapped paths into sessions. For a request to a mapped path it checks, in order:
 * <ol>
 * <li>an {@code Upgrade} field at all — without one, 426 with {@code Upgrade: websocket} and
 *     {@code Sec-WebSocket-Version: 13} (the resource speaks only WebSocket);</li>
 * <li>GET, HTTP/1.1, {@code Upgrade: websocket}, {@code Connection: upgrade} — else 400 naming
 *     what is wrong;</li>
 * <li>{@code Sec-WebSocket-Version: 13} — else 426 with {@code Sec-WebSocket-Version: 13};</li>
 * <li>a {@code Sec-WebSocket-Key} of 16 bytes in base64 — else 400;</li>
 * <li>the origin check ({@link #setOriginCheck}) — else 403;</li>
 * <li>the path's {@link WebSocketCreator}, which may pick a subprotocol or refuse.</li>
 * </ol>
 * Then it answers 101 with {@code Sec-WebSocket-Accept} through
 * {@link ProtocolUpgrade#accept}, and the endpoint becomes a {@link WebSocketConnection}.
 *
 * <p><b>Over HTTP/2</b> (RFC 8441) the handshake is an extended CONNECT with
 * {@code :protocol websocket} on a stream, which the server accepts when its HTTP/2 factory
 * announces SETTINGS_ENABLE_CONNECT_PROTOCOL (the default). There is no {@code Upgrade},
 * {@code Connection} or {@code Sec-WebSocket-Key}: another HTTP/2 request to a mapped path gets
 * 426, a {@code :protocol} other than websocket 400; the version, origin, creator, subprotocol
 * and extension steps are the same. The answer is {@code 200} without {@code Sec-WebSocket-Accept},
 * and the session runs on the stream while the connection's other streams go on.
 * Requests to other paths, and those without a path ({@code CONNECT host:port}, {@code OPTIONS *}),
 * are passed on ({@code handle} returns false). Extensions the client
 * offers in {@code Sec-WebSocket-Extensions} are negotiated with the factories added by
 * {@link #addExtension} (a malformed field gets 400); those agreed are named in the answer and
 * run in the session. None are added by default.
 *
 * <p><b>Threads.</b> NON_BLOCKING by default: the checks and the creator run on the thread
 * that read the request. Declare it BLOCKING when a creator blocks (looks up a database).
 * Mappings and settings may change while the server runs.
 */
public final class WebSocketUpgradeHandler extends Handler.Abstract {

    private final Map<String, WebSocketCreator> mappings = new ConcurrentHashMap<>();
    private final List<ExtensionFactory> extensions = new CopyOnWriteArrayList<>();
    private volatile WebSocketConfiguration configuration = WebSocketConfiguration.defaults();
    private volatile Predicate<String> originCheck = origin -> true;

    /** A NON_BLOCKING handler: creators must not block. */
    public WebSocketUpgradeHandler() {
        this(InvocationType.NON_BLOCKING);
    }

    /** @param invocationType whether the creators may block */
    public WebSocketUpgradeHandler(InvocationType invocationType) {
        super(invocationType);
    }

    /**
     * Maps an exact path (as {@link Request#getPathInContext()} gives it) to a creator.
     *
     * @throws IllegalArgumentException when {@code path} does not start with {@code '/'}: only
     *     such a path names a resource ({@code CONNECT host:port} and {@code OPTIONS *} have an
     *     empty path in context and are passed on)
     */
    public WebSocketUpgradeHandler addMapping(String path, WebSocketCreator creator) {
        Objects.requireNonNull(path, "path");
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("a WebSocket mapping is a path starting with '/', not \"" + path + "\"");
        }
        mappings.put(path, Objects.requireNonNull(creator, "creator"));
        return this;
    }

    /**
     * Maps an exact path to an endpoint class: each session gets a new instance, made with
     * its public no-argument constructor. The class (a {@code WebSocketListener} or annotated
     * {@code @WebSocket}) is checked now.
     *
     * @throws IllegalArgumentException for a class that is no endpoint, has a bad annotated
     *     method, or no accessible no-argument constructor
     */
    public WebSocketUpgradeHandler addMapping(String path, Class<?> endpointClass) {
        Endpoints.check(endpointClass);
        java.lang.reflect.Constructor<?> constructor;
        try {
            constructor = endpointClass.getConstructor();
        } catch (NoSuchMethodException x) {
            throw new IllegalArgumentException(endpointClass.getName() + " has no public no-argument constructor", x);
        }
        return addMapping(path, (request, response) -> {
            try {
                return constructor.newInstance();
            } catch (ReflectiveOperationException x) {
                throw new IllegalStateException("cannot make a " + endpointClass.getName() + ": " + x, x);
            }
        });
    }

    /**
     * Sets the check of the {@code Origin} field (null when the client sent none); a request it
     * rejects gets 403. By default every origin passes: browsers send one, so a server whose
     * sessions carry cookies should allow only its own pages (against cross-site WebSocket hijacking).
     */
    public void setOriginCheck(Predicate<String> originCheck) {
        this.originCheck = Objects.requireNonNull(originCheck, "originCheck");
    }

    /**
     * Offers an extension to the clients that ask for it, for example
     * {@code new PerMessageDeflateFactory()}; one factory per extension name.
     */
    public WebSocketUpgradeHandler addExtension(ExtensionFactory factory) {
        ExtensionNegotiation.add(extensions, factory);
        return this;
    }

    /** Sets the limits and timeouts of the sessions created from now on. */
    public void setConfiguration(WebSocketConfiguration configuration) {
        this.configuration = Objects.requireNonNull(configuration, "configuration");
    }

    public WebSocketConfiguration getConfiguration() {
        return configuration;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        WebSocketCreator creator = mappings.get(request.getPathInContext());
        if (creator == null) {
            return false;
        }
        HttpFields headers = request.getHeaders();
        boolean http2 = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2;
        if (http2) {
            ProtocolUpgrade offer = request.getProtocolUpgrade();
            if (offer == null) {
                return upgradeRequired(response, callback,
                    "this resource speaks WebSocket: over HTTP/2 ask with an extended CONNECT, :protocol websocket (RFC 8441)\n");
            }
            if (!offer.getOfferedProtocols().contains("websocket")) {
                Response.writeError(request, response, callback, 400, ":protocol is " + offer.getOfferedProtocols().get(0)
                    + ", not websocket");
                return true;
            }
        } else {
            if (!headers.contains(HttpHeader.UPGRADE)) {
                return upgradeRequired(response, callback, "this resource speaks WebSocket: ask with Upgrade: websocket\n");
            }
            String problem = problemOf(request, headers);
            if (problem != null) {
                Response.writeError(request, response, callback, 400, problem);
                return true;
            }
        }
        if (!"13".equals(headers.get(HttpHeader.SEC_WEBSOCKET_VERSION))) {
            return upgradeRequired(response, callback, "unsupported Sec-WebSocket-Version: "
                + headers.get(HttpHeader.SEC_WEBSOCKET_VERSION) + "; this server speaks 13\n");
        }
        // Over HTTP/2 there is no key: the stream itself proves the handshake (RFC 8441 section 5).
        String key = headers.get(HttpHeader.SEC_WEBSOCKET_KEY);
        if (!http2 && !HandshakeKey.isValid(key)) {
            Response.writeError(request, response, callback, 400,
                key == null ? "no Sec-WebSocket-Key" : "Sec-WebSocket-Key is not 16 bytes in base64");
            return true;
        }
        String origin = headers.get(HttpHeader.ORIGIN);
        if (!originCheck.test(origin)) {
            Response.writeError(request, response, callback, 403, "origin not allowed: " + origin);
            return true;
        }
        List<String> offered = headers.getCommaSeparated(HttpHeader.SEC_WEBSOCKET_PROTOCOL);
        UpgradeResponse answer = new UpgradeResponse(offered);
        Object endpoint = creator.create(new UpgradeRequest(request, origin, offered), answer);
        if (endpoint == null || answer.getRefusedStatus() != 0) {
            int status = answer.getRefusedStatus() != 0 ? answer.getRefusedStatus() : 403;
            String reason = answer.getRefusedReason() != null ? answer.getRefusedReason() : "WebSocket handshake refused";
            Response.writeError(request, response, callback, status, reason);
            return true;
        }
        WebSocketListener listener;
        try {
            listener = Endpoints.toListener(endpoint);
        } catch (IllegalArgumentException x) {
            Response.writeError(request, response, callback, 500, "no WebSocket endpoint: " + x.getMessage());
            return true;
        }
        Connector connector = request.getConnectionMetaData().getConnector();
        List<Extension> agreed;
        try {
            agreed = ExtensionNegotiation.acceptOffers(extensions,
                ExtensionConfig.parse(headers.getValuesList(HttpHeader.SEC_WEBSOCKET_EXTENSIONS)), connector.getByteBufferPool());
        } catch (IllegalArgumentException x) {
            Response.writeError(request, response, callback, 400, "bad Sec-WebSocket-Extensions: " + x.getMessage());
            return true;
        }
        HttpFields.Mutable fields = HttpFields.build();
        if (!http2) {
            fields.add(HttpHeader.SEC_WEBSOCKET_ACCEPT.asString(), HandshakeKey.accept(key));
        }
        String subprotocol = answer.getSubprotocol();
        if (subprotocol != null) {
            fields.add(HttpHeader.SEC_WEBSOCKET_PROTOCOL.asString(), subprotocol);
        }
        String extensionsAnswer = ExtensionConfig.format(agreed.stream().map(Extension::config).toList());
        if (extensionsAnswer != null) {
            fields.add(HttpHeader.SEC_WEBSOCKET_EXTENSIONS.asString(), extensionsAnswer);
        }
        WebSocketConfiguration sessionConfiguration = listener.configure(configuration);
        request.getProtocolUpgrade().accept("websocket", fields, endPoint -> new WebSocketConnection(endPoint,
            connector.getExecutor(), connector.getScheduler(), connector.getByteBufferPool(), sessionConfiguration,
            false, subprotocol, agreed, new ListenerSession(listener)));
        callback.succeeded();
        return true;
    }

    /** @return what makes this request no WebSocket handshake (RFC 6455 section 4.2.1), or null */
    private static String problemOf(Request request, HttpFields headers) {
        if (!"GET".equals(request.getMethod())) {
            return "a WebSocket handshake is a GET, not " + request.getMethod();
        }
        if (request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_1_1) {
            return "a WebSocket handshake is HTTP/1.1, not " + request.getConnectionMetaData().getHttpVersion();
        }
        if (!headers.contains(HttpHeader.UPGRADE, "websocket")) {
            return "Upgrade does not offer websocket: " + headers.get(HttpHeader.UPGRADE);
        }
        if (!headers.contains(HttpHeader.CONNECTION, "upgrade") || request.getProtocolUpgrade() == null) {
            return "Connection does not name upgrade";
        }
        return null;
    }

    private static boolean upgradeRequired(Response response, Callback callback, String message) {
        response.setStatus(426);
        response.getHeaders().put(HttpHeader.SEC_WEBSOCKET_VERSION, "13");
        response.getHeaders().put(HttpHeader.UPGRADE, "websocket");
        response.getHeaders().put(HttpHeader.CONNECTION, "Upgrade");
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
        Response.write(response, true, message, callback);
        return true;
    }
}
