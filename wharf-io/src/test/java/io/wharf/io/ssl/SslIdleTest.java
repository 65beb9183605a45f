package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.wharf.io.connect.ClientConnector;
import io.wharf.io.ClientTestConnection;
import io.wharf.io.Connection;
import io.wharf.io.EchoServer;
import io.wharf.io.EndPoint;
import io.wharf.io.ReplyCollector;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.Promise;
import io.wharf.util.buffer.ByteBuffers;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TLS connections that completed the handshake (half of them also echoed a message) and are
 * now idle hold no pooled buffer, on either side: the pool has nothing outstanding.
 */
@Timeout(60)
class SslIdleTest {

    private static final int CONNECTIONS = 200;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void handshakenIdleConnectionsHoldNoBuffers(String protocol) throws Exception {
        try (EchoServer server = SslTesting.echoServer(leaks.pool(),
            tls -> tls.setParametersCustomizer(parameters -> parameters.setProtocols(new String[] {protocol})))) {
            CountDownLatch handshakes = new CountDownLatch(CONNECTIONS);
            ClientConnector client = SslTesting.client(leaks.pool(), TestCertificates.clientContext(),
                connector -> connector.addSslListener(new SslConnection.Listener() {
                    @Override
                    public void handshakeSucceeded(SslHandshake event) {
                        if (event.protocol().equals(protocol)) {
                            handshakes.countDown();
                        }
                    }
                }));
            try {
                List<EndPoint> endPoints = new ArrayList<>();
                for (int i = 0; i < CONNECTIONS; i++) {
                    Promise.Completable<Connection> opened = new Promise.Completable<>();
                    if (i % 2 == 0) {
                        // Only reads: the handshake runs, no application byte moves.
                        client.connectTls(server.address(), endPoint -> new RecordingConnection(endPoint, leaks.pool()), opened);
                        endPoints.add(opened.get(10, TimeUnit.SECONDS).getEndPoint());
                    } else {
                        ReplyCollector reply = new ReplyCollector(5);
                        client.connectTls(server.address(), endPoint -> new ClientTestConnection(endPoint, leaks.pool(), reply), opened);
                        EndPoint endPoint = opened.get(10, TimeUnit.SECONDS).getEndPoint();
                        endPoint.write(Callback.NOOP, ByteBuffers.utf8("ping" + (i % 10)));
                        assertEquals("ping" + (i % 10), reply.text().get(10, TimeUnit.SECONDS));
                        endPoints.add(endPoint);
                    }
                }
                assertEquals(true, handshakes.await(20, TimeUnit.SECONDS), "every handshake completed with " + protocol);
                Deadline.await(() -> leaks.pool().outstanding() == 0, Duration.ofSeconds(10));
                assertEquals(CONNECTIONS, server.group().getOpenEndPoints(), "all still open");
                for (Connection connection : server.opened()) {
                    assertEquals(0, ((SslConnection) connection).getHeldBuffers(), "idle server connection " + connection);
                }
                assertEquals(0, leaks.pool().outstanding(), "idle TLS connections hold no buffers");
                for (EndPoint endPoint : endPoints) {
                    endPoint.close();
                }
            } finally {
                client.stop();
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }
}
