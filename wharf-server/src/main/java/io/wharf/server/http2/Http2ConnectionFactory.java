package io.wharf.server.http2;

import java.util.Objects;

import io.wharf.http2.session.SessionConfiguration;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.ConnectionFactory;
import io.wharf.server.Connector;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.http2.internal.Http2ServerConnection;

/**
 * Makes HTTP/2 connections over TLS ({@code "h2"}): put it on a connector after a
 * {@link io.wharf.server.tls.TlsConnectionFactory}, which then offers {@code h2} by ALPN
 * before {@code http/1.1}, and hands a connection that negotiated it to this factory.
 *
 * <pre>
 * new ServerConnector(server, new TlsConnectionFactory(tls), new HttpConnectionFactory(), new Http2ConnectionFactory());
 * </pre>
 *
 * <p>Requests come to the same handlers as HTTP/1.1 ones; {@code request.getConnectionMetaData()
 * .getHttpVersion()} tells them apart. The {@link HttpConfiguration} is the HTTP/1.1 factory's
 * kind (customizers, Date and Server fields, buffer sizes); the {@link SessionConfiguration}
 * holds HTTP/2's settings, windows and budgets. Called on a selector thread; never blocks.
 */
public class Http2ConnectionFactory implements ConnectionFactory {

    /** The protocol name of HTTP/2 over TLS, as ALPN says it. */
    public static final String H2 = "h2";

    private final String protocol;
    private final HttpConfiguration configuration;
    private final SessionConfiguration sessionConfiguration;

    /** A factory with default configurations. */
    public Http2ConnectionFactory() {
        this(new HttpConfiguration(), new SessionConfiguration());
    }

    public Http2ConnectionFactory(HttpConfiguration configuration, SessionConfiguration sessionConfiguration) {
        this(H2, configuration, sessionConfiguration);
    }

    protected Http2ConnectionFactory(String protocol, HttpConfiguration configuration, SessionConfiguration sessionConfiguration) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
        this.configuration = Objects.requireNonNull(configuration, "configuration");
        this.sessionConfiguration = Objects.requireNonNull(sessionConfiguration, "sessionConfiguration");
    }

    /** @return the HTTP configuration its requests follow */
    public HttpConfiguration getHttpConfiguration() {
        return configuration;
    }

    /** @return the HTTP/2 settings, windows and budgets of its sessions */
    public SessionConfiguration getSessionConfiguration() {
        return sessionConfiguration;
    }

    @Override
    public String getProtocol() {
        return protocol;
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        return new Http2ServerConnection(connector, endPoint, configuration, sessionConfiguration, protocol);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{" + protocol + "}";
    }
}
