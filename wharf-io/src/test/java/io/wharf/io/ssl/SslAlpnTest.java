package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLHandshakeException;

import io.wharf.io.AbstractConnection;
import io.wharf.io.connect.ClientConnector;
import io.wharf.io.Connection;
import io.wharf.io.EchoServer;
import io.wharf.io.EndPoint;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.Promise;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ALPN: the server chooses from the client's offer; both sides' listeners hear the choice, before any application byte. */
@Timeout(60)
class SslAlpnTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final CompletableFuture<SslHandshake> serverHandshake = new CompletableFuture<>();
    private final CompletableFuture<SslHandshake> clientHandshake = new CompletableFuture<>();
    private final CompletableFuture<Throwable> clientFailure = new CompletableFuture<>();

    private SslConnection.Listener recording(CompletableFuture<SslHandshake> success, CompletableFuture<Throwable> failure) {
        return new SslConnection.Listener() {
            @Override
            public void handshakeSucceeded(SslHandshake event) {
                success.complete(event);
            }

            @Override
            public void handshakeFailed(SslEndPoint endPoint, Throwable cause) {
                failure.complete(cause);
            }
        };
    }

    private ClientConnector client(List<String> offered) throws Exception {
        return SslTesting.client(leaks.pool(), TestCertificates.clientContext(), connector -> {
            connector.setApplicationProtocols(offered);
            connector.addSslListener(recording(clientHandshake, clientFailure));
        });
    }

    /** Connects, sends one message, returns the connection once the echo came back. */
    private RecordingConnection echo(ClientConnector client, EchoServer server) throws Exception {
        Promise.Completable<Connection> opened = new Promise.Completable<>();
        client.connectTls(server.address(), endPoint -> new RecordingConnection(endPoint, leaks.pool()), opened);
        RecordingConnection connection = (RecordingConnection) opened.get(10, TimeUnit.SECONDS);
        connection.getEndPoint().write(Callback.NOOP, ByteBuffers.utf8("alpn"));
        assertEquals("alpn", connection.received(4).get(10, TimeUnit.SECONDS));
        return connection;
    }

    @Test
    void theServerSelectsH2AndBothListenersHearIt() throws Exception {
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> {
            tls.setProtocolSelector((engine, offered) -> offered.contains("h2") ? "h2" : offered.contains("http/1.1") ? "http/1.1" : null);
            tls.addListener(recording(serverHandshake, new CompletableFuture<>()));
        })) {
            ClientConnector client = client(List.of("h2", "http/1.1"));
            try {
                RecordingConnection connection = echo(client, server);
                SslHandshake serverEvent = serverHandshake.get(10, TimeUnit.SECONDS);
                SslHandshake clientEvent = clientHandshake.get(10, TimeUnit.SECONDS);
                assertEquals("h2", serverEvent.applicationProtocol());
                assertEquals("h2", clientEvent.applicationProtocol());
                assertEquals("h2", ((SslEndPoint) connection.getEndPoint()).getSslEngine().getApplicationProtocol(), "the client sees it");
                assertEquals("TLSv1.3", clientEvent.protocol());
                assertTrue(clientEvent.cipherSuite().startsWith("TLS_"), clientEvent.cipherSuite());
                assertEquals(List.of(TestCertificates.certificate()), clientEvent.peerCertificates(), "the client saw the server's certificate");
                assertEquals(List.of(), serverEvent.peerCertificates(), "no client certificate was asked for");
                assertTrue(serverEvent.endPoint().isSecure());
                connection.getEndPoint().close();
            } finally {
                client.stop();
            }
        }
    }

    @Test
    void theDefaultSelectorPrefersTheServersOrder() throws Exception {
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> {
            tls.setApplicationProtocols(List.of("h2", "http/1.1"));
            tls.addListener(recording(serverHandshake, new CompletableFuture<>()));
        })) {
            ClientConnector client = client(List.of("http/1.1", "h2"));
            try {
                echo(client, server).getEndPoint().close();
                assertEquals("h2", serverHandshake.get(10, TimeUnit.SECONDS).applicationProtocol());
                assertEquals("h2", clientHandshake.get(10, TimeUnit.SECONDS).applicationProtocol());
            } finally {
                client.stop();
            }
        }
    }

    @Test
    void aClientWithoutAlpnGetsNone() throws Exception {
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> {
            tls.setApplicationProtocols(List.of("h2", "http/1.1"));
            tls.addListener(recording(serverHandshake, new CompletableFuture<>()));
        })) {
            ClientConnector client = client(List.of());
            try {
                echo(client, server).getEndPoint().close();
                assertEquals("", serverHandshake.get(10, TimeUnit.SECONDS).applicationProtocol());
                assertEquals("", clientHandshake.get(10, TimeUnit.SECONDS).applicationProtocol());
            } finally {
                client.stop();
            }
        }
    }

    @Test
    void noCommonProtocolFailsTheHandshake() throws Exception {
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> tls.setApplicationProtocols(List.of("h2", "http/1.1")))) {
            ClientConnector client = client(List.of("spdy/3"));
            try {
                Promise.Completable<Connection> opened = new Promise.Completable<>();
                client.connectTls(server.address(), endPoint -> new RecordingConnection(endPoint, leaks.pool()), opened);
                RecordingConnection connection = (RecordingConnection) opened.get(10, TimeUnit.SECONDS);
                assertInstanceOf(SSLHandshakeException.class, connection.closed().get(10, TimeUnit.SECONDS));
                Throwable cause = clientFailure.get(10, TimeUnit.SECONDS);
                assertTrue(cause.getMessage().contains("no_application_protocol"), cause.getMessage());
            } finally {
                client.stop();
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    /**
     * The listener upgrades the decrypted endpoint to the negotiated protocol's connection; the
     * client sends its bytes at once, in the same flight as its Finished, yet the placeholder
     * connection never sees one: the listener runs before any application byte is delivered.
     */
    @Test
    void theListenerUpgradesBeforeTheFirstApplicationByte() throws Exception {
        AtomicInteger leakedToPlaceholder = new AtomicInteger();
        List<CompletableFuture<RecordingConnection>> upgraded = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (EchoServer server = SslTesting.server(leaks.pool(), Duration.ofSeconds(30), tls -> {
            tls.setApplicationProtocols(List.of("h2"));
            tls.addListener(new SslConnection.Listener() {
                @Override
                public void handshakeSucceeded(SslHandshake event) {
                    RecordingConnection next = new RecordingConnection(event.endPoint(), leaks.pool());
                    event.endPoint().upgrade(next);
                    upgraded.add(CompletableFuture.completedFuture(next));
                }
            });
        }, endPoint -> new Placeholder(endPoint, leaks.pool(), leakedToPlaceholder))) {
            ClientConnector client = client(List.of("h2"));
            try {
                for (int i = 0; i < 20; i++) {
                    String text = "first bytes " + i;
                    Promise.Completable<Connection> opened = new Promise.Completable<>();
                    client.connectTls(server.address(), endPoint -> new EagerWriter(endPoint, text), opened);
                    Connection connection = opened.get(10, TimeUnit.SECONDS);
                    int index = i;
                    Deadline.await(() -> upgraded.size() > index, Duration.ofSeconds(10));
                    assertEquals(text, upgraded.get(i).get().received(text.length()).get(10, TimeUnit.SECONDS));
                    connection.getEndPoint().close();
                }
            } finally {
                client.stop();
            }
            assertEquals(0, leakedToPlaceholder.get(), "the connection before the upgrade read no application byte");
        }
    }

    /** Writes its text as soon as it opens, before the handshake completed. */
    private static final class EagerWriter extends AbstractConnection {
        private final String text;

        EagerWriter(EndPoint endPoint, String text) {
            super(endPoint, Runnable::run);
            this.text = text;
        }

        @Override
        public void onOpen() {
            getEndPoint().write(Callback.NOOP, ByteBuffers.utf8(text));
        }

        @Override
        public void onFillable() {
        }
    }

    /** The connection an ALPN negotiation starts with: it must see no application byte. */
    private static final class Placeholder extends AbstractConnection {
        private final io.wharf.util.buffer.ByteBufferPool pool;
        private final AtomicInteger leaked;

        Placeholder(EndPoint endPoint, io.wharf.util.buffer.ByteBufferPool pool, AtomicInteger leaked) {
            super(endPoint, Runnable::run);
            this.pool = pool;
            this.leaked = leaked;
        }

        @Override
        public void onOpen() {
            fillInterested();
        }

        @Override
        public void onFillable() {
            RetainableByteBuffer buffer = pool.acquire(1024, false);
            try {
                int filled = getEndPoint().fill(buffer.byteBuffer());
                if (filled > 0) {
                    leaked.addAndGet(filled);
                } else if (filled == 0 && getEndPoint().getConnection() == this) {
                    fillInterested();
                }
            } catch (IOException x) {
                getEndPoint().close(x);
            } finally {
                buffer.release();
            }
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
