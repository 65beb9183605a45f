package io.wharf.websocket.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.client.HttpClient;
import io.wharf.client.HttpTransport;
import io.wharf.client.Proxy;
import io.wharf.client.ProxyException;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.testing.PeerProcess;
import io.wharf.testing.ProxyPeers;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.server.WebSocketUpgradeHandler;
import io.wharf.websocket.testing.CloseOnRequestEcho;
import io.wharf.websocket.testing.RecordingListener;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wharf's WebSocket client through real proxies to Wharf's server, on loopback: tinyproxy (HTTP
 * CONNECT tunnels, also for {@code ws://}; Basic credentials; a port rule that answers 403) and
 * microsocks (SOCKS5, with username and password), for HTTP/1.1 upgrades and for RFC 8441 over
 * h2c and h2. The proxies are installed by {@code scripts/install-peers} and logs prove the
 * connections went through them; exclusions send a host direct. Client and server share the
 * leak-tracking pool.
 */
@Timeout(60)
class WebSocketThroughProxiesTest {

    private static final long WAIT = 10;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private final BlockingQueue<String> serverEvents = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> clientEvents = new LinkedBlockingQueue<>();
    private final List<AutoCloseable> running = new ArrayList<>();
    private Server server;
    private TestTls tls;
    private int plainPort;
    private int tlsPort;
    private HttpClient httpClient;

    @BeforeEach
    void startServer() throws Exception {
        PeerProcess.require("tinyproxy");
        PeerProcess.require("microsocks");
        tls = TestTls.in(directory);
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.addMapping("/echo", (request, response) -> {
            serverEvents.add("handshake:" + request.request().getConnectionMetaData().getHttpVersion());
            return new CloseOnRequestEcho(serverEvents::add);
        });
        server = new Server(new QueuedThreadPool(), leaks.pool());
        ServerConnector plain = new ServerConnector(server, 1, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
        ServerConnector secure = new ServerConnector(server, 1, new TlsConnectionFactory(tls.server()), new HttpConnectionFactory(),
            new Http2ConnectionFactory());
        for (ServerConnector connector : List.of(plain, secure)) {
            connector.setHost("127.0.0.1");
            server.addConnector(connector);
        }
        server.setHandler(handler);
        server.start();
        plainPort = plain.getLocalPort();
        tlsPort = secure.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        if (httpClient != null) {
            httpClient.stop();
        }
        server.stop();
        for (AutoCloseable peer : running) {
            peer.close();
        }
    }

    private ProxyPeers.Running started(ProxyPeers.Running proxy) {
        running.add(proxy);
        return proxy;
    }

    private WebSocketClient client(Proxy... proxies) throws Exception {
        httpClient = new HttpClient(HttpTransport.DYNAMIC);
        httpClient.setByteBufferPool(leaks.pool());
        httpClient.setSslContext(tls.client());
        httpClient.setProxies(List.of(proxies));
        httpClient.start();
        return new WebSocketClient(httpClient);
    }

    private static String next(BlockingQueue<String> events) throws InterruptedException {
        String event = events.poll(WAIT, TimeUnit.SECONDS);
        assertNotNull(event, "no event within " + WAIT + " s");
        return event;
    }

    /** Connects, echoes a message, closes, and checks the server saw the handshake over {@code version}. */
    private void echoes(WebSocketClient client, String uri, ClientUpgradeRequest request, String version) throws Exception {
        Session session = client.connect(new RecordingListener(clientEvents::add), URI.create(uri), request).get(WAIT, TimeUnit.SECONDS);
        assertEquals("handshake:" + version, next(serverEvents), uri);
        String text = "through the proxy to " + uri + " " + "x".repeat(20_000);
        session.sendText(text).get(WAIT, TimeUnit.SECONDS);
        String echo = next(clientEvents);
        assertTrue(echo.equals("text:" + text), () -> uri + " echoed " + echo.substring(0, Math.min(echo.length(), 200)));
        session.close(CloseStatus.NORMAL, "done");
        assertEquals("close:1000:done", next(serverEvents), uri);
        assertEquals("close:1000:", next(clientEvents), uri);
    }

    private ProxyException refusal(WebSocketClient client, String uri) {
        ExecutionException failed = assertThrows(ExecutionException.class,
            () -> client.connect(new RecordingListener(clientEvents::add), URI.create(uri)).get(WAIT, TimeUnit.SECONDS));
        return assertInstanceOf(ProxyException.class, failed.getCause(), failed.toString());
    }

    @Test
    void wsAndWssGoThroughTinyproxyConnectTunnels() throws Exception {
        ProxyPeers.Running tinyproxy = started(ProxyPeers.tinyproxy(directory, "tinyproxy"));
        WebSocketClient client = client(Proxy.http("127.0.0.1", tinyproxy.port()));

        echoes(client, "ws://localhost:" + plainPort + "/echo", ClientUpgradeRequest.defaults(), "HTTP/1.1");
        echoes(client, "wss://localhost:" + tlsPort + "/echo", ClientUpgradeRequest.defaults(), "HTTP/1.1");
        echoes(client, "ws://localhost:" + plainPort + "/echo", ClientUpgradeRequest.defaults().withHttp2(true), "HTTP/2.0");
        echoes(client, "wss://localhost:" + tlsPort + "/echo", ClientUpgradeRequest.defaults().withHttp2(true), "HTTP/2.0");

        String log = tinyproxy.process().log();
        assertTrue(log.contains("CONNECT localhost:" + plainPort), log);
        assertTrue(log.contains("CONNECT localhost:" + tlsPort), log);
    }

    @Test
    void tinyproxyWithCredentialsTunnelsOnlyForTheRightOnes() throws Exception {
        ProxyPeers.Running tinyproxy = started(ProxyPeers.tinyproxy(directory, "tinyproxy-auth", "BasicAuth ann secret"));
        WebSocketClient client = client(Proxy.http("127.0.0.1", tinyproxy.port()).withCredentials("ann", "secret"));
        echoes(client, "wss://localhost:" + tlsPort + "/echo", ClientUpgradeRequest.defaults(), "HTTP/1.1");
        httpClient.stop();

        for (Proxy wrong : List.of(Proxy.http("127.0.0.1", tinyproxy.port()),
                Proxy.http("127.0.0.1", tinyproxy.port()).withCredentials("ann", "wrong"))) {
            ProxyException refused = refusal(client(wrong), "ws://localhost:" + plainPort + "/echo");
            assertTrue(refused.getMessage().contains("40"), refused.getMessage());
            assertTrue(refused.getMessage().contains(String.valueOf(tinyproxy.port())), refused.getMessage());
            httpClient.stop();
        }
        assertTrue(serverEvents.isEmpty(), "the server saw no refused handshake: " + serverEvents);
    }

    @Test
    void aProxyThatRefusesThePortFailsTheConnectNamingItsAnswer() throws Exception {
        ProxyPeers.Running tinyproxy = started(ProxyPeers.tinyproxy(directory, "tinyproxy-port", "ConnectPort " + tlsPort));
        WebSocketClient client = client(Proxy.http("127.0.0.1", tinyproxy.port()));

        ProxyException refused = refusal(client, "ws://localhost:" + plainPort + "/echo");

        assertTrue(refused.getMessage().contains("403"), refused.getMessage());
        assertTrue(refused.getMessage().contains("CONNECT localhost:" + plainPort), refused.getMessage());
        echoes(client, "wss://localhost:" + tlsPort + "/echo", ClientUpgradeRequest.defaults(), "HTTP/1.1");
    }

    @Test
    void wsAndWssGoThroughMicrosocksWithCredentials() throws Exception {
        ProxyPeers.Running microsocks = started(ProxyPeers.microsocks(directory, "microsocks", "-u", "ann", "-P", "secret"));
        WebSocketClient client = client(Proxy.socks5("127.0.0.1", microsocks.port()).withCredentials("ann", "secret"));

        echoes(client, "ws://localhost:" + plainPort + "/echo", ClientUpgradeRequest.defaults(), "HTTP/1.1");
        echoes(client, "wss://localhost:" + tlsPort + "/echo", ClientUpgradeRequest.defaults().withHttp2(true), "HTTP/2.0");

        String log = microsocks.process().log();
        assertTrue(log.contains("connected to localhost:" + plainPort), log);
        assertTrue(log.contains("connected to localhost:" + tlsPort), log);
        httpClient.stop();
        ProxyException refused = refusal(client(Proxy.socks5("127.0.0.1", microsocks.port()).withCredentials("ann", "wrong")),
            "ws://localhost:" + plainPort + "/echo");
        assertTrue(refused.getMessage().contains("refused the credentials of ann"), refused.getMessage());
    }

    @Test
    void excludedHostsGoDirectAndAnUnreachableProxyIsNamed() throws Exception {
        int closed = PeerProcess.freePort();
        WebSocketClient client = client(Proxy.http("127.0.0.1", closed).excluding("localhost"));

        echoes(client, "ws://localhost:" + plainPort + "/echo", ClientUpgradeRequest.defaults(), "HTTP/1.1");
        ProxyException unreachable = refusal(client, "ws://127.0.0.1:" + plainPort + "/echo");

        assertTrue(unreachable.getMessage().contains("cannot connect to proxy"), unreachable.getMessage());
        assertTrue(unreachable.getMessage().contains(String.valueOf(closed)), unreachable.getMessage());
        assertFalse(serverEvents.contains("handshake:HTTP/1.1"), serverEvents.toString());
    }
}
