package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.concurrent.ExecutionException;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.session.StreamNotProcessedException;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How HTTP/2 ends exchanges early, against a server played frame by frame: a GOAWAY below
 * the request sends an idempotent request again on a new connection and fails another one;
 * REFUSED_STREAM sends it again; another reset fails the exchange and leaves the connection
 * for the next; a reused connection the server closes without a GOAWAY before it answers sends
 * an idempotent request again, as a stale HTTP/1.1 keep-alive connection does.
 */
@Timeout(30)
class Http2ResetsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** Reads frames until the client closes. */
    private static void drain(RawHttp2Peer http2) throws IOException {
        while (http2.next() != null) {
            // Nothing more to say.
        }
    }

    private static final ScriptedServer.Script ANSWERS = peer -> {
        RawHttp2Peer http2 = new RawHttp2Peer(peer).start();
        RawHttp2Peer.Frame headers;
        while ((headers = http2.awaitHeaders()) != null) {
            http2.respond(headers.streamId(), 200, "answered " + headers.streamId());
        }
    };

    /** Answers the first request with a GOAWAY naming no stream as processed. */
    private static final ScriptedServer.Script GOAWAY_BELOW_THE_FIRST = peer -> {
        RawHttp2Peer http2 = new RawHttp2Peer(peer).start();
        http2.awaitHeaders();
        http2.goAway(0, ErrorCode.NO_ERROR);
        drain(http2);
    };

    @Test
    void aGoAwayBelowAnIdempotentRequestSendsItAgainOnANewConnection() throws Exception {
        ScriptedServer server = loopback.scripted(GOAWAY_BELOW_THE_FIRST, ANSWERS);
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        ContentResponse response = client.GET(server.uri("/again"));
        assertEquals("answered 1", response.getContentAsString());
        assertEquals(2, server.accepted(), "the request went again on a second connection");
    }

    @Test
    void aGoAwayBelowAPostFailsIt() throws Exception {
        ScriptedServer server = loopback.scripted(GOAWAY_BELOW_THE_FIRST, ANSWERS);
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> client.POST(server.uri("/once")).content(RequestContent.of("data")).send());
        assertInstanceOf(StreamNotProcessedException.class, failed.getCause());
        assertTrue(failed.getCause().getMessage().contains("GOAWAY"), failed.getCause().getMessage());
        assertEquals("answered 1", client.GET(server.uri("/next")).getContentAsString(), "the next goes on a new connection");
    }

    /** Resets the first request's stream with {@code error}, answers the next. */
    private static ScriptedServer.Script resetTheFirst(ErrorCode error) {
        return peer -> {
            RawHttp2Peer http2 = new RawHttp2Peer(peer).start();
            http2.reset(http2.awaitHeaders().streamId(), error);
            RawHttp2Peer.Frame second = http2.awaitHeaders();
            http2.respond(second.streamId(), 200, "answered " + second.streamId());
            drain(http2);
        };
    }

    @Test
    void aRefusedStreamIsSentAgain() throws Exception {
        ScriptedServer server = loopback.scripted(resetTheFirst(ErrorCode.REFUSED_STREAM));
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        assertEquals("answered 3", client.GET(server.uri("/refused")).getContentAsString());
        assertEquals(1, server.accepted());
    }

    @Test
    void aServerResetFailsTheExchangeAndTheConnectionGoesOn() throws Exception {
        ScriptedServer server = loopback.scripted(resetTheFirst(ErrorCode.INTERNAL_ERROR));
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/reset")));
        assertInstanceOf(IOException.class, failed.getCause());
        assertEquals("stream 1 reset by the peer: INTERNAL_ERROR", failed.getCause().getMessage());
        assertEquals("answered 3", client.GET(server.uri("/next")).getContentAsString());
        assertEquals(1, server.accepted());
    }

    /** Answers the first request, then closes the connection without a GOAWAY when the next comes. */
    private static final ScriptedServer.Script ANSWER_ONE_THEN_CLOSE = peer -> {
        RawHttp2Peer http2 = new RawHttp2Peer(peer).start();
        RawHttp2Peer.Frame first = http2.awaitHeaders();
        http2.respond(first.streamId(), 200, "first");
        http2.awaitHeaders();
    };

    @Test
    void aReusedConnectionClosedWithoutGoAwayBeforeTheAnswerSendsAGetAgain() throws Exception {
        ScriptedServer server = loopback.scripted(ANSWER_ONE_THEN_CLOSE, ANSWERS);
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        assertEquals("first", client.GET(server.uri("/first")).getContentAsString());
        assertEquals("answered 1", client.GET(server.uri("/second")).getContentAsString(), "sent again on a new connection");
        assertEquals(2, server.accepted());
    }

    @Test
    void aReusedConnectionClosedWithoutGoAwayFailsAPost() throws Exception {
        ScriptedServer server = loopback.scripted(ANSWER_ONE_THEN_CLOSE, ANSWERS);
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        assertEquals("first", client.GET(server.uri("/first")).getContentAsString());
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> client.POST(server.uri("/once")).content(RequestContent.of("data")).send());
        assertInstanceOf(IOException.class, failed.getCause());
        assertEquals(1, server.accepted(), "not sent again");
    }

    @Test
    void aNewConnectionClosedWithoutGoAwayFailsEvenAGet() throws Exception {
        ScriptedServer server = loopback.scripted(peer -> {
            new RawHttp2Peer(peer).start().awaitHeaders();
        }, ANSWERS);
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        ExecutionException failed = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/first")));
        assertInstanceOf(IOException.class, failed.getCause());
        assertEquals(1, server.accepted(), "a server that closes new connections is not tried again");
    }
}
