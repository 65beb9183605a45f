package io.wharf.client.internal;

import java.util.List;

import io.wharf.client.HttpClient;
import io.wharf.io.connect.ClientConnector;
import io.wharf.util.Promise;

/**
 * HTTP/1.1 over TCP (or over a Unix domain socket when the client names one), over TLS for
 * https, directly or through a proxy: opens {@link Http1Connection}s along the destination's
 * route with a {@link DestinationOpening} and shares them with a {@link MultiplexConnectionPool#duplex duplex pool}. Any
 * thread may call it; the first hop's name is resolved on a pool thread, never on the caller's
 * (which may be a selector thread).
 */
public final class Http1Transport implements Transport {

    private static final List<String> PROTOCOLS = List.of("http/1.1");

    private final HttpClient client;
    private final ClientConnector connector;

    public Http1Transport(HttpClient client, ClientConnector connector) {
        this.client = client;
        this.connector = connector;
    }

    @Override
    public void connect(HttpDestination destination, Promise<ClientConnection> promise) {
        DestinationOpening opening = new DestinationOpening(client, connector, destination, promise, false, true);
        client.getExecutor().execute(opening::start);
    }

    @Override
    public ConnectionPool newConnectionPool(HttpDestination destination) {
        return MultiplexConnectionPool.duplex(destination, this, client.getMaxConnectionsPerDestination(),
                client.getMaxConnectionUsage(), client.getConnectionStrategy());
    }

    @Override
    public List<String> applicationProtocols() {
        return PROTOCOLS;
    }
}
