package io.wharf.server.tls;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import javax.net.ssl.SSLContext;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslConnection;
import io.wharf.io.ssl.SslConnectionFactory;
import io.wharf.io.ssl.SslHandshake;
import io.wharf.server.ChainedConnectionFactory;
import io.wharf.server.ConnectionFactory;
import io.wharf.server.Connector;

/**
 * Makes TLS connections ({@code "TLS"}) for a connector: each accepted endpoint gets wharf-io's
 * {@code SslConnection} with the {@link ServerTlsContext}'s current context, and the next
 * protocol's connection (HTTP/1.1 by default) runs on the decrypted endpoint. Put it first:
 *
 * <pre>{@code
 * new ServerConnector(server, new TlsConnectionFactory(tls), new HttpConnectionFactory(config));
 * }</pre>
 *
 * <p>ALPN: the next protocol's ALPN name is offered ({@code http/1.1} for HTTP/1.1), after
 * {@code h2} when the connector also has an {@code "h2"} factory (an
 * {@link io.wharf.server.http2.Http2ConnectionFactory}): a client that picks {@code h2} gets
 * that factory's connection, switched in when the handshake completes and before any
 * application byte is read. A client that offers only other protocols fails the handshake
 * (no_application_protocol), one that offers none gets no ALPN and the next protocol. Requests over it are {@code isSecure()} and carry the TLS session
 * ({@code ConnectionMetaData.getSslSession()}).
 *
 * <p>It starts with its connector, building the context then: a keystore that cannot be read
 * fails the server's start with a message naming the file.
 *
 * <p>Threads: {@link #newConnection} runs on a selector thread; after a
 * {@link ServerTlsContext#reload()} the next connection is made with the new context.
 */
public class TlsConnectionFactory extends ChainedConnectionFactory {

    /** The protocol name of this factory. */
    public static final String PROTOCOL = "TLS";
    /** The ALPN name (and connection factory protocol) of HTTP/2 over TLS. */
    private static final String H2 = "h2";

    private final ServerTlsContext tls;
    private volatile Made made;

    /** The TLS connections of one context, and the context they were made for. */
    private record Made(SSLContext context, List<String> protocols, SslConnectionFactory factory) {
    }

    /** A factory handing over to {@code "HTTP/1.1"}. */
    public TlsConnectionFactory(ServerTlsContext tls) {
        this(tls, "HTTP/1.1");
    }

    /** @param nextProtocol the protocol of the connector's factory that speaks over TLS */
    public TlsConnectionFactory(ServerTlsContext tls, String nextProtocol) {
        super(PROTOCOL, nextProtocol);
        this.tls = Objects.requireNonNull(tls, "tls");
    }

    public ServerTlsContext getTlsContext() {
        return tls;
    }

    /** @return the ALPN name of {@code protocol}: {@code http/1.1} for {@code HTTP/1.1}, else its name in lower case */
    static String alpnName(String protocol) {
        return protocol.equalsIgnoreCase("HTTP/1.1") ? "http/1.1" : protocol.toLowerCase(Locale.ROOT);
    }

    @Override
    protected void doStart() throws Exception {
        current(List.of(alpnName(getNextProtocol())));
        super.doStart();
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        ConnectionFactory next = next(connector);
        ConnectionFactory h2 = H2.equalsIgnoreCase(getNextProtocol()) ? null : connector.getConnectionFactory(H2);
        List<String> protocols = h2 == null ? List.of(alpnName(getNextProtocol())) : List.of(H2, alpnName(getNextProtocol()));
        SslConnection connection = current(protocols).newConnection(endPoint, connector.getExecutor(), connector.getByteBufferPool(),
                decrypted -> next.newConnection(connector, decrypted));
        if (h2 != null) {
            connection.addListener(new SslConnection.Listener() {
                @Override
                public void handshakeSucceeded(SslHandshake event) {
                    if (H2.equals(event.applicationProtocol())) {
                        event.endPoint().upgrade(h2.newConnection(connector, event.endPoint()));
                    }
                }
            });
        }
        return connection;
    }

    /** @return the TLS connection factory of the context as it is now, made again after a reload or for other protocols */
    private SslConnectionFactory current(List<String> protocols) {
        SSLContext context = tls.getSslContext();
        Made last = made;
        if (last == null || last.context() != context || !last.protocols().equals(protocols)) {
            last = new Made(context, protocols, tls.newConnectionFactory(context, protocols));
            made = last;
        }
        return last.factory();
    }

    @Override
    public String toString() {
        return "TlsConnectionFactory{" + PROTOCOL + "->" + getNextProtocol() + ", " + tls + "}";
    }
}
