package io.wharf.bench;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.ServerTlsContext;
import io.wharf.server.tls.TlsConnectionFactory;

import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The hello-world servers of the {@code h2} and {@code tls-handshakes} macro runs, Wharf and
 * Jetty 12.1, with {@link HelloServers}' handlers behind three connectors each, set up alike
 * by {@link BenchServers} (one acceptor, one selector each, the default thread pool): HTTP/1.1
 * in clear text, h2c only (prior knowledge), and TLS with ALPN offering {@code h2} then
 * {@code http/1.1}, presenting the {@link BenchCertificate} in the directory given. Both use
 * their HTTP/2 defaults (128 concurrent streams each). Started by {@link ServerProcess}
 * ({@code wharf-h2 DIR}, {@code jetty-h2 DIR}) in its own JVM, which prints the three ports.
 */
final class Http2Servers {

    private Http2Servers() {
    }

    static ServerProcess.Target wharf(InetSocketAddress address, Path certificate) throws Exception {
        BenchCertificate files = BenchCertificate.in(certificate);
        ServerTlsContext tls = new ServerTlsContext().keyStore(files.keyStore(), BenchCertificate.PASSWORD);
        Server server = new Server();
        ServerConnector http = BenchServers.wharfConnector(server, address, new HttpConnectionFactory());
        ServerConnector h2c = BenchServers.wharfConnector(server, address, new Http2CleartextConnectionFactory());
        ServerConnector h2 = BenchServers.wharfConnector(server, address, new TlsConnectionFactory(tls), new HttpConnectionFactory(),
            new Http2ConnectionFactory());
        server.setHandler(HelloServers.wharfHandler());
        server.start();
        return target(http.getLocalPort(), h2c.getLocalPort(), h2.getLocalPort(),
            () -> http.getSelectorGroup().getOpenEndPoints() + h2c.getSelectorGroup().getOpenEndPoints() + h2.getSelectorGroup().getOpenEndPoints(),
            server::stop);
    }

    static ServerProcess.Target jetty(InetSocketAddress address, Path certificate) throws Exception {
        BenchCertificate files = BenchCertificate.in(certificate);
        org.eclipse.jetty.server.Server server = new org.eclipse.jetty.server.Server();
        HttpConfiguration configuration = new HttpConfiguration();
        var http = BenchServers.jettyConnector(server, address, new org.eclipse.jetty.server.HttpConnectionFactory(configuration));
        var h2c = BenchServers.jettyConnector(server, address, new HTTP2CServerConnectionFactory(configuration));

        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(files.keyStore().toString());
        ssl.setKeyStorePassword(BenchCertificate.PASSWORD);
        ssl.setKeyStoreType("PKCS12");
        // HTTPS as Jetty is usually set up: secure requests, without the SNI host check
        // (the load tools connect to 127.0.0.1 and send no server name).
        HttpConfiguration secure = new HttpConfiguration(configuration);
        secure.addCustomizer(new SecureRequestCustomizer(false));
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        alpn.setDefaultProtocol("http/1.1");
        var h2 = BenchServers.jettyConnector(server, address, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
            new HTTP2ServerConnectionFactory(secure), new org.eclipse.jetty.server.HttpConnectionFactory(secure));
        server.setHandler(HelloServers.jettyHandler());
        server.start();
        return target(http.getLocalPort(), h2c.getLocalPort(), h2.getLocalPort(),
            () -> http.getConnectedEndPoints().size() + h2c.getConnectedEndPoints().size() + h2.getConnectedEndPoints().size(),
            server::stop);
    }

    private static ServerProcess.Target target(int http, int h2c, int h2, java.util.function.IntSupplier connections, AutoCloseable stop) {
        ServerProcess.Target base = ServerProcess.Target.of(() -> http, connections, stop);
        return new ServerProcess.Target() {
            @Override
            public int port() throws Exception {
                return base.port();
            }

            @Override
            public int connections() {
                return base.connections();
            }

            @Override
            public Map<Protocol, Integer> otherPorts() {
                return Map.of(Protocol.H2C, h2c, Protocol.H2, h2);
            }

            @Override
            public void close() throws Exception {
                base.close();
            }
        };
    }
}
