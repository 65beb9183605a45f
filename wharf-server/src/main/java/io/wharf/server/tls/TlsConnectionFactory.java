package io.wharf.server.tls;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import javax.net.ssl.SSLContext;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslConnectionFactory;
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
 * <p>ALPN: the next protocol's ALPN name is offered ({@code http/1.1} for HTTP/1.1); a client
 * that offers only other protocols fails the handshake (no_application_protocol), one that
 * offers none gets no ALPN. Requests over it are {@code isSecure()} and carry the TLS session
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

    private final ServerTlsContext tls;
    private volatile Made made;

    /** The TLS connections of one context, and the context they were made for. */
    private record Made(SSLContext context, SslConnectionFactory factory) {
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
        current();
        super.doStart();
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        ConnectionFactory next = next(connector);
        return current().newConnection(endPoint, connector.getExecutor(), connector.getByteBufferPool(),
                decrypted -> next.newConnection(connector, decrypted));
    }

    /** @return the TLS connection factory of the context as it is now, made again after a reload */
    private SslConnectionFactory current() {
        SSLContext context = tls.getSslContext();
        Made last = made;
        if (last == null || last.context() != context) {
            last = new Made(context, tls.newConnectionFactory(context, List.of(alpnName(getNextProtocol()))));
            made = last;
        }
        return last.factory();
    }

    @Override
    public String toString() {
        return "TlsConnectionFactory{" + PROTOCOL + "->" + getNextProtocol() + ", " + tls + "}";
    }
}
