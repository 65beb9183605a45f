package io.wharf.server;

import java.net.SocketAddress;
import java.util.Optional;

import io.wharf.http.HttpVersion;

/**
 * What a request knows of the connection it came on: its id, protocol and version, the
 * connector, the addresses, and whether it is secure (TLS). One instance per connection,
 * immutable but for what a request customizer overrides by wrapping.
 */
public interface ConnectionMetaData {

    /** @return an id unique within the server's life, for logs */
    String getId();

    /** @return the protocol the connection speaks, e.g. {@code "HTTP/1.1"} */
    String getProtocol();

    /** @return the HTTP version of the connection */
    HttpVersion getHttpVersion();

    /** @return the connector that accepted it */
    Connector getConnector();

    /**
     * @return how the connection speaks HTTP: its factory's configuration, whose compliance
     *     modes (cookies among them) apply to the requests it carries
     */
    HttpConfiguration getHttpConfiguration();

    /** @return the client's address: an {@code InetSocketAddress}, a Unix socket address, or null in memory */
    SocketAddress getRemoteSocketAddress();

    /** @return the server's address on this connection, or null in memory */
    SocketAddress getLocalSocketAddress();

    /** @return whether the connection is encrypted (TLS) */
    default boolean isSecure() {
        return false;
    }

    /**
     * @return the TLS session of a connection that came over TLS: protocol, cipher suite,
     *     the client's certificates when it sent some, the SNI name asked for
     */
    default Optional<javax.net.ssl.SSLSession> getSslSession() {
        return Optional.empty();
    }

    /** @return whether the connection is persistent so far */
    boolean isPersistent();

    /**
     * @return the PROXY protocol header the connection started with, when its connector has a
     *     {@link io.wharf.server.proxy.ProxyConnectionFactory}: the balancer's view of the
     *     addresses and its TLVs
     */
    default Optional<ProxyHeader> getProxyHeader() {
        return Optional.empty();
    }
}
