package io.wharf.server.proxy;

import java.time.Duration;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.ChainedConnectionFactory;
import io.wharf.server.ConnectionFactory;
import io.wharf.server.Connector;
import io.wharf.server.proxy.internal.ProxyConnection;
import io.wharf.server.proxy.internal.ProxyHeaderParser;

/**
 * Makes connections that read a PROXY protocol header (HAProxy's protocol, versions 1 and 2)
 * before handing the endpoint to the next protocol, so that a server behind a TCP balancer
 * sees each client's real address. Put it first in a connector's factories:
 *
 * <pre>{@code
 * new ServerConnector(server, new ProxyConnectionFactory(), new HttpConnectionFactory(config));
 * }</pre>
 *
 * <p>The next connection inherits the buffer the header was read into, of the size the next
 * protocol's factory asks for ({@link ConnectionFactory#getInputBufferSize()}).
 *
 * <p>Every connection on that connector must then start with a header; one that does not, or
 * sends a malformed or over-long one, or takes longer than {@link #getHeaderTimeout()}, is
 * closed without a response. After the header the next protocol's connection runs over an
 * endpoint whose remote and local addresses are the header's; handlers see them through
 * {@link io.wharf.server.Request#getConnectionMetaData()}, and the whole header, TLVs
 * included, through {@link io.wharf.server.ConnectionMetaData#getProxyHeader()}. A
 * {@code LOCAL} header (a balancer's health check) keeps the real addresses.
 *
 * <p>Only put this connector where the balancer alone can reach it: the header is believed as
 * sent. Configure before the connector starts; {@link #newConnection} is called on a
 * selector thread and never blocks.
 */
public class ProxyConnectionFactory extends ChainedConnectionFactory {

    /** The protocol name of this factory. */
    public static final String PROTOCOL = "PROXY";

    private volatile int maxV2Length = 1024;
    private volatile Duration headerTimeout = Duration.ofSeconds(10);

    /** A factory handing over to {@code "HTTP/1.1"}. */
    public ProxyConnectionFactory() {
        this("HTTP/1.1");
    }

    /** @param nextProtocol the protocol of the connector's factory that speaks after the header */
    public ProxyConnectionFactory(String nextProtocol) {
        super(PROTOCOL, nextProtocol);
    }

    /** @return the most bytes a version 2 header may take, TLVs included (default 1024) */
    public int getMaxV2Length() {
        return maxV2Length;
    }

    /**
     * @param maxV2Length from 232 (room for the largest addresses) to 65551 (the protocol's
     *     own bound); raise it when the balancer sends large TLVs
     */
    public void setMaxV2Length(int maxV2Length) {
        if (maxV2Length < ProxyHeaderParser.V2_MIN_LIMIT || maxV2Length > ProxyHeaderParser.V2_MAX_LIMIT) {
            throw new IllegalArgumentException("max PROXY v2 length must be " + ProxyHeaderParser.V2_MIN_LIMIT
                    + "-" + ProxyHeaderParser.V2_MAX_LIMIT + ": " + maxV2Length);
        }
        this.maxV2Length = maxV2Length;
    }

    /** @return how long the whole header may take to arrive after the connection opens (default 10 s) */
    public Duration getHeaderTimeout() {
        return headerTimeout;
    }

    public void setHeaderTimeout(Duration headerTimeout) {
        if (headerTimeout.isNegative() || headerTimeout.isZero()) {
            throw new IllegalArgumentException("PROXY header timeout must be positive: " + headerTimeout);
        }
        this.headerTimeout = headerTimeout;
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        // May be missing: the PROXY connection then logs it and closes after the header.
        ConnectionFactory next = connector.getConnectionFactory(getNextProtocol());
        // Read into a buffer of the size the next connection would use, since it inherits it.
        int bufferSize = next == null ? ConnectionFactory.DEFAULT_INPUT_BUFFER_SIZE : next.getInputBufferSize();
        return new ProxyConnection(connector, endPoint, getNextProtocol(), maxV2Length, headerTimeout, bufferSize);
    }

    @Override
    public String toString() {
        return "ProxyConnectionFactory{" + PROTOCOL + "->" + getNextProtocol() + "}";
    }
}
