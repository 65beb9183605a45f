package io.wharf.server.http2;

import java.nio.ByteBuffer;
import java.util.function.Function;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpVersion;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.Connector;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.http2.internal.ClientPreface;
import io.wharf.server.http2.internal.H2cUpgrade;
import io.wharf.server.http2.internal.PrefaceRefusal;
import io.wharf.server.internal.Http1Handover;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * Makes HTTP/2 connections without TLS ({@code "h2c"}). Next to an
 * {@link io.wharf.server.http1.HttpConnectionFactory} on the same connector it serves both ways a
 * cleartext client starts HTTP/2: with prior knowledge (the HTTP/1.1 connection sees the
 * client preface {@code PRI * HTTP/2.0} and hands over) and with an HTTP/1.1 request carrying
 * {@code Upgrade: h2c} and {@code HTTP2-Settings} (answered {@code 101}, then on stream 1).
 * Alone on a connector, it takes prior-knowledge clients only. It is the {@link Http1Handover}
 * the HTTP/1.1 connection asks its connector for (the methods of that interface are for it, not
 * for applications).
 *
 * <pre>
 * new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
 * </pre>
 */
public class Http2CleartextConnectionFactory extends Http2ConnectionFactory implements Http1Handover {

    /** The protocol name of HTTP/2 over cleartext TCP. */
    public static final String H2C = "h2c";

    /** A factory with default configurations. */
    public Http2CleartextConnectionFactory() {
        this(new HttpConfiguration(), new SessionConfiguration());
    }

    public Http2CleartextConnectionFactory(HttpConfiguration configuration, SessionConfiguration sessionConfiguration) {
        super(H2C, configuration, sessionConfiguration);
    }

    @Override
    public Preface preface(ByteBuffer bytes) {
        return ClientPreface.of(bytes);
    }

    @Override
    public void refuseBrokenPreface(EndPoint endPoint, ByteBufferPool pool) {
        PrefaceRefusal.write(endPoint, pool, PrefaceRefusal.INVALID_PREFACE);
    }

    @Override
    public void refuseNotHttp1(EndPoint endPoint, ByteBufferPool pool) {
        PrefaceRefusal.write(endPoint, pool, PrefaceRefusal.NOT_HTTP);
    }

    /** @return for a request with {@code Upgrade: h2c} and {@code HTTP2-Settings}, the HTTP/2 connection that answers it on stream 1 */
    @Override
    public Function<EndPoint, Connection> upgrade(Connector connector, String method, String target, HttpVersion version,
                                                  HttpFields fields, long length) {
        return H2cUpgrade.of(this, connector, method, target, version, fields, length);
    }
}
