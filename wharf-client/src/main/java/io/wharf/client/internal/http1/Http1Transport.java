package io.wharf.client.internal.http1;

import java.util.List;

import io.wharf.client.internal.ClientContext;
import io.wharf.client.internal.HttpDestination;
import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.Transport;
import io.wharf.client.transport.TransportDestination;
import io.wharf.util.Promise;

/**
 * HTTP/1.1 over TCP (or over a Unix domain socket when the client names one), over TLS for
 * https, directly or through a proxy: opens {@link Http1Connection}s along the destination's
 * route with a {@link DestinationOpening} and shares them in the client's pool, one exchange per
 * connection at a time (the SPI's default pool). Any thread may call it; the first hop's name is
 * resolved on a pool thread, never on the caller's (which may be a selector thread).
 *
 * <p>It implements the exported {@link Transport} SPI; the destinations it is given are always
 * the client's own {@link HttpDestination}s (the client makes no other), whose route (proxy,
 * tunnels, forwarding) it needs beyond what the SPI's view shows.
 */
public final class Http1Transport implements Transport {

    private static final List<String> PROTOCOLS = List.of("http/1.1");

    private final ClientContext context;

    public Http1Transport(ClientContext context) {
        this.context = context;
    }

    @Override
    public void connect(TransportDestination destination, Promise<ClientConnection> promise) {
        DestinationOpening opening = new DestinationOpening((HttpDestination) destination, promise, null, false, true);
        context.executor().execute(opening::start);
    }

    @Override
    public List<String> applicationProtocols() {
        return PROTOCOLS;
    }
}
