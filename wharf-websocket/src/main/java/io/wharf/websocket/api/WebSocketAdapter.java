package io.wharf.websocket.api;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import io.wharf.util.InvocationType;

/**
 * A {@link WebSocketListener} to extend, which keeps its {@link Session} and sends through it:
 * blocking ({@link #sendText(String)}, {@link #sendBinary(ByteBuffer)}, which return once the
 * message was written and throw an {@link IOException} naming what failed) or asynchronous
 * ({@link #sendTextAsync}, {@link #sendBinaryAsync}, which return a future).
 *
 * <pre>{@code
 * class Echo extends WebSocketAdapter {
 *     public void onText(String text) {
 *         try { sendText(text); } catch (IOException x) { getSession().close(1011, "echo failed"); }
 *     }
 * }
 * }</pre>
 *
 * <p><b>Threads.</b> {@link InvocationType#BLOCKING} unless a subclass says otherwise: its
 * events run on the executor, never on a selector thread, so the blocking sends may be used
 * from them. A subclass that returns NON_BLOCKING must use only the asynchronous sends.
 * A subclass that overrides {@link #onOpen} calls {@code super.onOpen(session)}.
 */
public abstract class WebSocketAdapter implements WebSocketListener {

    private volatile Session session;

    @Override
    public void onOpen(Session session) {
        this.session = session;
    }

    /** @return the session, or null before it opened */
    public Session getSession() {
        return session;
    }

    /** @return whether the session is open and not closing */
    public boolean isConnected() {
        Session current = session;
        return current != null && current.isOpen();
    }

    /**
     * Sends a text message and waits until it was written.
     *
     * @throws IOException when it could not be sent (the session closed, the queue was full),
     *     with the cause; an {@link java.io.InterruptedIOException} when interrupted
     */
    public void sendText(String text) throws IOException {
        Session current = connected();
        BlockingSend.await(current, "text message of " + text.length() + " chars", done -> current.sendText(text, done));
    }

    /** Sends a binary message (position to limit) and waits until it was written; fails as {@link #sendText(String)}. */
    public void sendBinary(ByteBuffer payload) throws IOException {
        Session current = connected();
        BlockingSend.await(current, "binary message of " + payload.remaining() + " bytes", done -> current.sendBinary(payload, done));
    }

    /** @return a future completed once the text message was written */
    public CompletableFuture<Void> sendTextAsync(String text) {
        Session current = session;
        return current == null ? notOpen() : current.sendText(text);
    }

    /** @return a future completed once the binary message was written; leave the payload untouched until then */
    public CompletableFuture<Void> sendBinaryAsync(ByteBuffer payload) {
        Session current = session;
        return current == null ? notOpen() : current.sendBinary(payload);
    }

    private Session connected() throws IOException {
        Session current = session;
        if (current == null) {
            throw new IOException("cannot send: the session has not opened yet");
        }
        return current;
    }

    private static CompletableFuture<Void> notOpen() {
        return CompletableFuture.failedFuture(new IOException("cannot send: the session has not opened yet"));
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.BLOCKING;
    }
}
