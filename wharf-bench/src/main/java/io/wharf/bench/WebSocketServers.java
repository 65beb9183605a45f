package io.wharf.bench;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

import io.wharf.examples.ChatRoom;
import io.wharf.examples.WebSocketEchoServer;
import io.wharf.websocket.core.WebSocketConfiguration;

/**
 * The WebSocket servers of the {@code ws-echo}, {@code ws-idle} and {@code ws-chat} macro runs,
 * Wharf and Jetty 12.1, on the HTTP/1.1 servers of {@link BenchServers} (one acceptor, one
 * selector, the default thread pool), each started by {@link ServerProcess} in its own JVM.
 *
 * <ul>
 *   <li>The echo at {@code /echo}: on Wharf a {@code WebSocketUpgradeHandler} whose sessions
 *       are {@link WebSocketEchoServer.Echo} listeners (each text sent back whole); on Jetty
 *       the {@code WebSocketUpgradeHandler} of its WebSocket API ({@code jetty-websocket-jetty-server})
 *       with a plain {@code Session.Listener.AutoDemanding} that does the same ({@link TextEcho}).
 *       permessage-deflate is off on both: Wharf offers no extension unless one is added, and
 *       Jetty's creator agrees to none. Sessions idle out after {@link BenchServers#IDLE_TIMEOUT}.</li>
 *   <li>The chat room at {@code /chat/ws}: Wharf's own {@link ChatRoom}, and {@link JettyChatRoom}.</li>
 * </ul>
 */
final class WebSocketServers {

    private WebSocketServers() {
    }

    static ServerProcess.Target wharfEcho(InetSocketAddress address) throws Exception {
        io.wharf.websocket.server.WebSocketUpgradeHandler websocket = new io.wharf.websocket.server.WebSocketUpgradeHandler();
        websocket.setConfiguration(WebSocketConfiguration.defaults().withTimeouts(BenchServers.IDLE_TIMEOUT, Duration.ofSeconds(5)));
        websocket.addMapping("/echo", (request, response) -> new WebSocketEchoServer.Echo());
        return BenchServers.wharf(address, websocket);
    }

    static ServerProcess.Target jettyEcho(InetSocketAddress address) throws Exception {
        return BenchServers.jetty(address, server -> WebSocketUpgradeHandler.from(server, container -> {
            container.setIdleTimeout(BenchServers.IDLE_TIMEOUT);
            container.addMapping("/echo", (request, response, callback) -> {
                response.setExtensions(List.of());
                return new TextEcho();
            });
        }));
    }

    static ServerProcess.Target wharfChat(InetSocketAddress address) throws Exception {
        return BenchServers.wharf(address, new ChatRoom().handler());
    }

    /** Jetty's echo: sends each text back; a send that fails closes the session, as Wharf's echo does. */
    public static final class TextEcho implements Session.Listener.AutoDemanding {
        private Session session;

        @Override
        public void onWebSocketOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onWebSocketText(String text) {
            session.sendText(text, Callback.from(() -> { },
                failure -> session.close(StatusCode.POLICY_VIOLATION, "echo not sent: " + failure.getMessage(), Callback.NOOP)));
        }
    }
}
