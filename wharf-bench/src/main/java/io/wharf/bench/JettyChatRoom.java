package io.wharf.bench;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.server.ServerUpgradeRequest;
import org.eclipse.jetty.websocket.server.ServerUpgradeResponse;
import org.eclipse.jetty.websocket.server.WebSocketCreator;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

import io.wharf.examples.ChatRoom;

/**
 * The peer of the {@code ws-chat} run: {@link ChatRoom}'s wire protocol on Jetty 12.1's
 * WebSocket API. A member joins by {@code /chat/ws?name=NAME} (the same name rule; else 400),
 * and every join, message and leave goes to every member as the same JSON, quoted by
 * {@link ChatRoom#quote}. Set up like the room: 4 KiB messages, 5 minutes idle, a bounded
 * outgoing queue (1024 frames, Wharf's default) whose overflow closes the member with 1008,
 * no extension. Each message is broadcast on the thread that read it, one asynchronous send
 * per member; the member set is a concurrent set.
 */
final class JettyChatRoom implements WebSocketCreator {

    private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N} _-]{1,24}");

    private final Set<Member> members = ConcurrentHashMap.newKeySet();

    private JettyChatRoom() {
    }

    static ServerProcess.Target start(InetSocketAddress address) throws Exception {
        JettyChatRoom room = new JettyChatRoom();
        return BenchServers.jetty(address, server -> WebSocketUpgradeHandler.from(server, container -> {
            container.setMaxTextMessageSize(ChatRoom.MAX_MESSAGE_BYTES);
            container.setMaxBinaryMessageSize(ChatRoom.MAX_MESSAGE_BYTES);
            container.setMaxFrameSize(ChatRoom.MAX_MESSAGE_BYTES);
            container.setIdleTimeout(Duration.ofMinutes(5));
            container.setMaxOutgoingFrames(1024);
            container.addMapping("/chat/ws", room);
        }));
    }

    @Override
    public Object createWebSocket(ServerUpgradeRequest request, ServerUpgradeResponse response, org.eclipse.jetty.util.Callback callback) {
        String name;
        try {
            name = Request.extractQueryParameters(request).getValue("name");
        } catch (RuntimeException x) {
            name = null; // a malformed query: refused below like a missing name
        }
        name = name == null ? "" : name.strip();
        if (!NAME.matcher(name).matches()) {
            Response.writeError(request, response, callback, HttpStatus.BAD_REQUEST_400, "name must be 1 to 24 letters, digits, spaces, '_' or '-'");
            return null;
        }
        response.setExtensions(List.of());
        return new Member(name);
    }

    private void broadcast(String json) {
        for (Member member : members) {
            member.send(json);
        }
    }

    private String event(String type, String name) {
        return "{\"type\":\"" + type + "\",\"name\":" + ChatRoom.quote(name) + ",\"members\":" + members.size() + "}";
    }

    /** One connected member: its name and session. */
    public final class Member implements Session.Listener.AutoDemanding {
        private final String name;
        private volatile Session session;

        Member(String name) {
            this.name = name;
        }

        @Override
        public void onWebSocketOpen(Session session) {
            this.session = session;
            members.add(this);
            broadcast(event("join", name));
        }

        @Override
        public void onWebSocketText(String text) {
            broadcast("{\"type\":\"message\",\"from\":" + ChatRoom.quote(name) + ",\"text\":" + ChatRoom.quote(text)
                + ",\"members\":" + members.size() + "}");
        }

        @Override
        public void onWebSocketClose(int code, String reason) {
            leave();
        }

        @Override
        public void onWebSocketError(Throwable cause) {
            leave();
        }

        private void leave() {
            if (members.remove(this)) {
                broadcast(event("leave", name));
            }
        }

        void send(String json) {
            Session current = session;
            if (current != null && current.isOpen()) {
                current.sendText(json, Callback.from(() -> { },
                    failure -> current.close(StatusCode.POLICY_VIOLATION, "too slow: messages could not be queued", Callback.NOOP)));
            }
        }
    }
}
