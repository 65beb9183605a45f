package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;

import io.wharf.io.EchoServer;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A TLS 1.2 peer that starts a second handshake is refused and the connection closed; a
 * TLS 1.3 peer that asks for a key update (its "startHandshake" again) is not.
 */
@Timeout(60)
class SslRenegotiationTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private static SSLSocket client(EchoServer server, String protocol) throws IOException {
        SSLSocket socket = (SSLSocket) TestCertificates.clientContext().getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), server.port());
        socket.setEnabledProtocols(new String[] {protocol});
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        return socket;
    }

    private static byte[] echo(SSLSocket socket, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        return socket.getInputStream().readNBytes(bytes.length);
    }

    @Test
    void tls12RenegotiationIsRefusedAndTheConnectionCloses() throws Exception {
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> { }); SSLSocket socket = client(server, "TLSv1.2")) {
            assertEquals("TLSv1.2", socket.getSession().getProtocol());
            assertArrayEquals("before".getBytes(StandardCharsets.UTF_8), echo(socket, "before"));
            try {
                socket.startHandshake();
                socket.getOutputStream().write("after".getBytes(StandardCharsets.UTF_8));
                InputStream in = socket.getInputStream();
                while (in.read() >= 0) {
                    // Nothing may be echoed after the renegotiation attempt; the server closes.
                }
            } catch (IOException expected) {
                // The server closed during the client's second handshake.
            }
            Deadline.await(() -> server.closeCauses().size() == 1, Duration.ofSeconds(10));
            Throwable cause = server.closeCauses().get(0);
            assertInstanceOf(SSLHandshakeException.class, cause, "closed with " + cause);
            assertTrue(cause.getMessage().contains("renegotiation is not allowed"), cause.getMessage());
        }
    }

    @Test
    void tls13KeyUpdateIsNotRenegotiation() throws Exception {
        try (EchoServer server = SslTesting.echoServer(leaks.pool(), tls -> { }); SSLSocket socket = client(server, "TLSv1.3")) {
            assertArrayEquals("before".getBytes(StandardCharsets.UTF_8), echo(socket, "before"));
            for (int i = 0; i < 3; i++) {
                // On TLS 1.3 the JDK sends a KeyUpdate; the server must answer it and carry on.
                socket.startHandshake();
                assertArrayEquals(("after " + i).getBytes(StandardCharsets.UTF_8), echo(socket, "after " + i));
            }
            assertTrue(server.closeCauses().isEmpty(), "still open: " + server.closeCauses());
        }
    }
}
