package io.wharf.websocket.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.websocket.testing.CloseOnRequestEcho;
import io.wharf.websocket.deflate.PerMessageDeflateFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * WebSocket over HTTP/2 (RFC 8441) on Wharf's server, driven frame by frame by a raw h2c client
 * over loopback, under the leak-tracking pool: the SETTINGS that enable extended CONNECT, the
 * handshake's answer, echo, the close handshake started by either side ending the stream with
 * END_STREAM both ways (no reset), two WebSockets and plain GETs on one connection at once, a
 * reset stream reported as 1006, and every refusal: no setting, {@code :protocol} on GET, a
 * missing {@code :path}, a wrong or missing version, another {@code :protocol}, a plain GET.
 */
@Timeout(30)
class WebSocketOverHttp2ServerTest {

    private static final long WAIT = 10;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final SessionConfiguration http2 = new SessionConfiguration();
    private final BlockingQueue<String> serverEvents = new LinkedBlockingQueue<>();
    private Server server;
    private int port;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    private void start() throws Exception {
        WebSocketUpgradeHandler websocket = new WebSocketUpgradeHandler();
        websocket.addExtension(new PerMessageDeflateFactory());
        websocket.setConfiguration(io.wharf.websocket.core.WebSocketConfiguration.defaults().withMaxMessageSize(4 * 1024 * 1024));
        websocket.addMapping("/echo", (request, response) -> {
            serverEvents.add("handshake:" + request.request().getConnectionMetaData().getHttpVersion() + ":" + request.subprotocols());
            if (request.subprotocols().contains("chat")) {
                response.setSubprotocol("chat");
            }
            return new CloseOnRequestEcho(serverEvents::add, false);
        });
        Handler plain = Handler.of((request, response, callback) -> {
            Response.write(response, true, "hello " + request.getHttpURI().getPath(), callback);
            return true;
        });
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration http = new HttpConfiguration();
        http.setSendDateHeader(false);
        http.setSendServerVersion(false);
        ServerConnector connector = new ServerConnector(server, 1, new HttpConnectionFactory(http),
            new Http2CleartextConnectionFactory(http, http2));
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new Handler.Sequence(websocket, plain));
        server.start();
        port = connector.getLocalPort();
    }

    private String nextServerEvent() throws InterruptedException {
        String event = serverEvents.poll(WAIT, TimeUnit.SECONDS);
        assertNotNull(event, "no server event within " + WAIT + " s");
        return event;
    }

    private static boolean noReset(RawHttp2WebSocketClient client) {
        return client.history().stream().noneMatch(line -> line.startsWith("RST_STREAM"));
    }

    @Test
    void theServerEnablesExtendedConnectAndEchoesOverAStream() throws Exception {
        start();
        try (RawHttp2WebSocketClient client = new RawHttp2WebSocketClient(port)) {
            assertTrue(client.start().contains("ENABLE_CONNECT_PROTOCOL=1"), client.history().toString());
            client.connect(1, RawHttp2WebSocketClient.extendedConnect("/echo").add("sec-websocket-protocol", "chat, other"));
            // 200 (not 101), no Sec-WebSocket-Accept, the stream stays open.
            assertEquals("HEADERS 1 :status=200 sec-websocket-protocol=chat", client.await("HEADERS 1"));
            assertEquals("handshake:HTTP/2.0:[chat, other]", nextServerEvent());
            client.sendText(1, "hello over h2");
            assertEquals("WS 1 TEXT hello over h2", client.await("WS 1"));
            String big = "x".repeat(200_000);   // beyond the client's 65,535-octet windows: it must credit them back
            client.sendText(1, big);
            assertEquals("WS 1 TEXT " + big, client.await("WS 1"));
            // The client starts the close: the server echoes it and ends its side, then the client ends its own.
            client.sendClose(1, 1000, "bye");
            assertEquals("WS 1 CLOSE 1000", client.await("WS 1"));
            assertEquals("END 1", client.await("END 1"));
            client.endStream(1);
            assertEquals("close:1000", nextServerEvent());
            // The connection goes on: a GET after the session, and no stream was reset.
            client.get(3, "/after");
            assertEquals("DATA 3 hello /after END_STREAM", client.await("DATA 3"));
            assertTrue(noReset(client), client.history().toString());
        }
    }

    @Test
    void theServerStartsTheCloseAndTheStreamEndsCleanly() throws Exception {
        start();
        try (RawHttp2WebSocketClient client = new RawHttp2WebSocketClient(port)) {
            client.start();
            client.connect(1, RawHttp2WebSocketClient.extendedConnect("/echo"));
            assertEquals("HEADERS 1 :status=200", client.await("HEADERS 1"));
            client.sendText(1, "close-me:4001");
            assertEquals("WS 1 CLOSE 4001", client.await("WS 1"));
            client.sendClose(1, 4001, "");
            client.endStream(1);
            assertEquals("END 1", client.await("END 1"));
            nextServerEvent();
            assertEquals("close:4001", nextServerEvent());
            client.get(3, "/after");
            assertEquals("DATA 3 hello /after END_STREAM", client.await("DATA 3"));
            assertTrue(noReset(client), client.history().toString());
        }
    }

    @Test
    void twoWebSocketsAndPlainRequestsShareOneConnection() throws Exception {
        start();
        try (RawHttp2WebSocketClient client = new RawHttp2WebSocketClient(port)) {
            client.start();
            client.connect(1, RawHttp2WebSocketClient.extendedConnect("/echo"));
            client.connect(3, RawHttp2WebSocketClient.extendedConnect("/echo"));
            client.get(5, "/five");
            assertEquals("HEADERS 1 :status=200", client.await("HEADERS 1"));
            assertEquals("HEADERS 3 :status=200", client.await("HEADERS 3"));
            assertEquals("DATA 5 hello /five END_STREAM", client.await("DATA 5"));
            for (int round = 0; round < 20; round++) {
                client.sendText(1, "one " + round);
                client.sendText(3, "three " + round);
                client.get(7 + 2 * round, "/get" + round);
                assertEquals("WS 1 TEXT one " + round, client.await("WS 1"));
                assertEquals("WS 3 TEXT three " + round, client.await("WS 3"));
                assertEquals("DATA " + (7 + 2 * round) + " hello /get" + round + " END_STREAM", client.await("DATA " + (7 + 2 * round) + " "));
            }
            client.sendClose(3, 1000, "");
            assertEquals("WS 3 CLOSE 1000", client.await("WS 3"));
            client.endStream(3);
            // Stream 1 still echoes after stream 3 closed.
            client.sendText(1, "still here");
            assertEquals("WS 1 TEXT still here", client.await("WS 1"));
            assertTrue(noReset(client), client.history().toString());
        }
    }

    @Test
    void aStreamResetByTheClientEndsTheSessionWith1006() throws Exception {
        start();
        try (RawHttp2WebSocketClient client = new RawHttp2WebSocketClient(port)) {
            client.start();
            client.connect(1, RawHttp2WebSocketClient.extendedConnect("/echo"));
            assertEquals("HEADERS 1 :status=200", client.await("HEADERS 1"));
            client.sendText(1, "ping");
            assertEquals("WS 1 TEXT ping", client.await("WS 1"));
            nextServerEvent();
            client.reset(1, ErrorCode.CANCEL);
            assertEquals("close:1006", nextServerEvent());
            client.get(3, "/after");
            assertEquals("DATA 3 hello /after END_STREAM", client.await("DATA 3"));
        }
    }

    @Test
    void extendedConnectWithoutTheSettingIsAStreamError() throws Exception {
        http2.setConnectProtocolEnabled(false);
        start();
        try (RawHttp2WebSocketClient client = new RawHttp2WebSocketClient(port)) {
            assertFalse(client.start().contains("ENABLE_CONNECT_PROTOCOL"), client.history().toString());
            client.connect(1, RawHttp2WebSocketClient.extendedConnect("/echo"));
            assertEquals("RST_STREAM 1 PROTOCOL_ERROR", client.await("RST_STREAM 1"));
            client.get(3, "/after");
            assertEquals("DATA 3 hello /after END_STREAM", client.await("DATA 3"));
        }
    }

    @Test
    void malformedExtendedConnectsAreProtocolErrors() throws Exception {
        start();
        try (RawHttp2WebSocketClient client = new RawHttp2WebSocketClient(port)) {
            client.start();
            // :protocol on a GET.
            client.headers(1, io.wharf.http.HttpFields.build().add(":method", "GET").add(":protocol", "websocket")
                .add(":scheme", "http").add(":authority", "localhost").add(":path", "/echo").add("sec-websocket-version", "13"), true);
            assertEquals("RST_STREAM 1 PROTOCOL_ERROR", client.await("RST_STREAM 1"));
            // An extended CONNECT without :path.
            client.headers(3, io.wharf.http.HttpFields.build().add(":method", "CONNECT").add(":protocol", "websocket")
                .add(":scheme", "http").add(":authority", "localhost").add("sec-websocket-version", "13"), false);
            assertEquals("RST_STREAM 3 PROTOCOL_ERROR", client.await("RST_STREAM 3"));
            client.get(5, "/after");
            assertEquals("DATA 5 hello /after END_STREAM", client.await("DATA 5"));
        }
    }

    @Test
    void badHandshakesGetTheSameStatusesAsOverHttp1() throws Exception {
        start();
        try (RawHttp2WebSocketClient client = new RawHttp2WebSocketClient(port)) {
            client.start();
            client.connect(1, RawHttp2WebSocketClient.extendedConnect("/echo").put("sec-websocket-version", "8"));
            assertTrue(client.await("HEADERS 1").startsWith("HEADERS 1 :status=426 sec-websocket-version=13"), client.history().toString());
            client.connect(3, RawHttp2WebSocketClient.extendedConnect("/echo").remove("sec-websocket-version"));
            assertTrue(client.await("HEADERS 3").startsWith("HEADERS 3 :status=426 sec-websocket-version=13"), client.history().toString());
            client.connect(5, RawHttp2WebSocketClient.extendedConnect("/echo").put(":protocol", "shout"));
            assertTrue(client.await("HEADERS 5").startsWith("HEADERS 5 :status=400"), client.history().toString());
            client.get(7, "/echo");
            assertTrue(client.await("HEADERS 7").startsWith("HEADERS 7 :status=426"), client.history().toString());
            // permessage-deflate is negotiated as over HTTP/1.1.
            client.connect(9, RawHttp2WebSocketClient.extendedConnect("/echo").add("sec-websocket-extensions", "permessage-deflate"));
            assertEquals("HEADERS 9 :status=200 sec-websocket-extensions=permessage-deflate", client.await("HEADERS 9"));
        }
    }
}
