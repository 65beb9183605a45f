package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.ExecutionException;

import io.wharf.http.HttpMethod;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Responses a plain socket server scripts byte by byte: framings Wharf's server does not send,
 * bad input, and keep-alive connections the server closes under a request.
 */
@Timeout(30)
class RawResponsesTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private ScriptedServer server;
    private HttpClient client;

    private void start(ScriptedServer.Script... scripts) throws Exception {
        server = loopback.scripted(scripts);
        client = loopback.client();
    }

    @Test
    void closeDelimitedContentEndsWithTheConnection() throws Exception {
        start(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end");
            peer.close();
        });
        ContentResponse response = client.GET(server.uri("/"));
        assertEquals("until the end", response.getContentAsString());
        assertEquals(0, client.getDestinations().get(0).getConnectionCount(), "a close-delimited connection is not pooled");
    }

    @Test
    void anHttp10ServerIsUnderstood() throws Exception {
        start(peer -> {
            peer.readHead();
            peer.write("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nold");
            peer.close();
        });
        ContentResponse first = client.GET(server.uri("/a"));
        assertEquals("old", first.getContentAsString());
        assertEquals(io.wharf.http.HttpVersion.HTTP_1_0, first.getVersion());
        // HTTP/1.0 without keep-alive: the next request opens another connection.
        assertEquals("old", client.GET(server.uri("/b")).getContentAsString());
        assertEquals(2, server.accepted(), server.heads::toString);
    }

    @Test
    void anHttp10ServerWithKeepAliveKeepsTheConnection() throws Exception {
        start(peer -> {
            while (peer.readHead() != null) {
                peer.write("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok");
            }
        });
        for (int i = 0; i < 3; i++) {
            assertEquals("ok", client.GET(server.uri("/" + i)).getContentAsString());
        }
        assertEquals(1, server.accepted());
    }

    @Test
    void chunkedContentWithTrailers() throws Exception {
        start(peer -> {
            while (peer.readHead() != null) {
                peer.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n1;ext=1\r\n,\r\n6\r\n world\r\n0\r\nX-Checksum: 42\r\n\r\n");
            }
        });
        ContentResponse response = client.GET(server.uri("/"));
        assertEquals("hello, world", response.getContentAsString());
        assertEquals("42", response.getTrailers().get("X-Checksum"));
        assertEquals("hello, world", client.GET(server.uri("/")).getContentAsString());
        assertEquals(1, server.accepted(), server.heads::toString);
    }

    @Test
    void aMalformedStatusLineFailsClearlyAndTheConnectionIsDropped() throws Exception {
        start(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 OK 200\r\nContent-Length: 0\r\n\r\n");
            peer.readHead();
        }, peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            peer.readHead();
        });
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/")));
        assertInstanceOf(IOException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().startsWith("bad response from http://127.0.0.1:"), failure.getCause().getMessage());
        // The bad connection is gone; the next request gets a new one that works.
        assertEquals("ok", client.GET(server.uri("/")).getContentAsString());
        assertEquals(2, server.accepted());
    }

    @Test
    void anOverLongHeaderFailsClearly() throws Exception {
        start(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 OK\r\nX-Big: " + "x".repeat(10_000) + "\r\nContent-Length: 0\r\n\r\n");
            peer.readHead();
        });
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/")));
        assertTrue(failure.getCause().getMessage().contains("response head longer than 8192 bytes"), failure.getCause().getMessage());
        assertEquals(0, client.getDestinations().get(0).getConnectionCount());
    }

    @Test
    void contentShorterThanDeclaredFailsWithAnEarlyEnd() throws Exception {
        start(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");
            peer.close();
        });
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/")));
        assertInstanceOf(EOFException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().contains("before the response"), failure.getCause().getMessage());
    }

    @Test
    void bytesWithNoRequestOutstandingCloseTheConnection() throws Exception {
        start(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokGARBAGE");
            peer.readHead();
        }, peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            peer.readHead();
        });
        assertEquals("ok", client.GET(server.uri("/")).getContentAsString());
        assertEquals("ok", client.GET(server.uri("/")).getContentAsString());
        assertEquals(2, server.accepted(), "the connection that sent stray bytes is not reused");
    }

    /** The server answers one request, then closes the kept-alive connection when the next comes. */
    private static void answerOnceThenCloseOnTheNext(ScriptedServer.Peer peer) throws IOException {
        peer.readHead();
        peer.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst");
        String next = peer.readHead();
        if (next != null && next.contains("Content-Length: ")) {
            peer.readBytes(Integer.parseInt(next.replaceAll("(?s).*Content-Length: (\\d+).*", "$1")));
        }
        peer.close();
    }

    @Test
    void anIdempotentRequestOnAConnectionTheServerJustClosedIsRetried() throws Exception {
        start(RawResponsesTest::answerOnceThenCloseOnTheNext, peer -> {
            while (peer.readHead() != null) {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nretried");
            }
        });
        assertEquals("first", client.GET(server.uri("/")).getContentAsString());
        assertEquals("retried", client.newRequest(server.uri("/")).method(HttpMethod.PUT)
                .content(RequestContent.of("again")).send().getContentAsString());
        assertEquals(2, server.accepted());
    }

    @Test
    void aPostOnAConnectionTheServerJustClosedIsNotRetried() throws Exception {
        start(RawResponsesTest::answerOnceThenCloseOnTheNext, peer -> {
            while (peer.readHead() != null) {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nretried");
            }
        });
        assertEquals("first", client.GET(server.uri("/")).getContentAsString());
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> client.POST(server.uri("/")).content(RequestContent.of("once")).send());
        assertInstanceOf(IOException.class, failure.getCause());
        assertEquals(1, server.accepted());
    }

    @Test
    void aStreamedRequestIsNotRetried() throws Exception {
        start(RawResponsesTest::answerOnceThenCloseOnTheNext, peer -> {
            while (peer.readHead() != null) {
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nretried");
            }
        });
        assertEquals("first", client.GET(server.uri("/")).getContentAsString());
        assertThrows(ExecutionException.class, () -> client.newRequest(server.uri("/")).method(HttpMethod.PUT)
                .content(RequestContent.of(new java.io.ByteArrayInputStream(new byte[10]))).send());
    }
}
