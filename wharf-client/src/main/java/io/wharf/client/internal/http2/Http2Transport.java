package io.wharf.client.internal.http2;

import java.util.List;

import io.wharf.client.Proxy;
import io.wharf.client.internal.ClientContext;
import io.wharf.client.internal.HttpDestination;
import io.wharf.client.internal.http1.DestinationOpening;
import io.wharf.client.internal.pool.MultiplexConnectionPool;
import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.ConnectionPool;
import io.wharf.client.transport.Transport;
import io.wharf.client.transport.TransportDestination;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.util.Promise;

/**
 * HTTP/2, alone or beside HTTP/1.1: opens connections along the destination's route with a
 * {@link DestinationOpening} (the same TCP, proxy tunnels and TLS as {@code Http1Transport}), which
 * become {@link Http2ClientConnection}s when TLS negotiated {@code h2} by ALPN, or at once on
 * plain http when this transport speaks h2c with prior knowledge, and stay
 * {@code Http1Connection}s when the server picked {@code http/1.1} and that is allowed (the
 * dynamic transport). One {@link MultiplexConnectionPool} per destination holds both kinds:
 * each connection carries what {@link ClientConnection#getMaxMultiplex()} says. Any thread may
 * call it. Like {@code Http1Transport} it implements the exported {@link Transport} SPI and is
 * given the client's own {@link HttpDestination}s, whose route it reads.
 */
public final class Http2Transport implements Transport {

    private final ClientContext context;
    private final SessionConfiguration configuration;
    private final boolean cleartextHttp2;
    private final boolean http1;
    private final List<String> protocols;

    /**
     * @param cleartextHttp2 whether plain http speaks h2c with prior knowledge (else HTTP/1.1)
     * @param http1 whether TLS also offers {@code http/1.1} and takes it when the server picks it
     */
    public Http2Transport(ClientContext context, SessionConfiguration configuration, boolean cleartextHttp2, boolean http1) {
        this.context = context;
        this.configuration = configuration;
        this.cleartextHttp2 = cleartextHttp2;
        this.http1 = http1;
        this.protocols = http1 ? List.of("h2", "http/1.1") : List.of("h2");
    }

    @Override
    public void connect(TransportDestination destination, Promise<ClientConnection> promise) {
        DestinationOpening opening = new DestinationOpening((HttpDestination) destination, promise,
                (endPoint, opened, ready) -> new Http2ClientConnection(endPoint, opened, configuration, ready), cleartextHttp2, http1);
        context.executor().execute(opening::start);
    }

    /**
     * @return a pool whose connections being opened are each expected to carry many exchanges
     *     when they will surely speak HTTP/2, one otherwise (so that a dynamic destination whose
     *     server turns out to speak HTTP/1.1 gets the connections it needs)
     */
    @Override
    public ConnectionPool newConnectionPool(TransportDestination destination) {
        Proxy proxy = ((HttpDestination) destination).getProxy();
        boolean secure = destination.isSecure();
        boolean forwarded = !secure && proxy != null && proxy.getKind() == Proxy.Kind.HTTP;
        boolean surelyHttp2 = secure ? !http1 : cleartextHttp2 && !forwarded;
        return destination.newConnectionPool(this, surelyHttp2 ? Http2ClientConnection.DEFAULT_MAX_MULTIPLEX : 1);
    }

    @Override
    public List<String> applicationProtocols() {
        return protocols;
    }
}
