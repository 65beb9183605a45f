package io.wharf.loadgen.internal;

import java.util.concurrent.CountDownLatch;

import io.wharf.util.InvocationType;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.core.CloseStatus;

/**
 * One member of the room in a chat run: its session, the run's messages it hears (each handed to
 * the {@link ChatScenario} as a delivery) and its own join. The room speaks JSON objects —
 * {@code {"type":"join","name":"N",...}} and {@code {"type":"message","from":"N","text":"T",...}} —
 * as the demo's {@code ChatRoom} does; a run's message text is {@code chatload RUN ID INTENDED}
 * (see {@link ChatScenario#text}), other text (other runs, people) is ignored.
 *
 * <p><b>Threads.</b> A NON_BLOCKING listener: its events run on the client's selector threads.
 */
final class ChatMember implements WebSocketListener {

    /** Hears the run's deliveries. */
    interface Deliveries {
        /** Message {@code id} of this run reached one member now. */
        void delivered(long id, long nowNanos);
    }

    private final String name;
    private final String ownJoin;
    private final String marker;
    private final Deliveries deliveries;
    private final CountDownLatch joined;
    private volatile Session session;
    private volatile String closed;

    /**
     * @param marker what a message text of this run starts with, as it appears in the room's JSON
     * @param joined counted down once when this member heard its own join
     */
    ChatMember(String name, String marker, Deliveries deliveries, CountDownLatch joined) {
        this.name = name;
        this.ownJoin = "\"type\":\"join\",\"name\":\"" + name + "\"";
        this.marker = "\"text\":\"" + marker;
        this.deliveries = deliveries;
        this.joined = joined;
    }

    String name() {
        return name;
    }

    /** @return the open session, or null when the member has none (not joined, or closed) */
    Session session() {
        Session current = session;
        return current != null && current.isOpen() ? current : null;
    }

    /** @return why the member is not open: how its session closed, or that it never opened */
    String whyClosed() {
        String why = closed;
        return name + (why != null ? " was closed: " + why : " has no open session");
    }

    @Override
    public void onOpen(Session session) {
        this.session = session;
    }

    @Override
    public void onText(String json) {
        int at = json.indexOf(marker);
        if (at >= 0) {
            int start = at + marker.length();
            int space = json.indexOf(' ', start);
            if (space > start) {
                deliveries.delivered(Long.parseLong(json, start, space, 10), System.nanoTime());
            }
        } else if (json.contains(ownJoin)) {
            joined.countDown();
        }
    }

    @Override
    public void onClose(int code, String reason) {
        closed = code + (reason == null || reason.isEmpty() ? "" : " " + reason);
    }

    @Override
    public void onError(Throwable cause) {
        closed = String.valueOf(cause);
    }

    /** Leaves the room (a normal close), if still in it. */
    void leave() {
        Session current = session();
        if (current != null) {
            current.close(CloseStatus.NORMAL, "chat-load done");
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
