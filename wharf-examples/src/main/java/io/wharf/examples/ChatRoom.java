package io.wharf.examples;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;
import io.wharf.http.form.FormLimits;
import io.wharf.http.form.UrlEncodedParser;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.server.UpgradeRequest;
import io.wharf.websocket.server.UpgradeResponse;
import io.wharf.websocket.server.WebSocketCreator;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

/**
 * The demo's chat room: every member's text message goes to every member, with join and
 * leave events, as small JSON objects:
 * <pre>
 * {"type":"join","name":"Ann","members":2}
 * {"type":"message","from":"Ann","text":"hello","members":2}
 * {"type":"leave","name":"Ann","members":1}
 * </pre>
 * A member joins by opening {@code /chat/ws?name=NAME} (1 to 24 letters, digits, spaces,
 * {@code _} or {@code -}; anything else is refused with 400). Messages are at most
 * {@link #MAX_MESSAGE_BYTES} (beyond: close 1009). A member that does not read falls behind
 * until its session's bounded queue is full; then it is closed with 1008 rather than hold the
 * others back or grow memory.
 *
 * <p>Public so that the WebSocket chat benchmark ({@code ./wharf bench ws-chat}) can serve it
 * and speak its JSON on the peer server.
 *
 * <p><b>Threads.</b> Listeners are non-blocking: each message is broadcast on the thread that
 * read it, with one asynchronous send per member; a leave is announced on a virtual thread of
 * its own; the member set is a concurrent set.
 */
public final class ChatRoom implements WebSocketCreator {

    /** The largest message a member may send, in bytes of UTF-8. */
    public static final int MAX_MESSAGE_BYTES = 4 * 1024;

    private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N} _-]{1,24}");

    private final Set<Member> members = ConcurrentHashMap.newKeySet();
    /**
     * Where a leave is announced: not on the thread that closed the session, which may be
     * inside another member's failed send (a write to a dead socket closes it at once), so that
     * a run of dead members cannot nest their leaves one in another (a stack overflow when a
     * thousand clients went away together).
     */
    private final Executor announcer = Executors.newVirtualThreadPerTaskExecutor();

    /** @return the upgrade handler that serves this room at {@code /chat/ws} */
    public WebSocketUpgradeHandler handler() {
        WebSocketUpgradeHandler websocket = new WebSocketUpgradeHandler();
        websocket.setConfiguration(WebSocketConfiguration.defaults()
                .withLimits(MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES)
                .withTimeouts(Duration.ofMinutes(5), Duration.ofSeconds(5)));
        websocket.addMapping("/chat/ws", this);
        return websocket;
    }

    /** @return how many members are in the room now */
    int size() {
        return members.size();
    }

    @Override
    public WebSocketListener create(UpgradeRequest request, UpgradeResponse response) {
        String query = request.request().getHttpURI().getQuery();
        String name = null;
        try {
            name = query == null ? null : UrlEncodedParser.decodeQuery(query, StandardCharsets.UTF_8, FormLimits.DEFAULT).getValue("name");
        } catch (BadMessageException x) {
            // A malformed query: refused below like a missing name.
        }
        name = name == null ? "" : name.strip();
        if (!NAME.matcher(name).matches()) {
            response.refuse(HttpStatus.BAD_REQUEST_400, "name must be 1 to 24 letters, digits, spaces, '_' or '-'");
            return null;
        }
        return new Member(name);
    }

    private void broadcast(String json) {
        for (Member member : members) {
            member.send(json);
        }
    }

    /** One connected member: its name and session. */
    private final class Member implements WebSocketListener {
        private final String name;
        private volatile Session session;

        Member(String name) {
            this.name = name;
        }

        @Override
        public void onOpen(Session session) {
            this.session = session;
            members.add(this);
            broadcast(event("join", "name", name));
        }

        @Override
        public void onText(String text) {
            broadcast("{\"type\":\"message\",\"from\":" + quote(name) + ",\"text\":" + quote(text) + ",\"members\":" + members.size() + "}");
        }

        @Override
        public void onClose(int code, String reason) {
            leave();
        }

        @Override
        public void onError(Throwable cause) {
            leave();
        }

        private void leave() {
            if (members.remove(this)) {
                String left = event("leave", "name", name);
                announcer.execute(() -> broadcast(left));
            }
        }

        void send(String json) {
            Session current = session;
            if (current != null && current.isOpen()) {
                current.sendText(json, Callback.from(InvocationType.NON_BLOCKING, () -> { },
                        failure -> current.close(CloseStatus.POLICY_VIOLATION, "too slow: messages could not be queued")));
            }
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }

        private String event(String type, String key, String value) {
            return "{\"type\":\"" + type + "\",\"" + key + "\":" + quote(value) + ",\"members\":" + members.size() + "}";
        }
    }

    /**
     * @return {@code text} as a JSON string; {@code < > &} are escaped too, so the JSON stays
     *     inert even if a page ever wrote it into HTML
     */
    public static String quote(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }
}
