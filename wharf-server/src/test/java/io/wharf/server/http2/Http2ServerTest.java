package io.wharf.server.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * HTTP/2 requests over an in-memory h2c connection, raw frames in and out: what handlers see,
 * responses with content, trailers and HEAD, malformed requests reset, flow control both ways.
 * Every test runs on the leak-tracking pool.
 */
class Http2ServerTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    final HttpConfiguration http = new HttpConfiguration();
    final SessionConfiguration session = new SessionConfiguration();
    Server server;
    LocalConnector connector;

    LocalConnector start(Handler handler) throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        http.setSendDateHeader(false);
        http.setSendServerVersion(false);
        connector = new LocalConnector(server, new HttpConnectionFactory(http), new Http2CleartextConnectionFactory(http, session));
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
        return connector;
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** Answers with the method, path, version, the content read and the headers asked for by ?h=name. */
    static Handler echo() {
        return Handler.of((request, response, callback) -> {
            String content = Request.getContentAsString(request, StandardCharsets.ISO_8859_1, 1 << 20);
            String query = request.getHttpURI().getQuery();
            String header = query != null && query.startsWith("h=") ? " " + request.getHeaders().get(query.substring(2)) : "";
            Response.write(response, true, request.getMethod() + " " + request.getHttpURI().getPath() + " "
                    + request.getConnectionMetaData().getHttpVersion() + " [" + content + "]" + header, callback);
            return true;
        });
    }

    @Test
    void aPriorKnowledgeClientGetsTheHandlersResponse() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.get(1, "/hello");
            assertEquals("HEADERS 1 :status=200 content-length=22", client.await("HEADERS 1"));
            assertEquals("DATA 1 GET /hello HTTP/2.0 [] END_STREAM", client.await("DATA 1"));
            client.get(3, "/again");
            assertEquals("DATA 3 GET /again HTTP/2.0 [] END_STREAM", client.await("DATA 3"));
        }
    }

    @Test
    void requestContentReachesTheHandlerAndItsWindowIsCreditedAsItReads() throws Exception {
        session.setInitialStreamWindow(16).setFlowControl(io.wharf.http2.session.FlowControlStrategy.EVERY_READ);
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.headers(1, RawHttp2Client.request("POST", "/upload"), false);
            client.data(1, "0123456789abcdef", false);
            assertEquals("WINDOW_UPDATE 1 16", client.await("WINDOW_UPDATE 1"));
            client.data(1, "more", true);
            assertEquals("DATA 1 POST /upload HTTP/2.0 [0123456789abcdefmore] END_STREAM", client.await("DATA 1"));
        }
    }

    @Test
    void dataBeyondTheStreamWindowResetsTheStream() throws Exception {
        session.setInitialStreamWindow(16);
        CountDownLatch release = new CountDownLatch(1);
        try (RawHttp2Client client = new RawHttp2Client(start(Handler.of((request, response, callback) -> {
            release.await(10, TimeUnit.SECONDS);
            callback.succeeded();
            return true;
        }))).start()) {
            client.headers(1, RawHttp2Client.request("POST", "/"), false);
            client.data(1, "0123456789abcdef", false);
            client.data(1, "x", false);
            assertEquals("RST_STREAM 1 FLOW_CONTROL_ERROR", client.await("RST_STREAM 1"));
            release.countDown();
        }
    }

    @Test
    void malformedRequestsAreResetWithProtocolError() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.headersWithLiteral(1, RawHttp2Client.request("GET", "/"), "Upper", "x");
            assertEquals("RST_STREAM 1 PROTOCOL_ERROR", client.await("RST_STREAM 1"));
            client.headers(3, RawHttp2Client.request("GET", "/").add("connection", "keep-alive"), true);
            assertEquals("RST_STREAM 3 PROTOCOL_ERROR", client.await("RST_STREAM 3"));
            client.headers(5, RawHttp2Client.request("GET", "/").add("te", "gzip"), true);
            assertEquals("RST_STREAM 5 PROTOCOL_ERROR", client.await("RST_STREAM 5"));
            client.headers(7, HttpFields.build().add(":method", "GET").add(":scheme", "http"), true);
            assertEquals("RST_STREAM 7 PROTOCOL_ERROR", client.await("RST_STREAM 7"));
            client.headers(9, RawHttp2Client.request("GET", "/").add(":status", "200"), true);
            assertEquals("RST_STREAM 9 PROTOCOL_ERROR", client.await("RST_STREAM 9"));
            client.headers(11, RawHttp2Client.request("POST", "/").add("content-length", "3"), false);
            client.data(11, "four", true);
            assertEquals("RST_STREAM 11 PROTOCOL_ERROR", client.await("RST_STREAM 11"));
            // te: trailers is allowed, and the connection lives on.
            client.headers(13, RawHttp2Client.request("GET", "/").add("te", "trailers"), true);
            assertEquals("DATA 13 GET / HTTP/2.0 [] END_STREAM", client.await("DATA 13"));
        }
    }

    /**
     * RFC 9113 section 8.2.1 (issue 15): the octets of names and values, in headers and in
     * trailers, as the HTTP/1.1 parser refuses them; and section 8.1.1: a content-length that
     * HEADERS with END_STREAM contradicts. Each resets its stream, and the connection serves the next.
     */
    @Test
    void fieldsHttp2ForbidsAndAContentLengthWithoutContentAreResetWithProtocolError() throws Exception {
        String[][] literals = {
            {"x a", "1"}, {"x:b", "1"}, {"x\0c", "1"}, {"x\u007f", "1"}, {"x\u00e9", "1"}, {"", "1"},
            {"x", "a\0b"}, {"x", "a\r\nInjected: yes"}, {"x", "a\u0001b"}, {"x", " a"}, {"x", "a\t"},
        };
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            int stream = 1;
            for (String[] literal : literals) {
                client.headersWithLiteral(stream, RawHttp2Client.request("GET", "/"), literal[0], literal[1]);
                assertEquals("RST_STREAM " + stream + " PROTOCOL_ERROR", answerOn(client, stream),
                        "name '" + literal[0] + "', value '" + literal[1] + "'");
                stream += 2;
            }
            for (String[] trailer : new String[][] {{"X-Upper", "1"}, {"connection", "close"}, {"x a", "1"}, {"x", "a\nb"}}) {
                client.headers(stream, RawHttp2Client.request("POST", "/"), false);
                client.data(stream, "body", false);
                client.headersWithLiteral(stream, HttpFields.EMPTY, trailer[0], trailer[1]);
                assertEquals("RST_STREAM " + stream + " PROTOCOL_ERROR", answerOn(client, stream),
                        "trailer name '" + trailer[0] + "', value '" + trailer[1] + "'");
                stream += 2;
            }
            client.headers(stream, RawHttp2Client.request("POST", "/").add("content-length", "5"), true);
            assertEquals("RST_STREAM " + stream + " PROTOCOL_ERROR", answerOn(client, stream));
            stream += 2;
            client.headers(stream, RawHttp2Client.request("POST", "/").add("content-length", "0"), true);
            assertEquals("DATA " + stream + " POST / HTTP/2.0 [] END_STREAM", client.await("DATA " + stream));
        }
    }

    /** @return the server's first HEADERS, DATA or RST_STREAM on {@code stream} */
    private static String answerOn(RawHttp2Client client, int stream) throws Exception {
        return client.await(frame -> frame.startsWith("RST_STREAM " + stream + " ") || frame.startsWith("HEADERS " + stream + " ")
                || frame.startsWith("DATA " + stream + " "));
    }

    @Test
    void cookieCrumbsAreJoinedIntoOneField() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.headers(1, RawHttp2Client.request("GET", "/c?h=cookie").add("cookie", "a=1").add("cookie", "b=2"), true);
            assertEquals("DATA 1 GET /c HTTP/2.0 [] a=1; b=2 END_STREAM", client.await("DATA 1"));
        }
    }

    @Test
    void headAnswersTheHeadWithoutContent() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.headers(1, RawHttp2Client.request("HEAD", "/h"), true);
            assertEquals("HEADERS 1 :status=200 content-length=19 END_STREAM", client.await("HEADERS 1"));
            client.get(3, "/after");
            assertEquals("DATA 3 GET /after HTTP/2.0 [] END_STREAM", client.await("DATA 3"));
        }
    }

    /**
     * RFC 9110 §15.3.5 and §15.4.5, §8.6: a 204 or a 304 has no content and no content-length,
     * whatever the handler wrote (as over HTTP/1.1, where the generator drops it); RFC 9113
     * §8.1.1 makes content in such a response malformed, and a client refuses it.
     */
    @Test
    void contentWrittenToA204OrA304IsDropped() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.setStatus(Integer.parseInt(request.getHttpURI().getPath().substring(1)));
            Response.write(response, true, "no content has no body", callback);
            return true;
        }))).start()) {
            client.get(1, "/204");
            assertEquals("HEADERS 1 :status=204 END_STREAM", client.await("HEADERS 1"));
            client.get(3, "/304");
            assertEquals("HEADERS 3 :status=304 END_STREAM", client.await("HEADERS 3"));
            client.get(5, "/200");
            assertEquals("HEADERS 5 :status=200 content-length=22", client.await("HEADERS 5"));
        }
    }

    @Test
    void responseTrailersEndTheStream() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.setTrailersSupplier(() -> HttpFields.build().add("checksum", "abc"));
            Response.write(response, true, "body", callback);
            return true;
        }))).start()) {
            client.get(1, "/");
            assertEquals("HEADERS 1 :status=200", client.await("HEADERS 1"));
            assertEquals("DATA 1 body", client.await("DATA 1"));
            assertEquals("HEADERS 1 checksum=abc END_STREAM", client.await("HEADERS 1"));
        }
    }

    @Test
    void expectContinueGetsA100WhenTheHandlerReads() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.headers(1, RawHttp2Client.request("POST", "/").add("expect", "100-continue"), false);
            assertEquals("HEADERS 1 :status=100", client.await("HEADERS 1"));
            client.data(1, "go", true);
            assertEquals("DATA 1 POST / HTTP/2.0 [go] END_STREAM", client.await("DATA 1"));
        }
    }

    @Test
    void ourDataWaitsForThePeersWindow() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Response.write(response, true, "0123456789", callback);
            return true;
        })))) {
            client.start();
            client.settings(Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 4).build());
            client.await("SETTINGS ACK");
            client.get(1, "/");
            assertEquals("DATA 1 0123", client.await("DATA 1"));
            client.windowUpdate(1, 3);
            assertEquals("DATA 1 456", client.await("DATA 1"));
            client.windowUpdate(1, 100);
            assertEquals("DATA 1 789 END_STREAM", client.await("DATA 1"));
        }
    }

    @Test
    void moreStreamsThanAllowedAreRefused() throws Exception {
        session.setMaxConcurrentStreams(2);
        CountDownLatch release = new CountDownLatch(1);
        try (RawHttp2Client client = new RawHttp2Client(start(Handler.of((request, response, callback) -> {
            release.await(10, TimeUnit.SECONDS);
            Response.write(response, true, "done", callback);
            return true;
        }))).start()) {
            client.get(1, "/").get(3, "/").get(5, "/");
            assertEquals("RST_STREAM 5 REFUSED_STREAM", client.await("RST_STREAM"));
            release.countDown();
            java.util.Set<String> done = new java.util.TreeSet<>();
            done.add(client.await("DATA"));
            done.add(client.await("DATA"));
            assertEquals(java.util.Set.of("DATA 1 done END_STREAM", "DATA 3 done END_STREAM"), done);
            client.get(7, "/");
            assertEquals("DATA 7 done END_STREAM", client.await("DATA 7"));
        }
    }

    @Test
    void controlFramesAreAnsweredWhileEveryWorkerIsBlocked() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        start(Handler.of((request, response, callback) -> {
            release.await(20, TimeUnit.SECONDS);
            Response.write(response, true, "late", callback);
            return true;
        }));
        try (RawHttp2Client client = new RawHttp2Client(connector).start()) {
            for (int stream = 1; stream <= 39; stream += 2) {
                client.get(stream, "/");
            }
            client.ping(42);
            assertEquals("PING 42 ACK", client.await("PING"));
            client.settings(Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 1000).build());
            assertEquals("SETTINGS ACK", client.await("SETTINGS ACK"));
            release.countDown();
            assertEquals("DATA 39 late END_STREAM", client.await("DATA 39"));
        } finally {
            release.countDown();
        }
    }

    @Test
    void gracefulShutdownSendsGoAwayAndLetsStreamsFinish() throws Exception {
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        start(Handler.of((request, response, callback) -> {
            handling.countDown();
            release.await(10, TimeUnit.SECONDS);
            Response.write(response, true, "finished", callback);
            return true;
        }));
        try (RawHttp2Client client = new RawHttp2Client(connector).start()) {
            client.get(1, "/");
            assertTrue(handling.await(10, TimeUnit.SECONDS));
            Thread stopper = Thread.ofPlatform().start(() -> {
                try {
                    server.stop();
                } catch (Exception x) {
                    throw new RuntimeException(x);
                }
            });
            assertEquals("GOAWAY 1 NO_ERROR shutting down", client.await("GOAWAY"));
            release.countDown();
            assertEquals("DATA 1 finished END_STREAM", client.await("DATA 1"));
            client.untilClosed();
            stopper.join(Duration.ofSeconds(20));
        } finally {
            release.countDown();
        }
    }

    @Test
    void anUpgradedRequestIsAnsweredOnStreamOne() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(echo()))) {
            String head = client.upgrade(io.wharf.server.LocalServer.crlf("""
                    GET /up?h=user-agent HTTP/1.1
                    Host: example.com
                    User-Agent: raw
                    Connection: Upgrade, HTTP2-Settings
                    Upgrade: h2c
                    HTTP2-Settings: AAMAAABkAAQAAP__

                    """));
            assertEquals("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n", head);
            assertEquals("DATA 1 GET /up HTTP/2.0 [] raw END_STREAM", client.await("DATA 1"));
            client.get(3, "/next");
            assertEquals("DATA 3 GET /next HTTP/2.0 [] END_STREAM", client.await("DATA 3"));
        }
    }

    @Test
    void aFirstLineThatIsNeitherHttp1NorThePrefaceIsAnsweredWithGoAway() throws Exception {
        start(echo());
        String answer;
        try (LocalConnector.Client client = connector.connect()) {
            // What h2spec 3.5/2 sends to a port that speaks HTTP/1.1 and h2c.
            client.send("INVALID CONNECTION PREFACE\r\n\r\n");
            answer = client.readUntilClosed(Duration.ofSeconds(10));
        }
        String reason = "neither an HTTP/1 request line nor the HTTP/2 connection preface";
        byte[] frame = answer.getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(9 + 8 + reason.length(), frame.length, answer);
        assertEquals(8 + reason.length(), (frame[0] & 0xFF) << 16 | (frame[1] & 0xFF) << 8 | frame[2] & 0xFF, "payload length");
        assertEquals(0x7, frame[3], "a GOAWAY");
        assertEquals(0, frame[5] | frame[6] | frame[7] | frame[8], "on stream 0");
        assertEquals(0, frame[9] | frame[10] | frame[11] | frame[12], "no stream processed");
        assertEquals(ErrorCode.PROTOCOL_ERROR.code(), frame[13] << 24 | frame[14] << 16 | frame[15] << 8 | frame[16]);
        assertTrue(answer.endsWith(reason), answer);
        // A line that is HTTP/1, however wrong, is still answered as HTTP/1.
        assertTrue(connector.getResponse("GET / HTTP/3.0\r\nHost: x\r\n\r\n").startsWith("HTTP/1.1 505 "));
        assertTrue(connector.getResponse("GET /a b HTTP/1.1\r\nHost: x\r\n\r\n").startsWith("HTTP/1.1 400 "));
    }

    /** A line that is HTTP/1 by its method or its version, however malformed, gets HTTP/1's 400 and its reason. */
    @Test
    void aMalformedHttp1RequestLineOnAMixedPortIsAnswered400() throws Exception {
        start(echo());
        record Case(String line, String reason) {
        }
        for (Case row : List.of(
                new Case("GET /hello http/1.1", "HTTP version not in upper case"),
                new Case("GET /hello HTTP/1.1 ", "blank after the HTTP version"),
                new Case("GET /hello HTTP/1.1\t", "blank after the HTTP version"),
                new Case("GET /hello HTTP/1.1x", "malformed HTTP version"),
                new Case("FOO /hello Http/1.0", "HTTP version not in upper case"),
                new Case("GET /hello HTTX/1.1", "request line does not end with an HTTP version"),
                new Case("PUT /hello HTTP1.1", "request line does not end with an HTTP version"))) {
            String response = connector.getResponse(row.line() + "\r\nHost: x\r\n\r\n");
            assertTrue(response.startsWith("HTTP/1.1 400 "), row.line() + ": " + response);
            assertTrue(response.contains(row.reason()), row.line() + ": " + response);
        }
    }

    /** Only the whole preface is HTTP/2: a near-preface is a broken one (GOAWAY), a split one is waited for. */
    @Test
    void onlyTheWholePrefaceIsTakenAsHttp2() throws Exception {
        start(echo());
        byte[] settings = {0, 0, 0, 0x4, 0, 0, 0, 0, 0};
        for (String nearPreface : List.of("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n", "PRI * HTTP/2.0\r\n\r\nSM\r\n\rQ")) {
            String answer;
            try (LocalConnector.Client client = connector.connect()) {
                client.send(nearPreface);
                client.send(java.nio.ByteBuffer.wrap(settings));
                answer = client.readUntilClosed(Duration.ofSeconds(10));
            }
            assertFalse(answer.startsWith("HTTP/1"), answer);
            assertGoAway(answer, "not the HTTP/2 connection preface (RFC 9113 section 3.4)");
        }
        try (LocalConnector.Client client = connector.connect()) {
            client.send("PRI * HTTP/2.0\r\n\r");
            Thread.sleep(50);
            client.send("\nSM\r\n");
            Thread.sleep(50);
            client.send("\r\n");
            client.send(java.nio.ByteBuffer.wrap(settings));
            java.nio.ByteBuffer first = client.readBytes(Duration.ofSeconds(10));
            assertTrue(first.remaining() >= 9, "a frame");
            assertEquals(0x4, first.get(first.position() + 3), "the server's SETTINGS first");
        }
    }

    /** Asserts that {@code answer} is one GOAWAY PROTOCOL_ERROR, last stream 0, whose debug text is {@code reason}. */
    private static void assertGoAway(String answer, String reason) {
        byte[] frame = answer.getBytes(StandardCharsets.ISO_8859_1);
        int start = 0;
        // A SETTINGS frame may come first, from a connection that took the bytes as HTTP/2.
        while (start + 9 <= frame.length && frame[start + 3] != 0x7) {
            start += 9 + ((frame[start] & 0xFF) << 16 | (frame[start + 1] & 0xFF) << 8 | frame[start + 2] & 0xFF);
        }
        assertTrue(start + 17 <= frame.length, "no GOAWAY in " + answer);
        assertEquals(8 + reason.length(), (frame[start] & 0xFF) << 16 | (frame[start + 1] & 0xFF) << 8 | frame[start + 2] & 0xFF,
                "payload length of " + answer);
        assertEquals(0, frame[start + 9] | frame[start + 10] | frame[start + 11] | frame[start + 12], "no stream processed");
        assertEquals(ErrorCode.PROTOCOL_ERROR.code(), frame[start + 13] << 24 | frame[start + 14] << 16 | frame[start + 15] << 8 | frame[start + 16]);
        assertEquals(reason, answer.substring(start + 17, start + 9 + 8 + reason.length()));
    }

    @Test
    void aPathPastTheUriLimitIsAnswered414AndTheConnectionLivesOn() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.get(1, "/" + "a".repeat(9000));
            String head = client.await("HEADERS 1");
            assertTrue(head.startsWith("HEADERS 1 :status=414"), head);
            String reason = client.await("DATA 1");
            assertTrue(reason.contains(":path longer than 8192 bytes") && reason.endsWith("END_STREAM"), reason);
            String path = "/" + "a".repeat(8000);
            client.get(3, path);
            assertEquals("DATA 3 GET " + path + " HTTP/2.0 [] END_STREAM", client.await("DATA 3"));
        }
    }

    /**
     * The target is what is too long, whether the {@code :path} alone takes the header list
     * past its limit or later fields do: 414 names the URI limit, as over HTTP/1.1, not 431.
     */
    @Test
    void aPathPastTheUriLimitIsAnswered414EvenWhenTheHeaderListIsTooLarge() throws Exception {
        session.setMaxHeaderListSize(12_000);
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.get(1, "/" + "a".repeat(20_000));
            String head = client.await("HEADERS 1");
            assertTrue(head.startsWith("HEADERS 1 :status=414"), head);
            client.headers(3, RawHttp2Client.request("GET", "/" + "b".repeat(9000)).add("x-big", "x".repeat(6000)), true);
            head = client.await("HEADERS 3");
            assertTrue(head.startsWith("HEADERS 3 :status=414"), head);
            client.headers(5, RawHttp2Client.request("GET", "/short").add("x-big", "x".repeat(13_000)), true);
            head = client.await("HEADERS 5");
            assertTrue(head.startsWith("HEADERS 5 :status=431"), head);
            client.get(7, "/small");
            assertEquals("DATA 7 GET /small HTTP/2.0 [] END_STREAM", client.await("DATA 7"));
        }
    }

    @Test
    void anUpgradeWithContentIsServedAsHttp11() throws Exception {
        start(echo());
        String response = connector.getResponse(io.wharf.server.LocalServer.crlf("""
                POST /p HTTP/1.1
                Host: example.com
                Connection: Upgrade, HTTP2-Settings, close
                Upgrade: h2c
                HTTP2-Settings: AAMAAABkAAQAAP__
                Content-Length: 3

                abc"""));
        assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
        assertTrue(response.endsWith("POST /p HTTP/1.1 [abc]"), response);
    }

    @Test
    void aHeaderListPastOurLimitIsAnswered431AndTheConnectionLivesOn() throws Exception {
        session.setMaxHeaderListSize(512);
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.headers(1, RawHttp2Client.request("GET", "/big").add("x-big", "x".repeat(600)), true);
            assertEquals("HEADERS 1 :status=431 content-type=text/plain;charset=utf-8 content-length=70", client.await("HEADERS 1"));
            assertEquals("DATA 1 431 Request Header Fields Too Large\nheader list longer than 512 bytes\n END_STREAM", client.await("DATA 1"));
            client.get(3, "/small");
            assertEquals("DATA 3 GET /small HTTP/2.0 [] END_STREAM", client.await("DATA 3"));
        }
    }

    @Test
    void aResponseHeadPastThePeersLimitResetsTheStream() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put("x-big", "y".repeat(2000));
            Response.write(response, true, "never", callback);
            return true;
        }))).start()) {
            client.settings(Settings.builder().set(Setting.MAX_HEADER_LIST_SIZE, 1000).build());
            client.await("SETTINGS ACK");
            client.get(1, "/");
            assertEquals("RST_STREAM 1 INTERNAL_ERROR", client.await("RST_STREAM 1"));
        }
    }

    @Test
    void anIdleConnectionIsToldGoAwayThenClosed() throws Exception {
        start(echo());
        connector.setIdleTimeout(java.time.Duration.ofMillis(300));
        try (RawHttp2Client client = new RawHttp2Client(connector).start()) {
            client.get(1, "/");
            assertEquals("DATA 1 GET / HTTP/2.0 [] END_STREAM", client.await("DATA 1"));
            java.util.List<String> rest = client.untilClosed();
            assertTrue(rest.stream().anyMatch(frame -> frame.startsWith("GOAWAY 1 NO_ERROR idle timeout")), rest.toString());
        }
    }

    @Test
    void framesInFlightOnAStreamWeResetAreIgnored() throws Exception {
        session.setResetBudget(5);
        try (RawHttp2Client client = new RawHttp2Client(start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Response.write(response, true, "early", callback);
            return true;
        }))).start()) {
            client.headers(1, RawHttp2Client.request("POST", "/upload"), false);
            assertEquals("DATA 1 early END_STREAM", client.await("DATA 1"));
            // The response is complete while the upload goes on: the upload is read and dropped
            // until more than 64 KiB came, then RST_STREAM NO_ERROR (RFC 9113 section 8.1).
            String piece = "u".repeat(16 * 1024);
            for (int i = 0; i < 5; i++) {
                client.data(1, piece, false);
            }
            assertEquals("RST_STREAM 1 NO_ERROR", client.await("RST_STREAM 1"));
            for (int i = 0; i < 30; i++) {
                client.data(1, "more upload", false);
            }
            client.headers(1, HttpFields.build().add("checksum", "x"), true);
            client.get(3, "/next");
            assertEquals("DATA 3 early END_STREAM", client.await("DATA 3"));
        }
    }

    @Test
    void contentReadAfterTheExchangeCompletedFailsCheaply() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Request> handled = new java.util.concurrent.atomic.AtomicReference<>();
        try (RawHttp2Client client = new RawHttp2Client(start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            handled.set(request);
            Response.write(response, true, "early", callback);
            return true;
        }))).start()) {
            client.headers(1, RawHttp2Client.request("POST", "/upload"), false);
            assertEquals("DATA 1 early END_STREAM", client.await("DATA 1"));
            // The exchange completes once the response is written, which the client may see first.
            io.wharf.io.Content.Chunk chunk = handled.get().read();
            for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); chunk == null && System.nanoTime() < deadline; ) {
                Thread.sleep(10);
                chunk = handled.get().read();
            }
            assertTrue(io.wharf.io.Content.Chunk.isFailure(chunk), String.valueOf(chunk));
            Throwable failure = chunk.getFailure();
            assertTrue(failure instanceof java.io.IOException, failure.toString());
            assertEquals("the exchange of POST /upload HTTP/2.0@" + handled.get().getId() + " is complete", failure.getMessage());
            // One is made per exchange: it carries no stack trace, which cost more than the rest of the request's allocations.
            assertEquals(0, failure.getStackTrace().length);
        }
    }

    @Test
    void dataOnAStreamThePeerClosedIsAStreamError() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start(echo())).start()) {
            client.get(1, "/");
            assertEquals("DATA 1 GET / HTTP/2.0 [] END_STREAM", client.await("DATA 1"));
            client.data(1, "late", true);
            assertEquals("RST_STREAM 1 STREAM_CLOSED", client.await("RST_STREAM 1"));
        }
    }

    @Test
    void tinyDataFramesDoNotEachHoldANetworkBuffer() throws Exception {
        session.setPingBudget(0);
        CountDownLatch release = new CountDownLatch(1);
        try (RawHttp2Client client = new RawHttp2Client(start(Handler.of((request, response, callback) -> {
            release.await(10, TimeUnit.SECONDS);
            String content = Request.getContentAsString(request, StandardCharsets.ISO_8859_1, 1 << 20);
            Response.write(response, true, Integer.toString(content.length()), callback);
            return true;
        }))).start()) {
            client.headers(1, RawHttp2Client.request("POST", "/"), false);
            for (int i = 0; i < 200; i++) {
                // One byte per read: the PING's answer shows the server read the DATA before the next is sent.
                client.data(1, "x", false).ping(i);
                client.await("PING " + i + " ACK");
            }
            long inUse = leaks.pool().getInUseCount();
            assertTrue(inUse < 20, "200 queued one-byte DATA frames hold " + inUse + " pooled buffers");
            release.countDown();
            client.data(1, "", true);
            assertEquals("DATA 1 200 END_STREAM", client.await("DATA 1"));
        } finally {
            release.countDown();
        }
    }
}
