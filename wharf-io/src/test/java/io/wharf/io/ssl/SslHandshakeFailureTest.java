package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import io.wharf.io.connect.ClientConnector;
import io.wharf.io.Connection;
import io.wharf.io.EchoServer;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.Promise;
import io.wharf.util.buffer.ByteBuffers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Certificates that must not be trusted, host names that do not match, and the explicit ways around them. */
@Timeout(60)
class SslHandshakeFailureTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final CompletableFuture<Throwable> serverFailure = new CompletableFuture<>();
    private final CompletableFuture<Throwable> clientFailure = new CompletableFuture<>();

    private EchoServer server() throws Exception {
        return SslTesting.echoServer(leaks.pool(), tls -> tls.addListener(new SslConnection.Listener() {
            @Override
            public void handshakeFailed(SslEndPoint endPoint, Throwable cause) {
                serverFailure.complete(cause);
            }
        }));
    }

    private ClientConnector client(SSLContext context, Consumer<ClientConnector> configure) throws Exception {
        return SslTesting.client(leaks.pool(), context, connector -> {
            connector.addSslListener(new SslConnection.Listener() {
                @Override
                public void handshakeFailed(SslEndPoint endPoint, Throwable cause) {
                    clientFailure.complete(cause);
                }
            });
            configure.accept(connector);
        });
    }

    /** Connects, writes one message and returns the recording connection. */
    private RecordingConnection connect(ClientConnector client, InetSocketAddress address) throws Exception {
        Promise.Completable<Connection> opened = new Promise.Completable<>();
        client.connectTls(address, endPoint -> new RecordingConnection(endPoint, leaks.pool()), opened);
        RecordingConnection connection = (RecordingConnection) opened.get(10, TimeUnit.SECONDS);
        connection.getEndPoint().write(Callback.NOOP, ByteBuffers.utf8("ping"));
        return connection;
    }

    private static InetSocketAddress named(String host, int port) throws Exception {
        return new InetSocketAddress(InetAddress.getByAddress(host, InetAddress.getLoopbackAddress().getAddress()), port);
    }

    @Test
    void anUntrustedCertificateFailsTheFirstReadAndTheServerCloses() throws Exception {
        try (EchoServer server = server()) {
            ClientConnector client = client(TestCertificates.untrustingClientContext(), connector -> { });
            try {
                RecordingConnection connection = connect(client, named("localhost", server.port()));
                Throwable cause = connection.closed().get(10, TimeUnit.SECONDS);
                assertInstanceOf(SSLHandshakeException.class, cause, "the connection fails with the handshake's cause");
                assertTrue(cause.getMessage().contains("PKIX path building failed"), cause.getMessage());
                assertInstanceOf(SSLHandshakeException.class, clientFailure.get(10, TimeUnit.SECONDS));
                Throwable serverCause = serverFailure.get(10, TimeUnit.SECONDS);
                assertInstanceOf(SSLException.class, serverCause);
                assertTrue(serverCause.getMessage().contains("certificate_unknown"), "the client's alert reached the server: " + serverCause.getMessage());
            } finally {
                client.stop();
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    @Test
    void aHostNameTheCertificateDoesNotNameFailsByDefault() throws Exception {
        try (EchoServer server = server()) {
            ClientConnector client = client(TestCertificates.clientContext(), connector -> { });
            try {
                RecordingConnection connection = connect(client, named("wharf.invalid", server.port()));
                Throwable cause = connection.closed().get(10, TimeUnit.SECONDS);
                assertInstanceOf(SSLHandshakeException.class, cause);
                assertTrue(cause.getMessage().contains("wharf.invalid"), cause.getMessage());
                assertInstanceOf(SSLException.class, serverFailure.get(10, TimeUnit.SECONDS));
            } finally {
                client.stop();
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    @Test
    void withoutHostNameVerificationTheSameHostNameIsAccepted() throws Exception {
        try (EchoServer server = server()) {
            ClientConnector client = client(TestCertificates.clientContext(), connector -> connector.setEndpointIdentificationAlgorithm(null));
            try {
                RecordingConnection connection = connect(client, named("wharf.invalid", server.port()));
                assertEquals("ping", connection.received(4).get(10, TimeUnit.SECONDS));
                connection.getEndPoint().close();
            } finally {
                client.stop();
            }
        }
    }

    @Test
    void trustingAllIsAnExplicitInsecureChoice() throws Exception {
        try (EchoServer server = server()) {
            ClientConnector client = client(TestCertificates.untrustingClientContext(), connector -> connector.setTrustAllCertificatesInsecurely(true));
            try {
                RecordingConnection connection = connect(client, named("wharf.invalid", server.port()));
                assertEquals("ping", connection.received(4).get(10, TimeUnit.SECONDS), "untrusted and misnamed, yet accepted");
                connection.getEndPoint().close();
            } finally {
                client.stop();
            }
        }
    }

    @Test
    void sniCarriesHostNamesNotIpLiterals() throws Exception {
        try (EchoServer server = server()) {
            ClientConnector client = client(TestCertificates.clientContext(), connector -> { });
            try {
                RecordingConnection byName = connect(client, named("localhost", server.port()));
                assertEquals("ping", byName.received(4).get(10, TimeUnit.SECONDS));
                List<SNIServerName> names = ((SslEndPoint) byName.getEndPoint()).getSslEngine().getSSLParameters().getServerNames();
                assertEquals(1, names.size());
                assertEquals("localhost", ((javax.net.ssl.SNIHostName) names.get(0)).getAsciiName());
                byName.getEndPoint().close();

                RecordingConnection byAddress = connect(client, new InetSocketAddress("127.0.0.1", server.port()));
                assertEquals("ping", byAddress.received(4).get(10, TimeUnit.SECONDS), "verified against the certificate's IP address");
                List<SNIServerName> none = ((SslEndPoint) byAddress.getEndPoint()).getSslEngine().getSSLParameters().getServerNames();
                assertTrue(none == null || none.isEmpty(), "no SNI for an IP literal: " + none);
                byAddress.getEndPoint().close();
            } finally {
                client.stop();
            }
        }
    }

    @Test
    void onlyTls12AndLaterAreEnabled() {
        SslConnectionFactory factory = SslConnectionFactory.forServer(TestCertificates.serverContext());
        List<String> enabled = List.of(factory.newEngine(null).getEnabledProtocols());
        assertTrue(enabled.contains("TLSv1.3") && enabled.contains("TLSv1.2"), enabled.toString());
        for (String old : List.of("SSLv3", "TLSv1", "TLSv1.1", "SSLv2Hello")) {
            assertTrue(!enabled.contains(old), old + " is disabled");
        }
        assertEquals(List.of("TLSv1.2"), List.of(SslConnectionFactory.secureProtocols(new String[] {"TLSv1", "TLSv1.1", "TLSv1.2"})));
    }
}
