package io.wharf.server.internal;

import java.net.SocketAddress;
import java.util.Optional;

import javax.net.ssl.SSLSession;

import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslEndPoint;
import io.wharf.server.ConnectionMetaData;
import io.wharf.server.ProxyHeader;

/**
 * The part of a protocol connection's {@link ConnectionMetaData} that its endpoint answers: the
 * addresses, whether it runs over TLS and its session, and the PROXY protocol header it came
 * behind. HTTP/1.1's and HTTP/2's server connections implement it and answer the rest (id,
 * protocol, version, connector, configuration, persistence) themselves. It holds nothing: any
 * thread may ask, and each answer is read from the endpoint when asked.
 */
public interface EndPointMetaData extends ConnectionMetaData {

    /** @return the endpoint the connection runs on: the network's, or TLS's decrypted one over it */
    EndPoint getEndPoint();

    @Override
    default SocketAddress getRemoteSocketAddress() {
        return getEndPoint().getRemoteSocketAddress();
    }

    @Override
    default SocketAddress getLocalSocketAddress() {
        return getEndPoint().getLocalSocketAddress();
    }

    @Override
    default boolean isSecure() {
        return getEndPoint() instanceof SslEndPoint;
    }

    @Override
    default Optional<SSLSession> getSslSession() {
        return getEndPoint() instanceof SslEndPoint tls ? Optional.of(tls.getSslConnection().getSslEngine().getSession()) : Optional.empty();
    }

    @Override
    default Optional<ProxyHeader> getProxyHeader() {
        return ProxyHeaderSource.of(getEndPoint());
    }
}
