package io.wharf.io.ssl;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;

import javax.net.ssl.SSLContext;

import io.wharf.io.connect.ClientConnector;
import io.wharf.io.Connection;
import io.wharf.io.EchoConnection;
import io.wharf.io.EchoServer;
import io.wharf.io.EndPoint;
import io.wharf.util.buffer.ByteBufferPool;

/** Test helper: TLS echo servers and TLS client connectors over the test certificate. */
final class SslTesting {

    private SslTesting() {
    }

    /** @return a started TLS echo server on loopback, its factory configured by {@code configure} */
    static EchoServer echoServer(ByteBufferPool pool, Consumer<SslConnectionFactory> configure) throws Exception {
        return server(pool, Duration.ofSeconds(30), configure, endPoint -> new EchoConnection(endPoint, pool, 4096));
    }

    /** @return a started TLS server on loopback whose decrypted connections {@code application} makes */
    static EchoServer server(ByteBufferPool pool, Duration idleTimeout, Consumer<SslConnectionFactory> configure,
                             Function<EndPoint, Connection> application) throws Exception {
        SslConnectionFactory tls = SslConnectionFactory.forServer(TestCertificates.serverContext());
        configure.accept(tls);
        return new EchoServer(pool, false, idleTimeout, (endPoint, p, executor) -> tls.newConnection(endPoint, executor, p, application));
    }

    /** @return a started client connector trusting the test certificate */
    static ClientConnector client(ByteBufferPool pool) throws Exception {
        return client(pool, TestCertificates.clientContext(), connector -> { });
    }

    /** @return a started client connector with {@code context}, configured by {@code configure} */
    static ClientConnector client(ByteBufferPool pool, SSLContext context, Consumer<ClientConnector> configure) throws Exception {
        ClientConnector connector = new ClientConnector();
        connector.setByteBufferPool(pool);
        connector.setSslContext(context);
        configure.accept(connector);
        connector.start();
        return connector;
    }

    /** The byte at {@code offset} of the test streams. */
    static byte pattern(long offset) {
        return (byte) (offset * 31 + (offset >>> 9));
    }
}
