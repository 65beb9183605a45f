package io.wharf.client.internal.route;

import java.util.List;
import java.util.function.Function;

import io.wharf.client.Origin;
import io.wharf.client.Proxy;
import io.wharf.client.transport.ClientSettings;
import io.wharf.io.connect.ClientConnector;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslHandshake;
import io.wharf.util.Promise;

/**
 * Opens a network connection along an origin's route ({@link RouteOpening}) for a protocol that
 * takes the endpoint over after a handshake of its own, such as a WebSocket client's upgrade
 * request: the caller's factory makes the last connection, on the plain endpoint or the
 * decrypted one. Through a proxy there is always a tunnel, for {@code http} and {@code ws} too:
 * an HTTP proxy that forwards requests would not forward an upgraded connection.
 *
 * <p>The promise is completed once: with the factory's connection when the route is open (for
 * a plain origin, when the connection opened on the endpoint; for a secure one, when the TLS
 * handshake succeeded, before any application byte was read), or with the first failure.
 *
 * <p>Threads: see {@link RouteOpening}.
 */
public final class EndPointOpening extends RouteOpening<Connection> {

    private final List<String> protocols;
    private final Function<EndPoint, Connection> factory;
    private volatile Connection last;

    /**
     * @param proxy the first hop, asked for a tunnel, or null to connect directly
     * @param protocols offered by ALPN on a secure origin
     */
    public EndPointOpening(ClientConnector connector, ClientSettings settings, Origin origin, Proxy proxy, List<String> protocols,
                           Function<EndPoint, Connection> factory, Promise<Connection> promise) {
        super(connector, settings, origin, proxy, proxy != null, promise);
        this.protocols = List.copyOf(protocols);
        this.factory = factory;
    }

    /** Starts the opening on one of the client's threads (resolving a name may block). */
    public void open() {
        connector.getExecutor().execute(this::start);
    }

    @Override
    protected Connection lastSteps(EndPoint network) {
        if (!secure) {
            Connection plain = factory.apply(network);
            last = plain;
            return plain;
        }
        return tls(network, protocols, decrypted -> {
            Connection carried = factory.apply(decrypted);
            last = carried;
            return carried;
        });
    }

    @Override
    protected void connected(Connection first) {
        if (!tunnel && !secure) {
            opened(last);
        }
    }

    @Override
    protected void tunnelled() {
        if (!secure) {
            opened(last);
        }
    }

    @Override
    protected void handshakeSucceeded(SslHandshake handshake) {
        opened(last);
    }
}
