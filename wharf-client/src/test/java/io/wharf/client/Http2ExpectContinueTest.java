package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code Expect: 100-continue} over HTTP/2 (RFC 9110 section 10.1.1): the request's HEADERS go
 * alone, its DATA only after a 100; a final response first leaves the content unsent, fails the
 * request side with a message that says so, and resets only that stream. Against a server
 * played frame by frame, and against Wharf's own h2c server.
 */
@Timeout(30)
class Http2ExpectContinueTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** The statuses of the interim responses the client got. */
    private final List<Integer> interim = new CopyOnWriteArrayList<>();
    private final Response.Listener interimRecorder = new Response.Listener() {
        @Override
        public void onInformational(Response informational) {
            interim.add(informational.getStatus());
        }
    };

    /** What the played server saw, as "TYPE stream" lines. */
    private final List<String> seen = new CopyOnWriteArrayList<>();

    private static String describe(RawHttp2Peer.Frame frame) {
        String type = switch (frame.type()) {
            case RawHttp2Peer.Frame.DATA -> "DATA";
            case RawHttp2Peer.Frame.HEADERS -> "HEADERS";
            case RawHttp2Peer.Frame.RST_STREAM -> "RST_STREAM";
            default -> "type " + frame.type();
        };
        return type + " " + frame.streamId();
    }

    /** Records what came on {@code streamId} within {@code millis}. */
    private void recordStream(RawHttp2Peer http2, int streamId, int millis) throws java.io.IOException {
        for (RawHttp2Peer.Frame frame : http2.framesWithin(millis)) {
            if (frame.streamId() == streamId) {
                seen.add(describe(frame));
            }
        }
    }

    @Test
    void theContentWaitsForThe100() throws Exception {
        ScriptedServer server = loopback.scripted(peer -> {
            RawHttp2Peer http2 = new RawHttp2Peer(peer).start();
            int stream = http2.awaitHeaders().streamId();
            recordStream(http2, stream, 300);
            seen.add("100 sent");
            http2.status(stream, 100, false);
            ByteArrayOutputStream content = new ByteArrayOutputStream();
            RawHttp2Peer.Frame frame;
            do {
                frame = http2.next();
                if (frame.type() == RawHttp2Peer.Frame.DATA) {
                    content.write(frame.payload());
                }
            } while (!(frame.type() == RawHttp2Peer.Frame.DATA && frame.endStream()));
            http2.respond(stream, 200, "got " + content.toString(StandardCharsets.UTF_8));
            while (http2.next() != null) {
                // Until the client closes.
            }
        });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        ContentResponse response = client.POST(server.uri("/upload")).header("Expect", "100-continue")
                .content(RequestContent.of("the body")).onResponse(interimRecorder).send();
        assertEquals("got the body", response.getContentAsString());
        assertEquals(List.of("100 sent"), seen, "nothing was sent on the stream before the 100");
        assertEquals(List.of(100), interim);
    }

    @Test
    void aFinalAnswerFirstLeavesTheContentUnsentAndResetsOnlyThatStream() throws Exception {
        ScriptedServer server = loopback.scripted(peer -> {
            RawHttp2Peer http2 = new RawHttp2Peer(peer).start();
            int stream = http2.awaitHeaders().streamId();
            http2.respond(stream, 401, "nope");
            // Records what else comes on that stream; answers the next request.
            RawHttp2Peer.Frame frame;
            while ((frame = http2.next()) != null) {
                if (frame.streamId() == stream) {
                    seen.add(describe(frame));
                } else if (frame.type() == RawHttp2Peer.Frame.HEADERS) {
                    http2.respond(frame.streamId(), 200, "answered " + frame.streamId());
                }
            }
        });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.POST(server.uri("/secret"))
                .header("Expect", "100-continue").content(RequestContent.of("secret")).send());
        assertTrue(failure.getCause().getMessage().contains("the server answered 401 instead of 100 Continue: the content of"),
                failure.getCause().getMessage());
        assertEquals("answered 3", client.GET(server.uri("/next")).getContentAsString());
        assertEquals(List.of("RST_STREAM 1"), seen, "no DATA, and our side of the stream reset");
        assertEquals(1, server.accepted(), "the connection went on");
    }

    @Test
    void wharfsServerSendsThe100WhenTheHandlerReadsAndAFinalAnswerWhenItDoesNot() throws Exception {
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            if (request.getHttpURI().getPath().equals("/refuse")) {
                response.setStatus(417);
                callback.succeeded();
                return true;
            }
            String content = io.wharf.server.Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20);
            io.wharf.server.Response.write(response, true, "got " + content, callback);
            return true;
        }), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        ContentResponse accepted = client.POST(server.uri("/upload")).header("Expect", "100-continue")
                .content(RequestContent.of("x".repeat(200_000))).onResponse(interimRecorder).send();
        assertEquals("got " + "x".repeat(200_000), accepted.getContentAsString());
        assertEquals(List.of(100), interim);

        ExecutionException refused = assertThrows(ExecutionException.class, () -> client.POST(server.uri("/refuse"))
                .header("Expect", "100-continue").content(RequestContent.of("unwanted")).send());
        assertTrue(refused.getCause().getMessage().contains("answered 417 instead of 100 Continue"), refused.getCause().getMessage());
        assertEquals("got again", client.POST(server.uri("/again")).content(RequestContent.of("again")).send().getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount(), "one connection carried all three");
    }

    @org.junit.jupiter.api.RepeatedTest(20)
    void anExchangeAbortedWhileItsContentWaitsForThe100LetsTheContentGo() throws Exception {
        java.util.concurrent.CountDownLatch headersSeen = new java.util.concurrent.CountDownLatch(1);
        ScriptedServer server = loopback.scripted(peer -> {
            RawHttp2Peer http2 = new RawHttp2Peer(peer).start();
            http2.awaitHeaders();
            headersSeen.countDown();
            while (http2.next() != null) {
                // Never answers.
            }
        });
        java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
        java.io.InputStream upload = new java.io.ByteArrayInputStream(new byte[1024]) {
            @Override
            public void close() {
                closed.countDown();
            }
        };
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        Request request = client.POST(server.uri("/wait")).header("Expect", "100-continue").content(RequestContent.of(upload));
        java.util.concurrent.CompletableFuture<ContentResponse> response = request.sendAsync();
        assertTrue(headersSeen.await(10, java.util.concurrent.TimeUnit.SECONDS));
        request.abort(new java.util.concurrent.CancellationException("no longer wanted"));
        assertThrows(java.util.concurrent.CancellationException.class, () -> response.get(10, java.util.concurrent.TimeUnit.SECONDS));
        assertTrue(closed.await(10, java.util.concurrent.TimeUnit.SECONDS), "the unread stream was closed");
    }
}
