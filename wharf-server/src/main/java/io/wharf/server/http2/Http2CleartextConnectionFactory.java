package io.wharf.server.http2;

import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.HttpConfiguration;

/**
 * Makes HTTP/2 connections without TLS ({@code "h2c"}). Next to an
 * {@link io.wharf.server.HttpConnectionFactory} on the same connector it serves both ways a
 * cleartext client starts HTTP/2: with prior knowledge (the HTTP/1.1 connection sees the
 * client preface {@code PRI * HTTP/2.0} and hands over) and with an HTTP/1.1 request carrying
 * {@code Upgrade: h2c} and {@code HTTP2-Settings} (answered {@code 101}, then on stream 1).
 * Alone on a connector, it takes prior-knowledge clients only.
 *
 * <pre>
 * new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
 * </pre>
 */
public class Http2CleartextConnectionFactory extends Http2ConnectionFactory {

    /** The protocol name of HTTP/2 over cleartext TCP. */
    public static final String H2C = "h2c";

    /** A factory with default configurations. */
    public Http2CleartextConnectionFactory() {
        this(new HttpConfiguration(), new SessionConfiguration());
    }

    public Http2CleartextConnectionFactory(HttpConfiguration configuration, SessionConfiguration sessionConfiguration) {
        super(H2C, configuration, sessionConfiguration);
    }
}
