package io.wharf.loadgen;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

/**
 * Test fixture: a chat room speaking the demo's protocol ({@code ?name=N}; JSON {@code join} and
 * {@code message} events to every member, the speaker included), small enough to bend: it can
 * hold each message for a while before broadcasting it (one message at a time, in order, like a
 * slow room), and it can leave its first member out of every broadcast of a message (deliveries
 * that never come). Serve {@link #handler()} at {@code /chat/ws}; close it to stop its timer.
 */
public final class TestChatRoom implements AutoCloseable {

    private final long holdMillis;
    private final boolean skipFirstMember;
    private final Set<Member> members = ConcurrentHashMap.newKeySet();
    private final AtomicInteger joins = new AtomicInteger();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    public final AtomicInteger messages = new AtomicInteger();

    /**
     * @param holdMillis how long each message waits before it is broadcast, after the one before it
     * @param skipFirstMember whether the first member to join never gets a message
     */
    public TestChatRoom(long holdMillis, boolean skipFirstMember) {
        this.holdMillis = holdMillis;
        this.skipFirstMember = skipFirstMember;
    }

    public WebSocketUpgradeHandler handler() {
        WebSocketUpgradeHandler websocket = new WebSocketUpgradeHandler();
        websocket.addMapping("/chat/ws", (request, response) -> {
            String query = request.request().getHttpURI().getQuery();
            return new Member(query.substring(query.indexOf("name=") + 5), joins.getAndIncrement() == 0);
        });
        return websocket;
    }

    private void broadcast(String json, boolean message) {
        for (Member member : members) {
            if (!(message && skipFirstMember && member.first)) {
                member.session.sendText(json, Callback.NOOP);
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private final class Member implements WebSocketListener {
        private final String name;
        private final boolean first;
        private volatile Session session;

        Member(String name, boolean first) {
            this.name = name;
            this.first = first;
        }

        @Override
        public void onOpen(Session session) {
            this.session = session;
            members.add(this);
            broadcast("{\"type\":\"join\",\"name\":\"" + name + "\",\"members\":" + members.size() + "}", false);
        }

        @Override
        public void onText(String text) {
            messages.incrementAndGet();
            String json = "{\"type\":\"message\",\"from\":\"" + name + "\",\"text\":\"" + text + "\",\"members\":" + members.size() + "}";
            if (holdMillis > 0) {
                // The timer's one thread holds the messages one after the other: a room that keeps up with 1000 / holdMillis a second.
                timer.execute(() -> {
                    try {
                        TimeUnit.MILLISECONDS.sleep(holdMillis);
                    } catch (InterruptedException x) {
                        return;
                    }
                    broadcast(json, true);
                });
            } else {
                broadcast(json, true);
            }
        }

        @Override
        public void onClose(int code, String reason) {
            members.remove(this);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
