package io.wharf.websocket.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.client.HttpClient;
import io.wharf.client.HttpTransport;
import io.wharf.server.ConnectionFactory;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.server.WebSocketUpgradeHandler;
import io.wharf.websocket.testing.CloseOnRequestEcho;
import io.wharf.websocket.testing.RecordingListener;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A graceful stop of the server closes each WebSocket session with 1001 "server stopping", on
 * every route a session takes: ws and wss over HTTP/1.1, and over HTTP/2 streams (RFC 8441) on
 * h2c and on h2 with TLS. The client hears the close frame (not an abnormal 1006), answers it,
 * and the stop then returns without waiting for its timeout; so does a session whose upgrade
 * was being handled when the stop began. Wharf's own client, under the leak-tracking pool both
 * share.
 */
@Timeout(90)
class WebSocketGracefulStopTest {

    private static final long WAIT = 10;
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    /** How the session reaches the server. */
    enum Route {
        WS(false, false), WSS(true, false), WS_OVER_H2C(false, true), WSS_OVER_H2(true, true);

        final boolean tls;
        final boolean http2;

        Route(boolean tls, boolean http2) {
            this.tls = tls;
            this.http2 = http2;
        }
    }

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private final BlockingQueue<String> serverEvents = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> clientEvents = new LinkedBlockingQueue<>();
    private Server server;
    private HttpClient httpClient;

    @AfterEach
    void stop() throws Exception {
        if (httpClient != null) {
            httpClient.stop();
        }
        if (server != null) {
            server.stop();
        }
    }

    private ServerConnector connector;
    private WebSocketClient client;

    private void start(Route route, WebSocketUpgradeHandler handler) throws Exception {
        TestTls tls = route.tls ? TestTls.in(directory) : null;
        server = new Server(new QueuedThreadPool(), leaks.pool());
        server.setStopTimeout(STOP_TIMEOUT);
        ConnectionFactory http2 = route.tls ? new Http2ConnectionFactory() : new Http2CleartextConnectionFactory();
        connector = route.tls
            ? new ServerConnector(server, 1, new TlsConnectionFactory(tls.server()), new HttpConnectionFactory(), http2)
            : new ServerConnector(server, 1, new HttpConnectionFactory(), http2);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();

        httpClient = new HttpClient(route.tls ? HttpTransport.DYNAMIC : HttpTransport.HTTP_1_1);
        httpClient.setByteBufferPool(leaks.pool());
        if (tls != null) {
            httpClient.setSslContext(tls.client());
        }
        httpClient.start();
        client = new WebSocketClient(httpClient);
        client.setConfiguration(WebSocketConfiguration.defaults());
    }

    private CompletableFuture<Session> connect(Route route) {
        URI uri = URI.create((route.tls ? "wss://localhost:" : "ws://127.0.0.1:") + connector.getLocalPort() + "/echo");
        return client.connect(new RecordingListener(clientEvents::add), uri, ClientUpgradeRequest.defaults().withHttp2(route.http2));
    }

    /** Stops the server on another thread; completes when the stop returned. */
    private CompletableFuture<Void> stopInTheBackground() {
        CompletableFuture<Void> stopped = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                server.stop();
                stopped.complete(null);
            } catch (Throwable x) {
                stopped.completeExceptionally(x);
            }
        });
        return stopped;
    }

    /** The stop returned without waiting for its timeout. */
    private void assertStopped(CompletableFuture<Void> stopped, Session session) throws Exception {
        stopped.get(STOP_TIMEOUT.toSeconds() / 2, TimeUnit.SECONDS);
        assertTrue(server.isStopped());
        assertTrue(!session.isOpen());
    }

    @ParameterizedTest
    @EnumSource(Route.class)
    void aStopClosesTheSessionWith1001(Route route) throws Exception {
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler();
        handler.addMapping("/echo", (request, response) -> new CloseOnRequestEcho(serverEvents::add));
        start(route, handler);
        Session session = connect(route).get(WAIT, TimeUnit.SECONDS);
        session.sendText("before the stop").get(WAIT, TimeUnit.SECONDS);
        assertEquals("text:before the stop", next(clientEvents));

        CompletableFuture<Void> stopped = stopInTheBackground();
        assertEquals("close:1001:server stopping", next(clientEvents), route.toString());
        assertStopped(stopped, session);
    }

    /**
     * The upgrade request is being handled when the stop begins: the session it opens is still
     * asked to finish, so it too closes with 1001 rather than lasting until the stop's timeout.
     */
    @ParameterizedTest
    @EnumSource(Route.class)
    void aSessionOpenedByAnUpgradeUnderWayWhenTheStopBeganClosesWith1001(Route route) throws Exception {
        CountDownLatch creating = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        WebSocketUpgradeHandler handler = new WebSocketUpgradeHandler(InvocationType.BLOCKING);
        handler.addMapping("/echo", (request, response) -> {
            creating.countDown();
            try {
                assertTrue(release.await(WAIT, TimeUnit.SECONDS), "released");
            } catch (InterruptedException x) {
                throw new IllegalStateException(x);
            }
            return new CloseOnRequestEcho(serverEvents::add);
        });
        start(route, handler);
        try {
            CompletableFuture<Session> connecting = connect(route);
            assertTrue(creating.await(WAIT, TimeUnit.SECONDS), "the upgrade is being handled");
            CompletableFuture<Void> stopped = stopInTheBackground();
            Deadline.await(connector::isShutdown, Duration.ofSeconds(WAIT)); // the connector began its graceful shutdown
            // The connector asks each connection to finish right after it sets the flag.
            Thread.sleep(100);
            release.countDown();
            Session session = connecting.get(WAIT, TimeUnit.SECONDS);
            assertEquals("close:1001:server stopping", next(clientEvents), route.toString());
            assertStopped(stopped, session);
        } finally {
            release.countDown();
        }
    }

    private static String next(BlockingQueue<String> events) throws InterruptedException {
        String event = events.poll(WAIT, TimeUnit.SECONDS);
        assertNotNull(event, "no event within " + WAIT + " s");
        return event;
    }
}
