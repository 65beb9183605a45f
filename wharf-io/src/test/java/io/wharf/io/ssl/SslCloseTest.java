package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;

import io.wharf.io.connect.ClientConnector;
import io.wharf.io.Connection;
import io.wharf.io.EchoServer;
import io.wharf.io.EndPoint;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.Promise;
import io.wharf.util.buffer.ByteBuffers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** close_notify both ways, close with and without the peer's close_notify, abrupt closes, and closing with a write pending. */
@Timeout(60)
class SslCloseTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final CompletableFuture<RecordingConnection> serverSide = new CompletableFuture<>();
    private final CompletableFuture<Throwable> serverHandshakeFailure = new CompletableFuture<>();

    private EchoServer recordingServer(String protocol) throws Exception {
        return SslTesting.server(leaks.pool(), Duration.ofSeconds(30), tls -> {
            tls.setParametersCustomizer(parameters -> parameters.setProtocols(new String[] {protocol}));
            tls.addListener(new SslConnection.Listener() {
                @Override
                public void handshakeFailed(SslEndPoint endPoint, Throwable cause) {
                    serverHandshakeFailure.complete(cause);
                }
            });
        }, endPoint -> {
            RecordingConnection recorder = new RecordingConnection(endPoint, leaks.pool());
            serverSide.complete(recorder);
            return recorder;
        });
    }

    private SSLSocket jdkClient(EchoServer server, String protocol) throws IOException {
        SSLSocket socket = (SSLSocket) TestCertificates.clientContext().getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), server.port());
        socket.setEnabledProtocols(new String[] {protocol});
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        return socket;
    }

    @Test
    void closeNotifyBothWaysWithHalfCloseOnTls13() throws Exception {
        try (EchoServer server = recordingServer("TLSv1.3")) {
            ClientConnector client = SslTesting.client(leaks.pool());
            try {
                Promise.Completable<Connection> opened = new Promise.Completable<>();
                client.connectTls(server.address(), endPoint -> new RecordingConnection(endPoint, leaks.pool()), opened);
                RecordingConnection clientSide = (RecordingConnection) opened.get(10, TimeUnit.SECONDS);
                EndPoint clientEndPoint = clientSide.getEndPoint();
                Callback.Completable written = new Callback.Completable();
                clientEndPoint.write(written, ByteBuffers.utf8("last words"));
                written.get(10, TimeUnit.SECONDS);
                clientEndPoint.shutdownOutput();

                RecordingConnection serverRecorder = serverSide.get(10, TimeUnit.SECONDS);
                assertEquals("last words", serverRecorder.ended().get(10, TimeUnit.SECONDS), "the server reads -1 after all the data");
                EndPoint serverEndPoint = serverRecorder.getEndPoint();
                assertTrue(serverEndPoint.isInputShutdown());
                assertTrue(serverEndPoint.isOpen(), "TLS 1.3 half-close: the server may still write");

                Callback.Completable replied = new Callback.Completable();
                serverEndPoint.write(replied, ByteBuffers.utf8("reply after your close"));
                replied.get(10, TimeUnit.SECONDS);
                serverEndPoint.shutdownOutput();
                assertEquals("reply after your close", clientSide.ended().get(10, TimeUnit.SECONDS), "the client reads -1 after the reply");
                assertNull(clientSide.closed().get(10, TimeUnit.SECONDS), "a normal close on the client");
                assertNull(serverRecorder.closed().get(10, TimeUnit.SECONDS), "a normal close on the server");
            } finally {
                client.stop();
            }
            Deadline.await(() -> server.closeCauses().size() == 1, Duration.ofSeconds(10));
            assertInstanceOf(EchoServer.NormalClose.class, server.closeCauses().get(0));
        }
    }

    @Test
    void closeNotifyOnTls12ClosesBothWays() throws Exception {
        try (EchoServer server = recordingServer("TLSv1.2")) {
            ClientConnector client = SslTesting.client(leaks.pool());
            try {
                Promise.Completable<Connection> opened = new Promise.Completable<>();
                client.connectTls(server.address(), endPoint -> new RecordingConnection(endPoint, leaks.pool()), opened);
                RecordingConnection clientSide = (RecordingConnection) opened.get(10, TimeUnit.SECONDS);
                Callback.Completable written = new Callback.Completable();
                clientSide.getEndPoint().write(written, ByteBuffers.utf8("last words"));
                written.get(10, TimeUnit.SECONDS);
                clientSide.getEndPoint().shutdownOutput();

                RecordingConnection serverRecorder = serverSide.get(10, TimeUnit.SECONDS);
                assertEquals("last words", serverRecorder.ended().get(10, TimeUnit.SECONDS));
                // TLS 1.2 has no half-close: the server answered with its own close_notify.
                assertEquals("", clientSide.ended().get(10, TimeUnit.SECONDS), "the client reads -1: the server's close_notify came back");
                Callback.Completable refused = new Callback.Completable();
                serverRecorder.getEndPoint().write(refused, ByteBuffers.utf8("too late"));
                ExecutionException failure = assertThrows(ExecutionException.class, () -> refused.get(10, TimeUnit.SECONDS));
                assertInstanceOf(IOException.class, failure.getCause(), "writing after the close_notify exchange fails");
                serverRecorder.getEndPoint().close();
                assertNull(clientSide.closed().get(10, TimeUnit.SECONDS));
            } finally {
                client.stop();
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    @Test
    void closeAfterThePeersCloseNotifySendsOurs() throws Exception {
        try (EchoServer server = recordingServer("TLSv1.3"); SSLSocket socket = jdkClient(server, "TLSv1.3")) {
            socket.getOutputStream().write("bye".getBytes(StandardCharsets.UTF_8));
            socket.shutdownOutput();
            RecordingConnection serverRecorder = serverSide.get(10, TimeUnit.SECONDS);
            assertEquals("bye", serverRecorder.ended().get(10, TimeUnit.SECONDS), "the JDK's close_notify ends the input");
            serverRecorder.getEndPoint().close();
            assertEquals(-1, socket.getInputStream().read(), "the JDK client reads our close_notify as a clean end");
            Deadline.await(() -> server.closeCauses().size() == 1, Duration.ofSeconds(10));
            assertInstanceOf(EchoServer.NormalClose.class, server.closeCauses().get(0));
        }
    }

    @Test
    void closeWhileThePeerStillTalksSendsCloseNotify() throws Exception {
        try (EchoServer server = recordingServer("TLSv1.3"); SSLSocket socket = jdkClient(server, "TLSv1.3")) {
            socket.getOutputStream().write("hello".getBytes(StandardCharsets.UTF_8));
            RecordingConnection serverRecorder = serverSide.get(10, TimeUnit.SECONDS);
            assertEquals("hello", serverRecorder.received(5).get(10, TimeUnit.SECONDS));
            serverRecorder.getEndPoint().close();
            assertEquals(-1, socket.getInputStream().read(), "close() sent close_notify although the peer sent none");
            assertNull(serverRecorder.closed().get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void networkEndWithoutCloseNotifyIsTheEndOfInput() throws Exception {
        try (EchoServer server = recordingServer("TLSv1.3");
             Socket plain = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            SSLSocket socket = (SSLSocket) TestCertificates.clientContext().getSocketFactory().createSocket(plain, "localhost", server.port(), false);
            socket.startHandshake();
            socket.getOutputStream().write("truncated".getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            RecordingConnection serverRecorder = serverSide.get(10, TimeUnit.SECONDS);
            assertEquals("truncated", serverRecorder.received(9).get(10, TimeUnit.SECONDS));
            plain.shutdownOutput();
            assertEquals("truncated", serverRecorder.ended().get(10, TimeUnit.SECONDS), "a TCP FIN without close_notify still ends the input");
            serverRecorder.getEndPoint().close();
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    @Test
    void abruptResetFailsTheConnectionClearly() throws Exception {
        try (EchoServer server = recordingServer("TLSv1.3")) {
            Socket plain = new Socket(InetAddress.getLoopbackAddress(), server.port());
            SSLSocket socket = (SSLSocket) TestCertificates.clientContext().getSocketFactory().createSocket(plain, "localhost", server.port(), false);
            socket.startHandshake();
            socket.getOutputStream().write("x".getBytes(StandardCharsets.UTF_8));
            RecordingConnection serverRecorder = serverSide.get(10, TimeUnit.SECONDS);
            serverRecorder.received(1).get(10, TimeUnit.SECONDS);
            plain.setSoLinger(true, 0);
            plain.close();
            Throwable cause = serverRecorder.closed().get(10, TimeUnit.SECONDS);
            assertInstanceOf(IOException.class, cause, "a reset closes the connection with the I/O error");
            Deadline.await(() -> server.closeCauses().size() == 1, Duration.ofSeconds(10));
            assertInstanceOf(IOException.class, server.closeCauses().get(0));
        }
    }

    @Test
    void networkEndDuringTheHandshakeFailsIt() throws Exception {
        try (EchoServer server = recordingServer("TLSv1.3")) {
            try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                // Half a TLS record header, then the end.
                plain.getOutputStream().write(new byte[] {0x16, 0x03});
                plain.shutdownOutput();
                Throwable cause = serverHandshakeFailure.get(10, TimeUnit.SECONDS);
                assertInstanceOf(SSLHandshakeException.class, cause);
                assertTrue(cause.getMessage().contains("during the TLS handshake"), cause.getMessage());
                plain.setSoTimeout(10_000);
                InputStream in = plain.getInputStream();
                while (in.read() >= 0) {
                    // An alert may come first; then the server closes.
                }
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    @Test
    void plainTextToATlsServerFailsTheHandshake() throws Exception {
        try (EchoServer server = recordingServer("TLSv1.3")) {
            try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                plain.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                Throwable cause = serverHandshakeFailure.get(10, TimeUnit.SECONDS);
                assertInstanceOf(javax.net.ssl.SSLException.class, cause, "not TLS: " + cause);
                plain.setSoTimeout(10_000);
                InputStream in = plain.getInputStream();
                while (in.read() >= 0) {
                    // Whatever the engine answered (an alert, or nothing), the server closes.
                }
            }
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    @Test
    void closingWithAWritePendingReleasesEverything() throws Exception {
        try (EchoServer server = recordingServer("TLSv1.3"); SSLSocket socket = jdkClient(server, "TLSv1.3")) {
            socket.getOutputStream().write('!');
            RecordingConnection serverRecorder = serverSide.get(10, TimeUnit.SECONDS);
            serverRecorder.received(1).get(10, TimeUnit.SECONDS);
            // The client never reads: 32 MiB cannot all go out, the write stays pending.
            ByteBuffer large = ByteBuffer.allocate(32 << 20);
            Callback.Completable written = new Callback.Completable();
            serverRecorder.getEndPoint().write(written, large);
            Deadline.await(() -> ((io.wharf.io.AbstractEndPoint) serverRecorder.getEndPoint()).isWritePending()
                && leaks.pool().outstanding() > 0, Duration.ofSeconds(10));
            Thread.sleep(100);
            assertTrue(!written.isDone(), "the write is still pending");
            serverRecorder.getEndPoint().close();
            ExecutionException failure = assertThrows(ExecutionException.class, () -> written.get(10, TimeUnit.SECONDS));
            assertInstanceOf(IOException.class, failure.getCause());
            Deadline.await(() -> leaks.pool().outstanding() == 0, Duration.ofSeconds(10));
        }
    }
}
