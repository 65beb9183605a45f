package io.wharf.client.internal.http1;

import io.wharf.client.Proxy;
import io.wharf.io.connect.ClientConnector;
import io.wharf.client.internal.HttpDestination;
import io.wharf.client.internal.route.RouteOpening;
import io.wharf.client.transport.ClientConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslHandshake;
import io.wharf.util.InvocationType;
import io.wharf.util.Promise;

/**
 * Opens one connection of a destination along its route ({@link RouteOpening}), and gives it to
 * the pool only once it can carry exchanges:
 * <pre>
 *  TCP ──► proxy tunnel ──► TLS handshake ──► Http1Connection ready (promise succeeded)
 * </pre>
 * A tunnel is there for https through an HTTP proxy and for every request through a SOCKS5
 * proxy; plain http through an HTTP proxy needs none (see {@code ForwardProxy}).
 *
 * <p>The promise is completed once: with the {@link Http1Connection} when the last step is done
 * (for plain http, when TCP connects; for https, when the handshake succeeded), or with the
 * first failure.
 *
 * <h2>HTTP/2</h2>
 * ALPN offers {@code Transport.applicationProtocols} (the client sets them on its connector at
 * start). When the server picks {@code h2}, {@link #handshakeSucceeded}, which runs before any
 * application byte is read, upgrades the decrypted endpoint from the HTTP/1.1 connection made
 * for it to the connection of the {@link MultiplexedProtocol} the transport gave (its HTTP/2
 * connection: this class names no HTTP/2 type); a transport that speaks h2c with prior knowledge
 * makes that connection on the plain endpoint at once. Either is ready, and the promise
 * completed through {@link #opened}, as soon as its preface is queued: it then carries one
 * exchange until the server's first SETTINGS say how many. The tunnel steps, SNI and the
 * certificate checks do not change.
 *
 * <p>Threads: see {@link RouteOpening}.
 */
public final class DestinationOpening extends RouteOpening<ClientConnection> {

    private final HttpDestination destination;
    private final MultiplexedProtocol h2;
    private final boolean cleartextHttp2;
    private final boolean http1;
    /** The HTTP/1.1 connection of the last step, once made (on the selector thread). */
    private volatile Http1Connection http;

    /**
     * @param h2 makes the connection when TLS picked {@code h2} or plain http speaks h2c; null
     *     for an HTTP/1.1 transport, which then never speaks HTTP/2
     * @param cleartextHttp2 whether plain http speaks HTTP/2 with prior knowledge (h2c) rather than HTTP/1.1
     * @param http1 whether a TLS server may pick {@code http/1.1} (or no protocol) rather than {@code h2}
     */
    public DestinationOpening(HttpDestination destination, Promise<ClientConnection> promise, MultiplexedProtocol h2,
                              boolean cleartextHttp2, boolean http1) {
        super(destination.context().connector(), destination.context().settings(), destination.getOrigin(),
                destination.getProxy(), tunnels(destination), promise);
        this.h2 = h2;
        this.http1 = http1;
        this.destination = destination;
        // A forwarding HTTP proxy (plain http, no tunnel) is spoken to in HTTP/1.1 with absolute targets.
        this.cleartextHttp2 = h2 != null && cleartextHttp2 && (proxy == null || tunnel);
    }

    /**
     * Makes the connection of a protocol that carries many exchanges at once ({@code h2}) on an
     * endpoint whose route is open: a transport's way to plug its connection into this opening.
     * Called on the selector thread that completed the route, before any application byte is read.
     */
    @FunctionalInterface
    public interface MultiplexedProtocol {

        /**
         * @param ready to be told once: succeeded with the connection when it can carry exchanges
         *     (its preface is queued), failed when it closed before
         * @return the connection that takes {@code endPoint} over
         */
        Connection newConnection(EndPoint endPoint, HttpDestination destination, Promise<ClientConnection> ready);
    }

    /** @return the opening's promise for the multiplexed connection: the first of {@link #opened} and {@link #failed} wins */
    private Promise<ClientConnection> readiness() {
        return Promise.from(InvocationType.NON_BLOCKING, this::opened, this::failed);
    }

    private static boolean tunnels(HttpDestination destination) {
        Proxy proxy = destination.getProxy();
        return proxy != null && (proxy.getKind() == Proxy.Kind.SOCKS5 || "https".equals(destination.getOrigin().scheme()));
    }

    /** @return the HTTP/1.1 connection on {@code network}, behind TLS for https */
    @Override
    protected Connection lastSteps(EndPoint network) {
        if (!secure && cleartextHttp2) {
            // Ready once its preface is queued: the connection calls opened() when it opens.
            return h2.newConnection(network, destination, readiness());
        }
        if (!secure) {
            Http1Connection plain = new Http1Connection(network, destination);
            http = plain;
            return plain;
        }
        return tls(network, connector.getApplicationProtocols(), decrypted -> {
            Http1Connection carried = new Http1Connection(decrypted, destination);
            http = carried;
            return carried;
        });
    }

    /** TCP connected and the first step opened: for plain http without a tunnel, that was the last step. */
    @Override
    protected void connected(Connection first) {
        if (!tunnel && !secure && !cleartextHttp2) {
            opened(http);
        }
    }

    @Override
    protected void tunnelled() {
        if (!secure && !cleartextHttp2) {
            opened(http);
        }
    }

    /**
     * The handshake succeeded: the connection can carry exchanges. ALPN chose {@code http/1.1}
     * or nothing (a server without ALPN): the JDK engine refuses, as RFC 7301 asks, a protocol
     * it did not offer.
     */
    @Override
    protected void handshakeSucceeded(SslHandshake handshake) {
        if (h2 != null && "h2".equals(handshake.applicationProtocol())) {
            // Before any application byte is read: the decrypted endpoint speaks HTTP/2 from now on,
            // and the connection calls opened() once its preface is queued.
            handshake.endPoint().upgrade(h2.newConnection(handshake.endPoint(), destination, readiness()));
            return;
        }
        if (!http1) {
            String picked = handshake.applicationProtocol();
            handshake.endPoint().close(new javax.net.ssl.SSLHandshakeException("the server at " + origin + " picked "
                    + (picked == null || picked.isEmpty() ? "no protocol" : picked) + " by ALPN, not h2, which this client speaks"));
            return;
        }
        opened(http);
    }
}
