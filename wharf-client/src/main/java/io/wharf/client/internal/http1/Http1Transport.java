package io.wharf.client.internal.http1;

import java.util.List;

import io.wharf.io.connect.ClientConnector;
import io.wharf.client.internal.ClientConnection;
import io.wharf.client.internal.ClientContext;
import io.wharf.client.internal.ConnectionPool;
import io.wharf.client.internal.HttpDestination;
import io.wharf.client.internal.Transport;
import io.wharf.client.internal.pool.MultiplexConnectionPool;
import io.wharf.client.transport.ClientSettings;
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

    private final ClientContext context;

    public Http1Transport(ClientContext context) {
        this.context = context;
    }

    @Override
    public void connect(HttpDestination destination, Promise<ClientConnection> promise) {
        DestinationOpening opening = new DestinationOpening(destination, promise, null, false, true);
        context.executor().execute(opening::start);
    }

    @Override
    public ConnectionPool newConnectionPool(HttpDestination destination) {
        ClientSettings settings = destination.settings();
        return MultiplexConnectionPool.duplex(destination, this, settings.maxConnectionsPerDestination(),
                settings.maxConnectionUsage(), settings.connectionStrategy());
    }

    @Override
    public List<String> applicationProtocols() {
        return PROTOCOLS;
    }
}
