package io.wharf.websocket.api;

import java.nio.ByteBuffer;

import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;

/**
 * The application's side of a WebSocket session, in the simplest style: one method per event,
 * each message whole. Every method has an empty default; override what you need.
 *
 * <pre>{@code
 * WebSocketListener echo = new WebSocketListener() {
 *     private Session session;
 *     public void onOpen(Session session) { this.session = session; }
 *     public void onText(String text) { session.sendText(text, Callback.NOOP); }
 * };
 * }</pre>
 *
 * <p><b>Order and demand.</b> Events come one at a time, in order: the next frame is not even
 * read before the method handling the current one has returned, so a slow listener holds the
 * peer back (through TCP) instead of piling messages up in memory.
 *
 * <p><b>Threads.</b> A listener is {@link InvocationType#NON_BLOCKING} unless it overrides
 * {@link #invocationType()}: its methods then run on the thread that read the frame, often a
 * selector thread, and must never block (no I/O, no locks held long, no waiting on a send's
 * future). A listener that returns {@link InvocationType#BLOCKING} is never called on a
 * selector thread: each event is handed to the server's executor (virtual threads where
 * configured) and may block there, still one event at a time.
 *
 * <p><b>Buffers.</b> The {@link ByteBuffer} given to {@link #onBinary}, {@link #onPing} and
 * {@link #onPong} is valid only until the method returns: copy what you keep.
 */
public interface WebSocketListener extends Invocable {

    /** The session opened; keep {@code session} to send. */
    default void onOpen(Session session) {
    }

    /** A whole text message arrived. */
    default void onText(String text) {
    }

    /** A whole binary message arrived; {@code payload} is valid until this returns. */
    default void onBinary(ByteBuffer payload) {
    }

    /** A ping arrived; the pong was already sent. */
    default void onPing(ByteBuffer payload) {
    }

    /** A pong arrived. */
    default void onPong(ByteBuffer payload) {
    }

    /**
     * The session ended, once: after a close handshake with the peer's status; with ours (1002,
     * 1007, 1009...) when it failed; 1006 when the connection dropped without a close frame.
     */
    default void onClose(int code, String reason) {
    }

    /** Something failed (a protocol error, a limit, I/O, an exception thrown by this listener); {@link #onClose} follows. */
    default void onError(Throwable cause) {
    }

    @Override
    default InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
