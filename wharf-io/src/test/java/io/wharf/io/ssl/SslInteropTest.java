package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

import io.wharf.io.connect.ClientConnector;
import io.wharf.io.Connection;
import io.wharf.io.EchoServer;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Promise;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Wharf's TLS against the JDK's blocking TLS sockets, both ways: it speaks standard TLS. */
@Timeout(60)
class SslInteropTest {

    private static final int SIZE = 2 << 20;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void jdkSocketClientAgainstWharfServer(String protocol) throws Exception {
        byte[] data = new byte[SIZE];
        ThreadLocalRandom.current().nextBytes(data);
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> { })) {
            try (SSLSocket socket = (SSLSocket) TestCertificates.clientContext().getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), server.port())) {
                socket.setEnabledProtocols(new String[] {protocol});
                socket.setSoTimeout(30_000);
                CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                    try {
                        OutputStream out = socket.getOutputStream();
                        out.write(data);
                        out.flush();
                        socket.shutdownOutput();
                    } catch (IOException x) {
                        throw new RuntimeException(x);
                    }
                });
                InputStream in = socket.getInputStream();
                byte[] echoed = in.readNBytes(SIZE);
                sent.get(30, TimeUnit.SECONDS);
                assertEquals(protocol, socket.getSession().getProtocol());
                assertArrayEquals(data, echoed, "echoed intact");
                assertEquals(-1, in.read(), "the echo server closed after our close_notify, with its own");
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void wharfClientAgainstJdkServerSocket(String protocol) throws Exception {
        try (SSLServerSocket server = (SSLServerSocket) TestCertificates.serverContext().getServerSocketFactory()
            .createServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            server.setEnabledProtocols(new String[] {protocol});
            CompletableFuture<String> served = CompletableFuture.supplyAsync(() -> {
                try (SSLSocket socket = (SSLSocket) server.accept()) {
                    socket.setSoTimeout(30_000);
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream();
                    byte[] buffer = new byte[8192];
                    int read;
                    while ((read = in.read(buffer)) >= 0) {
                        out.write(buffer, 0, read);
                    }
                    return socket.getSession().getProtocol();
                } catch (IOException x) {
                    throw new RuntimeException(x);
                }
            });
            ClientConnector client = SslTesting.client(leaks.pool());
            try {
                CompletableFuture<Long> done = new CompletableFuture<>();
                Promise.Completable<Connection> opened = new Promise.Completable<>();
                client.connectTls(new InetSocketAddress("localhost", server.getLocalPort()),
                    endPoint -> new PatternClient(endPoint, leaks.pool(), SIZE, 100_000, done), opened);
                Connection connection = opened.get(10, TimeUnit.SECONDS);
                assertEquals(SIZE, done.get(30, TimeUnit.SECONDS), "the JDK server echoed every byte in order");
                assertEquals(protocol, ((SslEndPoint) connection.getEndPoint()).getSslEngine().getSession().getProtocol());
                connection.getEndPoint().close();
                assertEquals(protocol, served.get(10, TimeUnit.SECONDS), "the JDK server read our close_notify as the end");
            } finally {
                client.stop();
            }
        }
    }
}
