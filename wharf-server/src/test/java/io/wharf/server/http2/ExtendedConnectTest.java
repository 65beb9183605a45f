package io.wharf.server.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.http.HttpFields;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.io.AbstractConnection;
import io.wharf.io.EndPoint;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.ProtocolUpgrade;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Extended CONNECT (RFC 8441) through the Handler API, raw frames over an in-memory h2c
 * connection, under the leak-tracking pool: the SETTINGS, the offer of the {@code :protocol},
 * the {@code 200} and the handler's connection running on the stream beside ordinary requests,
 * the end of the stream both ways, a write after accepting refused, a failing handler answered
 * 500, a handler that declines answering as usual, and the malformed forms reset with
 * PROTOCOL_ERROR.
 */
@Timeout(30)
class ExtendedConnectTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final SessionConfiguration session = new SessionConfiguration();
    private final BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    private Server server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** Writes back what it reads in upper case; ends its output at the end of input. */
    static final class Shout extends AbstractConnection {
        private final ByteBuffer buffer = ByteBuffer.allocate(512);

        Shout(EndPoint endPoint) {
            super(endPoint, Runnable::run);
        }

        @Override
        public void onOpen() {
            super.onOpen();
            fillInterested();
        }

        @Override
        public void onFillable() {
            try {
                buffer.clear().limit(0);
                int filled = getEndPoint().fill(buffer);
                if (filled == 0) {
                    fillInterested();
                    return;
                }
                if (filled < 0) {
                    getEndPoint().shutdownOutput();
                    return;
                }
                byte[] upper = new byte[buffer.remaining()];
                for (int i = 0; i < upper.length; i++) {
                    upper[i] = (byte) Character.toUpperCase(buffer.get());
                }
                getEndPoint().write(Callback.from(InvocationType.NON_BLOCKING, this::fillInterested, getEndPoint()::close),
                        ByteBuffer.wrap(upper));
            } catch (IOException x) {
                getEndPoint().close(x);
            }
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }

    private LocalConnector start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration http = new HttpConfiguration();
        http.setSendDateHeader(false);
        http.setSendServerVersion(false);
        LocalConnector connector = new LocalConnector(server, new HttpConnectionFactory(http), new Http2CleartextConnectionFactory(http, session));
        server.addConnector(connector);
        server.setHandler(Handler.of((request, response, callback) -> {
            ProtocolUpgrade upgrade = request.getProtocolUpgrade();
            String path = request.getHttpURI().getPath();
            if (upgrade == null) {
                Response.write(response, true, request.getMethod() + " " + path, callback);
                return true;
            }
            seen.add(request.getMethod() + " " + request.getHttpURI() + " offers " + upgrade.getOfferedProtocols());
            switch (path) {
                case "/decline" -> Response.write(response, true, "not now", callback);
                case "/fail" -> {
                    upgrade.accept("shout", HttpFields.EMPTY, Shout::new);
                    callback.failed(new IllegalStateException("changed its mind"));
                }
                case "/write" -> {
                    upgrade.accept("shout", HttpFields.EMPTY, Shout::new);
                    response.write(true, ByteBuffer.wrap(new byte[] {'x'}), Callback.from(InvocationType.NON_BLOCKING,
                            () -> seen.add("written"), failure -> seen.add("refused: " + failure.getMessage())));
                    callback.succeeded();
                }
                default -> {
                    try {
                        upgrade.accept("websocket", HttpFields.EMPTY, Shout::new);
                    } catch (IllegalArgumentException x) {
                        seen.add(x.getMessage());
                    }
                    upgrade.accept("shout", HttpFields.build().add("x-shout", "1"), Shout::new);
                    callback.succeeded();
                }
            }
            return true;
        }));
        server.start();
        return connector;
    }

    private static HttpFields.Mutable extendedConnect(String path) {
        return HttpFields.build().add(":method", "CONNECT").add(":protocol", "shout").add(":scheme", "http")
                .add(":authority", "localhost").add(":path", path);
    }

    private String nextSeen() throws InterruptedException {
        String event = seen.poll(10, TimeUnit.SECONDS);
        if (event == null) {
            throw new AssertionError("the handler saw nothing within 10 s");
        }
        return event;
    }

    @Test
    void anAcceptedSwitchRunsTheConnectionOnTheStream() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start())) {
            client.start();
            client.headers(1, extendedConnect("/shout?loud=yes"), false);
            assertEquals("HEADERS 1 :status=200 x-shout=1", client.await("HEADERS 1"));
            assertEquals("CONNECT http://localhost/shout?loud=yes offers [shout]", nextSeen());
            assertEquals("protocol 'websocket' was not offered; the client offered [shout]", nextSeen());
            client.data(1, "hello", false);
            assertEquals("DATA 1 HELLO", client.await("DATA 1"));
            client.get(3, "/plain");
            assertEquals("DATA 3 GET /plain END_STREAM", client.await("DATA 3"));
            client.data(1, "again", false);
            assertEquals("DATA 1 AGAIN", client.await("DATA 1"));
            client.data(1, "", true);
            assertEquals("DATA 1  END_STREAM", client.await("DATA 1"));
            client.get(5, "/after");
            assertEquals("DATA 5 GET /after END_STREAM", client.await("DATA 5"));
            assertFalse(String.join("\n", client.untilIdle()).contains("RST_STREAM 1"));
        }
    }

    @Test
    void theHandlersOtherAnswers() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start())) {
            client.start();
            client.headers(1, extendedConnect("/decline"), false);
            assertEquals("HEADERS 1 :status=200 content-length=7", client.await("HEADERS 1"));
            assertEquals("DATA 1 not now END_STREAM", client.await("DATA 1"));
            client.headers(3, extendedConnect("/fail"), false);
            assertTrue(client.await("HEADERS 3").startsWith("HEADERS 3 :status=500"), "a failing handler is answered 500");
            client.headers(5, extendedConnect("/write"), false);
            assertEquals("HEADERS 5 :status=200", client.await("HEADERS 5"));
            nextSeen();
            nextSeen();
            nextSeen();
            String refused = nextSeen();
            assertTrue(refused.startsWith("refused: a switch of protocols was accepted"), refused);
        }
    }

    @Test
    void theSettingIsAnnouncedAndMalformedFormsAreReset() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start())) {
            assertTrue(client.startAndGetSettings().contains("ENABLE_CONNECT_PROTOCOL=1"));
            client.headers(1, HttpFields.build().add(":method", "GET").add(":protocol", "shout").add(":scheme", "http")
                    .add(":authority", "localhost").add(":path", "/"), true);
            assertEquals("RST_STREAM 1 PROTOCOL_ERROR", client.await("RST_STREAM 1"));
            client.headers(3, HttpFields.build().add(":method", "CONNECT").add(":protocol", "shout").add(":authority", "localhost")
                    .add(":path", "/"), false);
            assertEquals("RST_STREAM 3 PROTOCOL_ERROR", client.await("RST_STREAM 3"));
            client.headers(5, HttpFields.build().add(":method", "CONNECT").add(":protocol", "").add(":scheme", "http")
                    .add(":authority", "localhost").add(":path", "/"), false);
            assertEquals("RST_STREAM 5 PROTOCOL_ERROR", client.await("RST_STREAM 5"));
            client.get(7, "/after");
            assertEquals("DATA 7 GET /after END_STREAM", client.await("DATA 7"));
        }
    }

    @Test
    void withoutTheSettingAProtocolIsMalformed() throws Exception {
        session.setConnectProtocolEnabled(false);
        try (RawHttp2Client client = new RawHttp2Client(start())) {
            assertFalse(client.startAndGetSettings().contains("ENABLE_CONNECT_PROTOCOL"));
            client.headers(1, extendedConnect("/shout"), false);
            assertEquals("RST_STREAM 1 PROTOCOL_ERROR", client.await("RST_STREAM 1"));
            assertTrue(seen.isEmpty(), seen.toString());
        }
    }
}
