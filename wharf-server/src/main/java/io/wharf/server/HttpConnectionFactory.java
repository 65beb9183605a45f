package io.wharf.server;

import io.wharf.http.HttpField;
import io.wharf.http.HttpGenerator;
import io.wharf.http.HttpHeader;
import io.wharf.http.PreEncodedHttpField;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.internal.HttpConnection;

/** Makes HTTP/1.1 connections ({@code "HTTP/1.1"}) with one {@link HttpConfiguration}. */
public class HttpConnectionFactory implements ConnectionFactory {

    private static final HttpField SERVER_FIELD = new PreEncodedHttpField(HttpHeader.SERVER, "wharf");

    private final HttpConfiguration configuration;
    /** What the last connection was made with: shared while it stays the same, so no connection holds its own. */
    private volatile HttpGenerator.Options generatorOptions = HttpGenerator.Options.DEFAULT;

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
        return new HttpConnection(connector, endPoint, configuration, generatorOptions(connector.getServer()));
    }

    /** @return the Server and Date fields the configuration asks for, the same instance while they stay the same */
    private HttpGenerator.Options generatorOptions(Server server) {
        HttpField serverField = configuration.isSendServerVersion() ? SERVER_FIELD : null;
        java.util.function.Supplier<HttpField> dateField = configuration.isSendDateHeader() ? server.getDateField() : null;
        HttpGenerator.Options last = generatorOptions;
        if (last.serverField() == serverField && last.dateField() == dateField) {
            return last;
        }
        HttpGenerator.Options wanted = new HttpGenerator.Options(serverField, dateField);
        generatorOptions = wanted;
        return wanted;
    }
}
