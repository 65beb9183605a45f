package io.wharf.examples;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.zip.Deflater;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.deflate.PerMessageDeflateFactory;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

/**
 * The WebSocket echo server started by {@code ./wharf ws-echo [port]}: every text and binary
 * message comes back as it came, at {@code ws://localhost:9001/} by default, with 16 MiB
 * frame and message limits and permessage-deflate (RFC 7692) on, at the fastest level. It is what the Autobahn
 * conformance cases (kosoku) run against.
 */
public final class WebSocketEchoServer {

    private WebSocketEchoServer() {
    }

    /**
     * Sends every message back; the copy of a binary message is needed because its buffer is
     * only lent. Also the echo of the Autobahn run against the client (which extends it to
     * learn when a case ends).
     */
    public static class Echo implements WebSocketListener {
        private Session session;

        @Override
        public void onOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onText(String text) {
            session.sendText(text, closeOnFailure());
        }

        @Override
        public void onBinary(ByteBuffer payload) {
            session.sendBinary(ByteBuffer.allocate(payload.remaining()).put(payload).flip(), closeOnFailure());
        }

        /** An echo that could not be sent (the peer does not read and the queue is full) ends the session: no message is lost silently. */
        private Callback closeOnFailure() {
            return Callback.from(InvocationType.NON_BLOCKING, () -> { },
                failure -> session.close(CloseStatus.POLICY_VIOLATION, "echo not sent: " + failure.getMessage()));
        }
    }

    /** A started echo server and the port it listens on. */
    public record Running(Server server, int port) {
    }

    public static void main(String[] args) throws Exception {
        Running running = start(args.length > 0 ? Integer.parseInt(args[0]) : 9001);
        running.server().setStopAtShutdown(true);
        System.out.println("WebSocket echo on ws://localhost:" + running.port() + "/ (Ctrl-C stops it)");
        running.server().join();
    }

    /** Starts the echo server on {@code port} (0 for any free one), on every interface. */
    public static Running start(int port) throws Exception {
        int limit = 16 * 1024 * 1024;
        WebSocketUpgradeHandler websocket = new WebSocketUpgradeHandler();
        websocket.setConfiguration(WebSocketConfiguration.defaults()
            .withMaxMessageSize(limit)
            .withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(5))
            .withMaxQueuedFrames(16 * 1024));
        websocket.addMapping("/", (request, response) -> new Echo());
        // The fastest level: an echo server of test traffic spends its CPU on compression otherwise.
        websocket.addExtension(new PerMessageDeflateFactory(Deflater.BEST_SPEED, false, 64));
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory());
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(websocket);
        server.start();
        return new Running(server, connector.getLocalPort());
    }
}
