package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The demo's chat room driven by the JDK's WebSocket client: every message reaches every
 * member, joins and leaves are announced, bad names are refused, oversized messages close 1009.
 */
@Timeout(30)
class ChatRoomTest {

    private final HttpClient jdk = HttpClient.newHttpClient();
    private final ChatRoom room = new ChatRoom();
    private Server server;
    private String base;
    private final List<Member> members = new CopyOnWriteArrayList<>();

    /** One member's socket and what it received, in order. */
    private static final class Member implements WebSocket.Listener {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();
        WebSocket socket;

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                received.add(partial.toString());
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.completeExceptionally(error);
        }

        String next() throws InterruptedException {
            String message = received.poll(10, TimeUnit.SECONDS);
            if (message == null) {
                throw new AssertionError("no message within 10 s");
            }
            return message;
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(room.handler());
        server.start();
        base = "ws://127.0.0.1:" + connector.getLocalPort() + "/chat/ws?name=";
    }

    @AfterEach
    @Timeout(30)
    void stop() throws Exception {
        server.stop();
        // The server's stop closes each session with 1001, which the JDK's socket answers.
        // The JDK client's close() waits for every socket to end, and its socket can miss an
        // end of input without a close frame (seen in CI: a hang), so abort what is left.
        members.forEach(member -> member.socket.abort());
        jdk.close();
    }

    private Member join(String name) throws Exception {
        Member member = new Member();
        member.socket = jdk.newWebSocketBuilder().buildAsync(URI.create(base + name), member).get(10, TimeUnit.SECONDS);
        members.add(member);
        return member;
    }

    @Test
    void everyMessageReachesEveryMember() throws Exception {
        Member ann = join("Ann");
        assertEquals("{\"type\":\"join\",\"name\":\"Ann\",\"members\":1}", ann.next());
        Member bob = join("Bob%20B");
        assertEquals("{\"type\":\"join\",\"name\":\"Bob B\",\"members\":2}", ann.next());
        assertEquals("{\"type\":\"join\",\"name\":\"Bob B\",\"members\":2}", bob.next());

        ann.socket.sendText("hello <b>\"all\"</b>", true).get(10, TimeUnit.SECONDS);
        String expected = "{\"type\":\"message\",\"from\":\"Ann\",\"text\":\"hello \\u003cb\\u003e\\\"all\\\"\\u003c/b\\u003e\",\"members\":2}";
        assertEquals(expected, ann.next());
        assertEquals(expected, bob.next());

        bob.socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(10, TimeUnit.SECONDS);
        assertEquals(1000, bob.closed.get(10, TimeUnit.SECONDS));
        assertEquals("{\"type\":\"leave\",\"name\":\"Bob B\",\"members\":1}", ann.next());
        assertEquals(1, room.size());
    }

    @Test
    void aBadNameIsRefusedWith400() {
        for (String name : List.of("", "%3Cscript%3E", "a".repeat(25))) {
            ExecutionException failure = assertThrows(ExecutionException.class, () -> join(name), name);
            WebSocketHandshakeException refused = assertInstanceOf(WebSocketHandshakeException.class, failure.getCause());
            assertEquals(400, refused.getResponse().statusCode(), name);
        }
        assertEquals(0, room.size());
    }

    @Test
    void aMessageOverTheLimitClosesTheSenderWith1009() throws Exception {
        Member ann = join("Ann");
        ann.next();
        Member bob = join("Bob");
        ann.next();
        assertEquals("{\"type\":\"join\",\"name\":\"Bob\",\"members\":2}", bob.next(), "Bob hears his own join");
        ann.socket.sendText("x".repeat(ChatRoom.MAX_MESSAGE_BYTES + 1), true);
        assertEquals(1009, ann.closed.get(10, TimeUnit.SECONDS));
        // The next thing Bob hears is Ann leaving: nothing of the oversized message came first.
        assertEquals("{\"type\":\"leave\",\"name\":\"Ann\",\"members\":1}", bob.next());
        assertTrue(bob.received.isEmpty(), "nothing more reached Bob: " + bob.received);
    }

    @Test
    void quotesJsonAndKeepsItInertInHtml() {
        assertEquals("\"a\\\\b\\\"c\\n\\u0001\\u003c\\u0026\\u2028\"", ChatRoom.quote("a\\b\"c\n\u0001<&\u2028"));
    }
}
