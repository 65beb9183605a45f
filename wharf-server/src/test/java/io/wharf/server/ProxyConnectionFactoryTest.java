package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.proxy.ProxyConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProxyConnectionFactoryTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String GET = "GET /where HTTP/1.1\r\nHost: localhost\r\n\r\n";

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;
    private LocalConnector connector;
    private ProxyConnectionFactory proxy = new ProxyConnectionFactory();

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** Starts a server whose connector speaks {@link #proxy} then HTTP/1.1. */
    private void start(Handler handler) throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setSendDateHeader(false);
        configuration.setSendServerVersion(false);
        connector = new LocalConnector(server, proxy, new HttpConnectionFactory(configuration));
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
    }

    /** Answers with the addresses the request came from and to, and the header's ALPN. */
    private static Handler addresses(InvocationType type) {
        return Handler.of(type, (request, response, callback) -> {
            ConnectionMetaData metaData = request.getConnectionMetaData();
            String body = Request.getRemoteAddress(request) + ":" + Request.getRemotePort(request)
                    + " -> " + text(metaData.getLocalSocketAddress())
                    + " alpn=" + metaData.getProxyHeader().flatMap(ProxyHeader::alpn).orElse("-")
                    + " " + request.getHttpURI().getPath();
            Response.write(response, true, body, callback);
            return true;
        });
    }

    private static String text(java.net.SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() + ":" + inet.getPort() : String.valueOf(address);
    }

    private static String body(String response) {
        assertTrue(response != null && response.startsWith("HTTP/1.1 200 OK\r\n"), String.valueOf(response));
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    private static ByteBuffer bytes(byte[] first, String then) {
        byte[] more = then.getBytes(StandardCharsets.ISO_8859_1);
        return ByteBuffer.allocate(first.length + more.length).put(first).put(more).flip();
    }

    @Test
    void aV1HeaderGivesTheHandlerTheClientsAddress() throws Exception {
        start(addresses(InvocationType.NON_BLOCKING));
        try (LocalConnector.Client client = connector.connect()) {
            client.send("PROXY TCP4 192.0.2.1 198.51.100.2 51000 443\r\n");
            client.send(GET);
            assertEquals("192.0.2.1:51000 -> 198.51.100.2:443 alpn=- /where", body(client.readResponse(WAIT)));
        }
    }

    @Test
    void aV2HeaderWithTlvsGivesTheHandlerTheAddressAndTheHeader() throws Exception {
        start(addresses(InvocationType.BLOCKING));
        byte[] header = ProxyV2Bytes.tcp6("2001:db8::1", 40000, "2001:db8::2", 8443).tlv(ProxyHeader.TLV_ALPN, "h2").build();
        try (LocalConnector.Client client = connector.connect()) {
            client.send(ByteBuffer.wrap(header));
            client.send(GET);
            assertEquals("2001:db8:0:0:0:0:0:1:40000 -> 2001:db8:0:0:0:0:0:2:8443 alpn=h2 /where", body(client.readResponse(WAIT)));
        }
    }

    @Test
    void theHeaderMayArriveInPieces() throws Exception {
        start(addresses(InvocationType.NON_BLOCKING));
        byte[] header = ProxyV2Bytes.tcp4("192.0.2.9", 1234, "192.0.2.10", 80).build();
        try (LocalConnector.Client client = connector.connect()) {
            for (byte b : header) {
                client.send(ByteBuffer.wrap(new byte[] {b}));
            }
            client.send(GET);
            assertEquals("192.0.2.9:1234 -> 192.0.2.10:80 alpn=- /where", body(client.readResponse(WAIT)));
        }
    }

    @Test
    void requestsSentWithTheHeaderAreNotLost() throws Exception {
        for (InvocationType type : new InvocationType[] {InvocationType.NON_BLOCKING, InvocationType.BLOCKING}) {
            start(addresses(type));
            try (LocalConnector.Client client = connector.connect()) {
                client.send(bytes(ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).build(),
                        GET + GET.replace("/where", "/second")));
                assertEquals("192.0.2.1:1 -> 192.0.2.2:2 alpn=- /where", body(client.readResponse(WAIT)), type.toString());
                assertEquals("192.0.2.1:1 -> 192.0.2.2:2 alpn=- /second", body(client.readResponse(WAIT)), type.toString());
            }
            try (LocalConnector.Client client = connector.connect()) {
                client.send("PROXY TCP4 192.0.2.3 192.0.2.4 3 4\r\n" + GET);
                assertEquals("192.0.2.3:3 -> 192.0.2.4:4 alpn=- /where", body(client.readResponse(WAIT)), type.toString());
                client.send(GET.replace("/where", "/later"));
                assertEquals("192.0.2.3:3 -> 192.0.2.4:4 alpn=- /later", body(client.readResponse(WAIT)), type.toString());
            }
            server.stop();
        }
        server = null;
    }

    @Test
    void aLocalCommandKeepsTheRealAddresses() throws Exception {
        start(addresses(InvocationType.NON_BLOCKING));
        try (LocalConnector.Client client = connector.connect()) {
            client.send(bytes(ProxyV2Bytes.local().build(), GET));
            // In memory, the real addresses are none.
            assertEquals("null:0 -> null alpn=- /where", body(client.readResponse(WAIT)));
        }
    }

    @Test
    void aV1UnknownHeaderKeepsTheRealAddresses() throws Exception {
        start(addresses(InvocationType.NON_BLOCKING));
        try (LocalConnector.Client client = connector.connect()) {
            client.send("PROXY UNKNOWN\r\n" + GET);
            assertEquals("null:0 -> null alpn=- /where", body(client.readResponse(WAIT)));
        }
    }

    @Test
    void malformedHeadersCloseWithoutAResponse() throws Exception {
        start(addresses(InvocationType.NON_BLOCKING));
        byte[] badCrc = ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).withCrc().build();
        badCrc[16] ^= 1;
        String[] bad = {
            GET,
            "PROXY TCP4 192.0.2.1 198.51.100.2 51000\r\n" + GET,
            "PROXY TCP4 010.0.0.1 198.51.100.2 1 2\r\n" + GET,
            "PROXY UNKNOWN " + "x".repeat(200),
            new String(ProxyV2Bytes.local().family(0x51).build(), StandardCharsets.ISO_8859_1) + GET,
            new String(badCrc, StandardCharsets.ISO_8859_1) + GET,
        };
        for (String request : bad) {
            try (LocalConnector.Client client = connector.connect()) {
                client.send(request);
                assertEquals("", client.readUntilClosed(WAIT), "no response to a bad PROXY header");
            }
        }
    }

    @Test
    void theEndOfInputBeforeTheHeaderEndsCloses() throws Exception {
        start(addresses(InvocationType.NON_BLOCKING));
        try (LocalConnector.Client client = connector.connect()) {
            client.send("PROXY TCP4 192.0.2.1");
            client.shutdownOutput();
            assertEquals("", client.readUntilClosed(WAIT));
        }
    }

    @Test
    void aHeaderTooSlowToArriveCloses() throws Exception {
        proxy.setHeaderTimeout(Duration.ofMillis(100));
        start(addresses(InvocationType.NON_BLOCKING));
        try (LocalConnector.Client client = connector.connect()) {
            client.send("PROXY TCP4 192.0.2.1");
            assertEquals("", client.readUntilClosed(WAIT), "closed by the header timeout, well before the wait ends");
        }
    }

    @Test
    void aMissingNextProtocolCloses() throws Exception {
        proxy = new ProxyConnectionFactory("h2");
        start(addresses(InvocationType.NON_BLOCKING));
        try (LocalConnector.Client client = connector.connect()) {
            client.send("PROXY UNKNOWN\r\n" + GET);
            assertEquals("", client.readUntilClosed(WAIT));
        }
    }

    @Test
    void gracefulShutdownClosesConnectionsBeforeAndAfterTheHeader() throws Exception {
        start(addresses(InvocationType.NON_BLOCKING));
        try (LocalConnector.Client waiting = connector.connect(); LocalConnector.Client proxied = connector.connect()) {
            waiting.send("PROXY TCP4");
            proxied.send("PROXY TCP4 192.0.2.1 192.0.2.2 1 2\r\n" + GET);
            assertEquals("192.0.2.1:1 -> 192.0.2.2:2 alpn=- /where", body(proxied.readResponse(WAIT)));
            connector.shutdown().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals("", waiting.readUntilClosed(WAIT));
            assertNull(proxied.readResponse(WAIT), "the idle proxied connection closed");
            assertEquals(0, connector.getConnectionCount());
        }
    }

    @Test
    void refusesALimitOrTimeoutOutOfRange() {
        ProxyConnectionFactory factory = new ProxyConnectionFactory();
        assertEquals("PROXY", factory.getProtocol());
        assertEquals("HTTP/1.1", factory.getNextProtocol());
        assertThrows(IllegalArgumentException.class, () -> factory.setMaxV2Length(100));
        assertThrows(IllegalArgumentException.class, () -> factory.setMaxV2Length(70000));
        assertThrows(IllegalArgumentException.class, () -> factory.setHeaderTimeout(Duration.ZERO));
    }
}
