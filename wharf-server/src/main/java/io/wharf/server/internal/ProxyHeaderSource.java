package io.wharf.server.internal;

import java.util.Optional;

import io.wharf.io.EndPoint;
import io.wharf.io.ssl.SslEndPoint;
import io.wharf.server.ProxyHeader;

/**
 * What an endpoint behind a PROXY protocol header tells the connections of the protocols that
 * run over it: the header. The PROXY wing's endpoint implements it, and a protocol's connection
 * (HTTP/1.1's, HTTP/2's) reads the header through it for its {@code ConnectionMetaData}, so that neither
 * wing names the other. Implementations are immutable; any thread may ask.
 */
public interface ProxyHeaderSource {

    /** @return the header received before the client's first byte */
    ProxyHeader getProxyHeader();

    /**
     * @param endPoint a protocol connection's endpoint: the network's, or TLS's decrypted one
     *     over it (the header comes before TLS, so it is looked for under TLS too)
     * @return the header {@code endPoint} came behind, or empty when it came behind none
     */
    static Optional<ProxyHeader> of(EndPoint endPoint) {
        if (endPoint instanceof SslEndPoint tls) {
            return of(tls.getSslConnection().getEndPoint());
        }
        return endPoint instanceof ProxyHeaderSource proxied ? Optional.of(proxied.getProxyHeader()) : Optional.empty();
    }
}
