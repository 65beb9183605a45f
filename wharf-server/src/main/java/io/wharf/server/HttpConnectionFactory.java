package io.wharf.server;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.internal.HttpConnection;

/** Makes HTTP/1.1 connections ({@code "HTTP/1.1"}) with one {@link HttpConfiguration}. */
public class HttpConnectionFactory implements ConnectionFactory {

    private final HttpConfiguration configuration;

    /** A factory with the default configuration. */
    public HttpConnectionFactory() {
        this(new HttpConfiguration());
    }

    public HttpConnectionFactory(HttpConfiguration configuration) {
        this.configuration = configuration;
    }

    /** @return the configuration its connections follow */
    public HttpConfiguration getHttpConfiguration() {
        return configuration;
    }

    @Override
    public String getProtocol() {
        return "HTTP/1.1";
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        return new HttpConnection(connector, endPoint, configuration);
    }
}
