package io.wharf.client.internal;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;

import io.wharf.client.HttpClient;
import io.wharf.client.Origin;
import io.wharf.io.ClientConnector;
import io.wharf.io.Connection;
import io.wharf.util.InvocationType;
import io.wharf.util.Promise;

/**
 * HTTP/1.1 over TCP, or over a Unix domain socket when the client names one: opens
 * {@link Http1Connection}s with the client's {@link ClientConnector} and shares them with a
 * {@link DuplexConnectionPool}. Any thread may call it; the host name is resolved on a pool
 * thread, never on the caller's (which may be a selector thread).
 */
public final class Http1Transport implements Transport {

    private final HttpClient client;
    private final ClientConnector connector;

    public Http1Transport(HttpClient client, ClientConnector connector) {
        this.client = client;
        this.connector = connector;
    }

    @Override
    public void connect(HttpDestination destination, Promise<ClientConnection> promise) {
        client.getExecutor().execute(() -> {
            SocketAddress address;
            try {
                address = addressOf(destination.getOrigin());
            } catch (RuntimeException x) {
                promise.failed(x);
                return;
            }
            connector.connect(address, endPoint -> new Http1Connection(endPoint, destination),
                    Promise.from(InvocationType.NON_BLOCKING,
                            (Connection connection) -> promise.succeeded((ClientConnection) connection),
                            promise::failed));
        });
    }

    private SocketAddress addressOf(Origin origin) {
        Path unixSocket = client.getUnixDomainPath();
        if (unixSocket != null) {
            return UnixDomainSocketAddress.of(unixSocket);
        }
        String host = origin.host();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        InetSocketAddress address = new InetSocketAddress(host, origin.port());
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve the host of " + origin);
        }
        return address;
    }

    @Override
    public ConnectionPool newConnectionPool(HttpDestination destination) {
        return new DuplexConnectionPool(destination, this, client.getMaxConnectionsPerDestination(),
                client.getMaxConnectionUsage(), client.getConnectionStrategy());
    }
}
