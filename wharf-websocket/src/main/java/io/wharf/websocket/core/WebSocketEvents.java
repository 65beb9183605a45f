package io.wharf.websocket.core;

import java.nio.ByteBuffer;

import io.wharf.util.Callback;
import io.wharf.util.Invocable;

/**
 * What a {@link WebSocketConnection} tells the application side (a listener adapter, later the
 * annotated endpoints): the session opened, a whole message or a control frame arrived, the
 * session closed or failed. Messages come whole unless {@link #isStreamed} asks for them frame
 * by frame.
 *
 * <p><b>Demand.</b> Every event that carries a {@code demand} callback holds reading back: the
 * connection reads no further frame until {@code demand} completes, so a slow application slows
 * the peer through TCP. Complete it exactly once, from any thread; failing it fails the session.
 *
 * <p><b>Threads.</b> Called on the connection's reading thread, often a selector thread: an
 * implementation must not block there. One that runs blocking code hands the event to an
 * executor and completes {@code demand} from there. {@link #onClose} is called once, on the
 * thread that closed the endpoint.
 *
 * <p><b>Buffers.</b> A binary or control payload is valid only until {@code demand} completes:
 * it may be a slice of the network buffer or of a pooled message buffer that is then reused.
 */
public interface WebSocketEvents extends Invocable {

    /** The session is open: {@code session} may send from now on. */
    void onOpen(WebSocketConnection session, Callback demand);

    /** A whole text message (its fragments joined, validated as UTF-8). */
    void onText(String text, Callback demand);

    /** A whole binary message; the payload is valid until {@code demand} completes. */
    void onBinary(ByteBuffer payload, Callback demand);

    /**
     * Every frame as parsed, before extensions and message events, for those who watch the
     * wire; called inline on the reading thread (must not block), the payload valid only
     * during the call. What it throws fails the session (1011).
     */
    default void onFrame(Frame frame) {
    }

    /**
     * @param opcode {@link OpCode#TEXT} or {@link OpCode#BINARY}
     * @return whether messages of this kind are streamed: handed on frame by frame to
     *     {@link #onPartialText} or {@link #onPartialBinary} as they arrive, never gathered
     *     whole (asked at the first frame of each message)
     */
    default boolean isStreamed(byte opcode) {
        return false;
    }

    /**
     * A piece of a streamed text message, whole characters (one split between frames is
     * carried to the next piece); limits and UTF-8 are checked over the whole message.
     *
     * @param last whether it ends the message
     */
    default void onPartialText(String fragment, boolean last, Callback demand) {
        demand.failed(new UnsupportedOperationException("streamed text not handled by " + this));
    }

    /**
     * A piece of a streamed binary message, valid until {@code demand} completes.
     *
     * @param last whether it ends the message
     */
    default void onPartialBinary(ByteBuffer fragment, boolean last, Callback demand) {
        demand.failed(new UnsupportedOperationException("streamed binary not handled by " + this));
    }

    /** A ping arrived; the pong answering it was already written. */
    void onPing(ByteBuffer payload, Callback demand);

    /** A pong arrived, solicited or not. */
    void onPong(ByteBuffer payload, Callback demand);

    /** The session failed: a protocol error, a limit, an I/O error. {@link #onClose} follows. */
    void onError(Throwable cause);

    /**
     * The session is over, once: with the peer's status after a close handshake, ours after we
     * failed the session, or {@link CloseStatus#ABNORMAL} when the connection dropped without one.
     */
    void onClose(CloseStatus status);
}
