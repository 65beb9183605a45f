package io.wharf.websocket.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import io.wharf.util.Callback;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;

/**
 * Test endpoint for a server: echoes text and binary messages; the text {@code close-me:N}
 * makes it close with code N and reason "server closes". Tells {@code events} of each ping
 * ({@code ping:PAYLOAD}) and of the close ({@code close:CODE:REASON}, or {@code close:CODE}
 * when made to leave the reason out).
 */
public final class CloseOnRequestEcho implements WebSocketListener {

    private final Consumer<String> events;
    private final boolean withReason;
    private Session session;

    /** Records closes with their reason. */
    public CloseOnRequestEcho(Consumer<String> events) {
        this(events, true);
    }

    public CloseOnRequestEcho(Consumer<String> events, boolean withReason) {
        this.events = events;
        this.withReason = withReason;
    }

    @Override
    public void onOpen(Session session) {
        this.session = session;
    }

    @Override
    public void onText(String text) {
        if (text.startsWith("close-me:")) {
            session.close(Integer.parseInt(text.substring(9)), "server closes");
            return;
        }
        session.sendText(text, Callback.NOOP);
    }

    @Override
    public void onBinary(ByteBuffer payload) {
        session.sendBinary(ByteBuffer.allocate(payload.remaining()).put(payload).flip(), Callback.NOOP);
    }

    @Override
    public void onPing(ByteBuffer payload) {
        events.accept("ping:" + StandardCharsets.UTF_8.decode(payload));
    }

    @Override
    public void onClose(int code, String reason) {
        events.accept("close:" + code + (withReason ? ":" + reason : ""));
    }
}
