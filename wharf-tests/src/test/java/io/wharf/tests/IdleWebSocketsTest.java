package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.buffer.LeakTrackingByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 10,000 idle WebSocket sessions, each having echoed one message, hold no pooled buffer on the
 * server (issue 6). The clients run in another process ({@link IdleWebSocketClients}), so
 * each side needs 10,000 file descriptors of its own.
 */
@Timeout(300)
class IdleWebSocketsTest {

    private static final int SESSIONS = 10_000;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @Test
    void tenThousandIdleSessionsHoldNoBuffers() throws Exception {
        LeakTrackingByteBufferPool pool = leaks.pool();
        Server server = new Server(new QueuedThreadPool(), pool);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        connector.setAcceptQueueSize(4096);
        server.addConnector(connector);
        WebSocketUpgradeHandler websocket = new WebSocketUpgradeHandler();
        websocket.setConfiguration(WebSocketConfiguration.defaults().withTimeouts(Duration.ofMinutes(5), Duration.ofSeconds(5)));
        websocket.addMapping("/", (request, response) -> new Echo());
        server.setHandler(websocket);
        server.start();
        Process clients = null;
        try {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            clients = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    IdleWebSocketClients.class.getName(), "127.0.0.1", Integer.toString(connector.getLocalPort()), Integer.toString(SESSIONS))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(clients.getInputStream(), StandardCharsets.US_ASCII));
            String ready = out.readLine();
            assertEquals("READY " + SESSIONS, ready, "the client process opened every session");
            assertEquals(SESSIONS, connector.getConnectionCount(), "all sessions open on the server");
            long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.outstanding() > 0 && System.nanoTime() < settle) {
                Thread.sleep(20);
            }
            assertEquals(0, pool.outstanding(), "pooled buffers held by the server for " + SESSIONS + " idle sessions");
            clients.getOutputStream().close();
            assertTrue(clients.waitFor(60, TimeUnit.SECONDS), "the client process ended");
        } finally {
            if (clients != null) {
                clients.destroyForcibly();
            }
            server.stop();
        }
    }

    /** Echoes text. */
    private static final class Echo implements WebSocketListener {
        private Session session;

        @Override
        public void onOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onText(String text) {
            session.sendText(text, Callback.NOOP);
        }
    }
}
