package io.wharf.websocket.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

import io.wharf.websocket.api.WebSocketListener;

/**
 * Test endpoint for a client: tells {@code events} what its session hears, as
 * {@code text:TEXT}, {@code binary:HASH:LENGTH}, {@code pong:PAYLOAD} and {@code close:CODE:REASON}.
 */
public final class RecordingListener implements WebSocketListener {

    private final Consumer<String> events;

    public RecordingListener(Consumer<String> events) {
        this.events = events;
    }

    @Override
    public void onText(String text) {
        events.accept("text:" + text);
    }

    @Override
    public void onBinary(ByteBuffer payload) {
        byte[] bytes = new byte[payload.remaining()];
        payload.get(bytes);
        events.accept("binary:" + Arrays.hashCode(bytes) + ":" + bytes.length);
    }

    @Override
    public void onPong(ByteBuffer payload) {
        events.accept("pong:" + StandardCharsets.UTF_8.decode(payload));
    }

    @Override
    public void onClose(int code, String reason) {
        events.accept("close:" + code + ":" + reason);
    }
}
