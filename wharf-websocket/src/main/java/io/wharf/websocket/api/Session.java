package io.wharf.websocket.api;

import java.io.OutputStream;
import java.io.Writer;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import io.wharf.util.Callback;

/**
 * One open WebSocket session as the application sees it: send messages and control frames,
 * close, and ask about the connection. Given to {@link WebSocketListener#onOpen(Session)}.
 *
 * <p><b>Threads.</b> Every method may be called from any thread, also from inside the
 * listener's callbacks. Sends queue behind each other and go out whole and in order, never
 * interleaved. A send's callback (or future) completes once its frame was written, on the
 * thread that wrote it — often a selector thread — so it must not block.
 *
 * <p><b>Back-pressure.</b> The outgoing queue is bounded (see
 * {@code WebSocketConfiguration.maxQueuedFrames}): a send that finds it full fails with
 * {@code WebSocketQueueFullException}. Wait for a send to complete before the next when the
 * peer may be slower than you.
 *
 * <p><b>Buffers.</b> A payload buffer given to a send is read, not copied: leave it untouched
 * until the send completes.
 */
public interface Session {

    /** Sends a whole text message. */
    void sendText(String text, Callback callback);

    /** Sends a whole binary message, from the buffer's position to its limit. */
    void sendBinary(ByteBuffer payload, Callback callback);

    /**
     * Sends one fragment of a text message: the first call starts a message, the one with
     * {@code last} ends it. Until then no whole message and no binary fragment may be sent
     * (their callbacks fail with {@link IllegalStateException}); control frames may.
     * {@code fragment} must not end between the two halves of a surrogate pair.
     */
    void sendPartialText(String fragment, boolean last, Callback callback);

    /** Sends one fragment of a binary message, as {@link #sendPartialText} does text. */
    void sendPartialBinary(ByteBuffer fragment, boolean last, Callback callback);

    /**
     * @return a stream that sends one binary message as it is written: each buffer-full (and
     *     each {@code flush()}) goes out as a fragment, {@code close()} sends the last one. Its
     *     methods block until their fragment was written: call it on a thread that may block.
     */
    default OutputStream sendBinaryStream() {
        return new MessageOutputStream(this, MessageOutputStream.DEFAULT_FRAGMENT);
    }

    /**
     * @return a writer that sends one text message as it is written, as
     *     {@link #sendBinaryStream()} does: block it may, so not on a selector thread
     */
    default Writer sendTextWriter() {
        return new MessageWriter(this, MessageOutputStream.DEFAULT_FRAGMENT);
    }

    /** Sends a ping (at most 125 bytes). */
    void sendPing(ByteBuffer payload, Callback callback);

    /** Sends an unsolicited pong (at most 125 bytes); pings are answered without asking. */
    void sendPong(ByteBuffer payload, Callback callback);

    /** @return a future completed when the text message was written */
    default CompletableFuture<Void> sendText(String text) {
        return future(done -> sendText(text, done));
    }

    /** @return a future completed when the binary message was written */
    default CompletableFuture<Void> sendBinary(ByteBuffer payload) {
        return future(done -> sendBinary(payload, done));
    }

    /** @return a future completed when the text fragment was written, see {@link #sendPartialText(String, boolean, Callback)} */
    default CompletableFuture<Void> sendPartialText(String fragment, boolean last) {
        return future(done -> sendPartialText(fragment, last, done));
    }

    /** @return a future completed when the binary fragment was written */
    default CompletableFuture<Void> sendPartialBinary(ByteBuffer fragment, boolean last) {
        return future(done -> sendPartialBinary(fragment, last, done));
    }

    /** @return a future completed when the ping was written */
    default CompletableFuture<Void> sendPing(ByteBuffer payload) {
        return future(done -> sendPing(payload, done));
    }

    /** @return a future completed when the pong was written */
    default CompletableFuture<Void> sendPong(ByteBuffer payload) {
        return future(done -> sendPong(payload, done));
    }

    private static CompletableFuture<Void> future(java.util.function.Consumer<Callback> send) {
        Callback.Completable done = new Callback.Completable();
        send.accept(done);
        return done;
    }

    /**
     * Starts the close handshake with {@code code} (1000, 1001, 1003, 1007-1014 or 3000-4999)
     * and {@code reason} (cut to fit 123 UTF-8 bytes); the session ends when the peer answers,
     * or after the close timeout. Calling it again does nothing.
     *
     * @throws IllegalArgumentException for a code that may not be sent
     */
    void close(int code, String reason);

    /** @return whether messages may be sent: open and not closing */
    boolean isOpen();

    /** @return the subprotocol agreed in the handshake, or null when none */
    String getSubprotocol();

    /** @return the peer's address */
    SocketAddress getRemoteAddress();

    /** @return our address */
    SocketAddress getLocalAddress();
}
