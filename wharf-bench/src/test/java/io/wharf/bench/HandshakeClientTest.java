package io.wharf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The handshake driver's connection against the Wharf and Jetty HTTP/2 servers of the macro
 * runs, in this JVM on loopback: one full handshake and one request in each protocol, and a
 * clear failure when the server does not speak what was offered.
 */
@Timeout(60)
class HandshakeClientTest {

    private static BenchCertificate certificate;
    private static TrustManagerFactory trust;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certificate = BenchCertificate.create();
        trust = certificate.trustManagers();
    }

    @AfterAll
    static void deleteCertificate() throws Exception {
        certificate.close();
    }

    private static InetSocketAddress anyLoopbackPort() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    @Test
    void wharfAnswersInBothProtocols() throws Exception {
        try (ServerProcess.Target wharf = Http2Servers.wharf(anyLoopbackPort(), certificate.directory())) {
            HandshakeClient client = new HandshakeClient(trust, wharf.otherPorts().get(Protocol.H2));
            for (int i = 0; i < 3; i++) {
                client.exchange("h2");
                client.exchange("http/1.1");
            }
        }
    }

    @Test
    void jettyAnswersInBothProtocols() throws Exception {
        try (ServerProcess.Target jetty = Http2Servers.jetty(anyLoopbackPort(), certificate.directory())) {
            HandshakeClient client = new HandshakeClient(trust, jetty.otherPorts().get(Protocol.H2));
            client.exchange("h2");
            client.exchange("http/1.1");
        }
    }

    @Test
    void theFirstFieldComesAfterTableSizeUpdates() {
        assertEquals(0, HandshakeClient.firstField(new byte[] {(byte) 0x88}, 0));
        assertEquals(1, HandshakeClient.firstField(new byte[] {0x20, (byte) 0x88}, 0));
        // 4096 as a 5-bit prefixed integer: 31, then 4065 in 7-bit groups (0xE1 0x1F)
        assertEquals(3, HandshakeClient.firstField(new byte[] {0x3F, (byte) 0xE1, 0x1F, (byte) 0x88}, 0));
        assertEquals(6, HandshakeClient.firstField(new byte[] {0, 0, 0, 0, 0, 0x20, (byte) 0x88}, 5));
    }

    @Test
    void aProtocolTheServerDoesNotSpeakFails() throws Exception {
        try (ServerProcess.Target wharf = Http2Servers.wharf(anyLoopbackPort(), certificate.directory())) {
            HandshakeClient client = new HandshakeClient(trust, wharf.otherPorts().get(Protocol.H2));
            Exception failure = assertThrows(Exception.class, () -> client.exchange("spdy/3"));
            assertTrue(failure.getMessage() != null, String.valueOf(failure));
        }
    }
}
