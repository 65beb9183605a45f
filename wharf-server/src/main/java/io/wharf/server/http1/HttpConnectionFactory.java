package io.wharf.server.http1;

import io.wharf.http.HttpField;
import io.wharf.http.HttpGenerator;
import io.wharf.http.HttpHeader;
import io.wharf.http.PreEncodedHttpField;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.ConnectionFactory;
import io.wharf.server.Connector;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Server;
import io.wharf.server.http1.internal.HttpCodecs;
import io.wharf.server.http1.internal.HttpConnection;

/**
 * Makes HTTP/1.1 connections ({@code "HTTP/1.1"}) with one {@link HttpConfiguration}: the
 * factory to give a connector for plain HTTP/1.1, or to put after a TLS or PROXY factory.
 * Connectors have no default protocol, so a server that speaks HTTP/1.1 passes one:
 *
 * <pre>{@code
 * new ServerConnector(server, new HttpConnectionFactory());
 * }</pre>
 */
public class HttpConnectionFactory implements ConnectionFactory {

    private static final HttpField SERVER_FIELD = new PreEncodedHttpField(HttpHeader.SERVER, "wharf");

    private final HttpConfiguration configuration;
    /**
     * The codecs (parser, generator, writer) the connections borrow while a request is under
     * way, made with the settings of the last connection made and replaced when they change.
     */
    private volatile HttpCodecs codecs;

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

    /**
     * @return how many request codecs (parser, generator and response writer) wait in this
     *     factory's pool now. A connection borrows one while a request is under way and gives
     *     it back when it is idle again, so this is about the most requests that were under way
     *     at once, up to a bound; idle keep-alive connections hold none.
     */
    public int getIdleCodecCount() {
        HttpCodecs current = codecs;
        return current == null ? 0 : current.idleCount();
    }

    @Override
    public String getProtocol() {
        return "HTTP/1.1";
    }

    /** @return the configuration's input buffer size, as it is now */
    @Override
    public int getInputBufferSize() {
        return configuration.getInputBufferSize();
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        return new HttpConnection(connector, endPoint, codecs(connector.getServer()));
    }

    /** @return the codecs for the configuration as it is now: the same instance while it stays the same */
    private HttpCodecs codecs(Server server) {
        HttpField serverField = configuration.isSendServerVersion() ? SERVER_FIELD : null;
        java.util.function.Supplier<HttpField> dateField = configuration.isSendDateHeader() ? server.getDateField() : null;
        HttpCodecs last = codecs;
        HttpGenerator.Options options = last == null ? null : last.generatorOptions();
        if (options == null || options.serverField() != serverField || options.dateField() != dateField) {
            options = new HttpGenerator.Options(serverField, dateField);
        }
        if (last != null && last.matches(configuration, options)) {
            return last;
        }
        HttpCodecs wanted = new HttpCodecs(configuration, options);
        codecs = wanted;
        return wanted;
    }
}
