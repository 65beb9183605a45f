package io.wharf.client.internal.route;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import io.wharf.client.Origin;
import io.wharf.client.Proxy;
import io.wharf.client.ProxyException;
import io.wharf.io.connect.ClientConnector;
import io.wharf.client.transport.ClientSettings;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslConnection;
import io.wharf.io.ssl.SslEndPoint;
import io.wharf.io.ssl.SslHandshake;
import io.wharf.util.InvocationType;
import io.wharf.util.Promise;

/**
 * Opens one network connection to an origin along its route. Each step is a connection on the
 * same network endpoint, which {@linkplain EndPoint#upgrade upgrades} to the next when it is done:
 * <pre>
 *  TCP to the first hop ──► proxy tunnel ──────────────► TLS handshake ──────► the subclass's connection
 *  (the origin, the proxy,    (CONNECT: HttpConnectTunnel;  (https, wss: SslConnection,
 *   or the Unix socket)        SOCKS5: Socks5Tunnel)         SNI, ALPN, checks)
 * </pre>
 * TLS runs end to end with the origin, inside the tunnel: SNI and host name verification use the
 * origin's host, never the proxy's. A subclass says whether there is a tunnel, makes the last
 * steps' connections and says when the route is open: {@code DestinationOpening} for the
 * connections of a destination's pool, {@link EndPointOpening} for a protocol that takes the
 * endpoint over (the WebSocket client).
 *
 * <p>The opening ends once, with the first of {@link #opened} and {@link #failed}. Failures name the step, the origin and the proxy: a {@link ProxyException} from a tunnel, an
 * {@link javax.net.ssl.SSLHandshakeException} from TLS (see {@link TlsFailure}), a
 * {@link java.util.concurrent.TimeoutException} from a proxy or server silent past the idle
 * timeout. The connect timeout bounds the TCP connect; each later step is bounded by the idle
 * timeout.
 *
 * <p><b>Threads.</b> {@link #start()} runs on a pool thread (resolving the first hop's name may
 * block); the steps run on the selector thread that reads their bytes, and the subclass's
 * promise is told there (it must not block). <b>Buffers.</b> None here: each step owns its own.
 */
public abstract class RouteOpening<C> {

    protected final ClientSettings settings;
    protected final ClientConnector connector;
    protected final Origin origin;
    protected final Proxy proxy;
    protected final boolean tunnel;
    protected final boolean secure;
    private final Promise<C> promise;
    private final AtomicBoolean done = new AtomicBoolean();

    /**
     * @param tunnel whether the first hop is {@code proxy}, asked for a tunnel to the origin
     * @param promise told once: of the subclass's connection when the route is open, or of the first failure
     */
    public RouteOpening(ClientConnector connector, ClientSettings settings, Origin origin, Proxy proxy, boolean tunnel,
                        Promise<C> promise) {
        this.settings = settings;
        this.promise = promise;
        this.connector = connector;
        this.origin = origin;
        this.proxy = proxy;
        this.tunnel = tunnel;
        this.secure = origin.scheme().equals("https") || origin.scheme().equals("wss");
    }

    Origin origin() {
        return origin;
    }

    Proxy proxy() {
        return proxy;
    }

    ClientSettings settings() {
        return settings;
    }

    ClientConnector connector() {
        return connector;
    }

    /** Resolves the first hop and connects to it. On a pool thread. */
    public void start() {
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
        Path unixSocket = settings.unixDomainPath();
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

    /** @return the connection that takes {@code network} on after TCP and the tunnel: the subclass's, behind TLS when secure */
    protected abstract Connection lastSteps(EndPoint network);

    /** TCP connected and the first step's connection opened. On the selector thread. */
    protected abstract void connected(Connection first);

    /** The tunnel through the proxy is open: the endpoint goes on to the last steps. On the tunnel's reading thread. */
    void tunnelEstablished(EndPoint network) {
        network.upgrade(lastSteps(network));
        tunnelled();
    }

    /** The last steps' connection took over the tunnel. On the tunnel's reading thread. */
    protected abstract void tunnelled();

    /**
     * @return a TLS connection with the origin on {@code network} that offers {@code protocols}
     *     by ALPN, {@code decrypted} making the connection on its decrypted endpoint; a failed
     *     handshake fails the opening, a good one goes to {@link #handshakeSucceeded}
     */
    protected final SslConnection tls(EndPoint network, List<String> protocols, Function<EndPoint, Connection> decrypted) {
        SocketAddress peer = InetSocketAddress.createUnresolved(unbracketed(origin.host()), origin.port());
        SslConnection tls = connector.getSslConnectionFactory().newConnection(network, peer, protocols, connector.getExecutor(),
                connector.getByteBufferPool(), decrypted);
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

    /** The TLS handshake succeeded, before any application byte was read. On the selector thread. */
    protected abstract void handshakeSucceeded(SslHandshake handshake);

    private void connectFailed(Throwable cause) {
        if (proxy == null) {
            failed(cause);
        } else if (cause instanceof SocketTimeoutException) {
            // Still a SocketTimeoutException: a destination turns it into the TimeoutException it documents.
            SocketTimeoutException timeout = new SocketTimeoutException("connecting to proxy " + proxy + " timed out");
            timeout.initCause(cause);
            failed(timeout);
        } else {
            failed(new ProxyException(proxy, "cannot connect to proxy " + proxy + " for " + origin + ": " + cause, cause));
        }
    }

    /** The route is open: the promise gets {@code ready}, once. On the connection's thread. */
    protected final void opened(C ready) {
        if (done.compareAndSet(false, true)) {
            promise.succeeded(ready);
        }
    }

    /** Fails the opening with {@code cause}, once; later failures (the close that follows) are dropped. */
    protected final void failed(Throwable cause) {
        if (done.compareAndSet(false, true)) {
            promise.failed(cause);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + origin + (proxy == null ? "" : " via " + proxy) + "]";
    }
}
