package io.wharf.websocket.api;

import java.nio.ByteBuffer;

import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.WebSocketConfiguration;

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
 * <p><b>Streamed messages.</b> A listener whose {@link #streamsText()} or
 * {@link #streamsBinary()} is true gets such messages frame by frame, as they arrive, in
 * {@link #onPartialText} or {@link #onPartialBinary} instead of whole: a message of any size
 * then costs one frame of memory. Each piece carries a {@code done} callback: the next frame
 * is read only once it completes (from any thread), so the listener may hand the piece to
 * another thread and complete it there. The message limits and UTF-8 checks still apply to
 * the whole message.
 *
 * <p><b>Buffers.</b> The {@link ByteBuffer} given to {@link #onBinary}, {@link #onPing} and
 * {@link #onPong} is valid only until the method returns, the one given to
 * {@link #onPartialBinary} until {@code done} completes: copy what you keep.
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

    /** @return whether text messages come frame by frame to {@link #onPartialText} instead of whole to {@link #onText} */
    default boolean streamsText() {
        return false;
    }

    /** @return whether binary messages come frame by frame to {@link #onPartialBinary} instead of whole to {@link #onBinary} */
    default boolean streamsBinary() {
        return false;
    }

    /**
     * A piece of a streamed text message (whole characters) arrived; complete {@code done}
     * once it is used, and the next is read. Failing {@code done} fails the session (1011).
     *
     * @param last whether it ends the message
     */
    default void onPartialText(String fragment, boolean last, Callback done) {
        done.failed(new UnsupportedOperationException("streamsText() without onPartialText in " + this));
    }

    /**
     * A piece of a streamed binary message arrived, valid until {@code done} completes.
     *
     * @param last whether it ends the message
     */
    default void onPartialBinary(ByteBuffer fragment, boolean last, Callback done) {
        done.failed(new UnsupportedOperationException("streamsBinary() without onPartialBinary in " + this));
    }

    /**
     * Lets the listener set its own session's limits and idle timeout, before the session
     * starts; called once by the server's upgrade or the client's connect.
     *
     * @param configuration what the upgrade handler or client would use
     * @return the configuration of this listener's session
     */
    default WebSocketConfiguration configure(WebSocketConfiguration configuration) {
        return configuration;
    }

    /**
     * Every frame as read, before extensions and the message events: for watching the wire.
     * Called inline on the reading thread whatever {@link #invocationType()} says, so it must
     * not block; the payload is valid only during the call.
     */
    default void onFrame(Frame frame) {
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
