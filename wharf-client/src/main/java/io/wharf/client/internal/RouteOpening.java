package io.wharf.client.internal;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

import io.wharf.client.HttpClient;
import io.wharf.client.Origin;
import io.wharf.client.Proxy;
import io.wharf.client.ProxyException;
import io.wharf.io.ClientConnector;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslConnection;
import io.wharf.io.ssl.SslEndPoint;
import io.wharf.io.ssl.SslHandshake;
import io.wharf.util.InvocationType;
import io.wharf.util.Promise;

/**
 * Opens one connection of a destination along its route, and gives it to the pool only once it
 * can carry exchanges. Each step is a connection on the same network endpoint, which
 * {@linkplain EndPoint#upgrade upgrades} to the next when it is done:
 * <pre>
 *  TCP to the first hop ──► proxy tunnel ──────────────► TLS handshake ──────► Http1Connection ready
 *  (the origin, the proxy,    (CONNECT: HttpConnectTunnel;  (https: SslConnection,   (promise succeeded)
 *   or the Unix socket)        SOCKS5: Socks5Tunnel)         SNI, ALPN, checks)
 * </pre>
 * A tunnel is there for https through an HTTP proxy and for every request through a SOCKS5
 * proxy; plain http through an HTTP proxy needs none (see {@link ForwardProxy}). TLS runs end
 * to end with the origin, inside the tunnel: SNI and host name verification use the origin's
 * host, never the proxy's.
 *
 * <p>The promise is completed once: with the {@link Http1Connection} when the last step is done
 * (for plain http, when TCP connects; for https, when the handshake succeeded), or with the
 * first failure, which names the step, the origin and the proxy: a {@link ProxyException} from
 * a tunnel, an {@link javax.net.ssl.SSLHandshakeException} from TLS (see {@link TlsFailure}), a
 * {@link java.util.concurrent.TimeoutException} from a proxy or server silent past the idle
 * timeout. The connect timeout bounds the TCP connect; each later step is bounded by the idle
 * timeout.
 *
 * <h2>HTTP/2</h2>
 * ALPN offers {@link Transport#applicationProtocols()} (the client sets them on its connector at
 * start). When the server picks {@code h2}, {@link #handshakeSucceeded}, which runs before any
 * application byte is read, upgrades the decrypted endpoint from the HTTP/1.1 connection made
 * for it to an {@link Http2ClientConnection}; a transport that speaks h2c with prior knowledge
 * makes that connection on the plain endpoint at once. Either is ready, and the promise
 * completed through {@link #opened}, as soon as its preface is queued: it then carries one
 * exchange until the server's first SETTINGS say how many. The tunnel steps, SNI and the
 * certificate checks do not change.
 *
 * <p><b>Threads.</b> {@link #start()} runs on a pool thread (resolving the first hop's name may
 * block); the steps run on the selector thread that reads their bytes, and the promise is told
 * there (it must not block). <b>Buffers.</b> None here: each step owns its own.
 */
final class RouteOpening {

    private final HttpClient client;
    private final ClientConnector connector;
    private final HttpDestination destination;
    private final Promise<ClientConnection> promise;
    private final Origin origin;
    private final Proxy proxy;
    private final boolean tunnel;
    private final boolean secure;
    private final boolean cleartextHttp2;
    private final boolean http1;
    private final AtomicBoolean done = new AtomicBoolean();
    /** The HTTP/1.1 connection of the last step, once made (on the selector thread). */
    private volatile Http1Connection http;

    /**
     * @param cleartextHttp2 whether plain http speaks HTTP/2 with prior knowledge (h2c) rather than HTTP/1.1
     * @param http1 whether a TLS server may pick {@code http/1.1} (or no protocol) rather than {@code h2}
     */
    RouteOpening(HttpClient client, ClientConnector connector, HttpDestination destination,
                 Promise<ClientConnection> promise, boolean cleartextHttp2, boolean http1) {
        this.http1 = http1;
        this.client = client;
        this.connector = connector;
        this.destination = destination;
        this.promise = promise;
        this.origin = destination.getOrigin();
        this.proxy = destination.getProxy();
        this.secure = "https".equals(origin.scheme());
        this.tunnel = proxy != null && (proxy.getKind() == Proxy.Kind.SOCKS5 || secure);
        // A forwarding HTTP proxy (plain http, no tunnel) is spoken to in HTTP/1.1 with absolute targets.
        this.cleartextHttp2 = cleartextHttp2 && (proxy == null || tunnel);
    }

    Origin origin() {
        return origin;
    }

    Proxy proxy() {
        return proxy;
    }

    HttpClient client() {
        return client;
    }

    /** Resolves the first hop and connects to it. On a pool thread. */
    void start() {
        SocketAddress firstHop;
        try {
            firstHop = firstHop();
        } catch (RuntimeException x) {
            failed(x);
            return;
        }
        connector.connect(firstHop, this::firstStep,
                Promise.from(InvocationType.NON_BLOCKING, this::connected, this::connectFailed));
    }

    private SocketAddress firstHop() {
        Path unixSocket = client.getUnixDomainPath();
        if (unixSocket != null) {
            return UnixDomainSocketAddress.of(unixSocket);
        }
        String host = proxy != null ? proxy.getHost() : origin.host();
        int port = proxy != null ? proxy.getPort() : origin.port();
        InetSocketAddress address = new InetSocketAddress(unbracketed(host), port);
        if (address.isUnresolved()) {
            String what = proxy != null ? "the host of proxy " + proxy + " for " : "the host of ";
            throw new IllegalArgumentException("cannot resolve " + what + origin);
        }
        return address;
    }

    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** @return the connection of the first step on the new network endpoint. On the selector thread. */
    private Connection firstStep(EndPoint network) {
        if (!tunnel) {
            return lastSteps(network);
        }
        return proxy.getKind() == Proxy.Kind.HTTP ? new HttpConnectTunnel(network, this) : new Socks5Tunnel(network, this);
    }

    /** @return the HTTP/1.1 connection on {@code network}, behind TLS for https */
    private Connection lastSteps(EndPoint network) {
        if (!secure && cleartextHttp2) {
            // Ready once its preface is queued: the connection calls opened() when it opens.
            return new Http2ClientConnection(network, destination, this);
        }
        if (!secure) {
            Http1Connection plain = new Http1Connection(network, destination);
            http = plain;
            return plain;
        }
        SocketAddress peer = InetSocketAddress.createUnresolved(unbracketed(origin.host()), origin.port());
        SslConnection tls = connector.getSslConnectionFactory().newConnection(network, peer, client.getExecutor(),
                client.getByteBufferPool(), decrypted -> {
                    Http1Connection carried = new Http1Connection(decrypted, destination);
                    http = carried;
                    return carried;
                });
        tls.addListener(new SslConnection.Listener() {
            @Override
            public void handshakeSucceeded(SslHandshake handshake) {
                RouteOpening.this.handshakeSucceeded(handshake);
            }

            @Override
            public void handshakeFailed(SslEndPoint endPoint, Throwable cause) {
                failed(TlsFailure.describe(origin, proxy, endPoint.getIdleTimeout(), cause));
            }
        });
        return tls;
    }

    /** TCP connected and the first step opened: for plain http without a tunnel, that was the last step. */
    private void connected(Connection first) {
        if (!tunnel && !secure && !cleartextHttp2) {
            succeeded();
        }
    }

    private void connectFailed(Throwable cause) {
        if (proxy == null) {
            failed(cause);
        } else if (cause instanceof SocketTimeoutException) {
            // Still a SocketTimeoutException: the destination turns it into the TimeoutException it documents.
            SocketTimeoutException timeout = new SocketTimeoutException("connecting to proxy " + proxy + " timed out");
            timeout.initCause(cause);
            failed(timeout);
        } else {
            failed(new ProxyException(proxy, "cannot connect to proxy " + proxy + " for " + origin + ": " + cause, cause));
        }
    }

    /** The tunnel through the proxy is open: the endpoint goes on to TLS or HTTP. On the tunnel's reading thread. */
    void tunnelEstablished(EndPoint network) {
        network.upgrade(lastSteps(network));
        if (!secure && !cleartextHttp2) {
            succeeded();
        }
    }

    /**
     * The handshake succeeded: the connection can carry exchanges. ALPN chose {@code http/1.1}
     * or nothing (a server without ALPN): the JDK engine refuses, as RFC 7301 asks, a protocol
     * it did not offer.
     */
    private void handshakeSucceeded(SslHandshake handshake) {
        if ("h2".equals(handshake.applicationProtocol())) {
            // Before any application byte is read: the decrypted endpoint speaks HTTP/2 from now on,
            // and the connection calls opened() once its preface is queued.
            handshake.endPoint().upgrade(new Http2ClientConnection(handshake.endPoint(), destination, this));
            return;
        }
        if (!http1) {
            String picked = handshake.applicationProtocol();
            handshake.endPoint().close(new javax.net.ssl.SSLHandshakeException("the server at " + origin + " picked "
                    + (picked == null || picked.isEmpty() ? "no protocol" : picked) + " by ALPN, not h2, which this client speaks"));
            return;
        }
        succeeded();
    }

    private void succeeded() {
        opened(http);
    }

    /** The last step's connection can carry exchanges: the promise gets it, once. On the connection's thread. */
    void opened(ClientConnection ready) {
        if (done.compareAndSet(false, true)) {
            promise.succeeded(ready);
        }
    }

    /** Fails the opening with {@code cause}, once; later failures (the close that follows) are dropped. */
    void failed(Throwable cause) {
        if (done.compareAndSet(false, true)) {
            promise.failed(cause);
        }
    }

    @Override
    public String toString() {
        return "RouteOpening[" + origin + (proxy == null ? "" : " via " + proxy) + "]";
    }
}
