package io.wharf.websocket.internal;

import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.time.Duration;

import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.api.annotations.WebSocket;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.WebSocketConfiguration;

/**
 * An {@link WebSocket}-annotated endpoint as a {@link WebSocketListener}: each event calls the
 * endpoint's method for it through the handles of its {@link EndpointMethods}. A message type
 * with a {@code Reader} or {@code InputStream} method is streamed: the first frame's event
 * starts the method on its (blocking) thread with a stream over {@link StreamedPieces}, and
 * the frames that follow are handed to it as they arrive.
 *
 * <p><b>Threads.</b> BLOCKING: the session calls it through its executor, never on a selector
 * thread, one event at a time, so the methods may block. Only {@link #onFrame} runs inline on
 * the reading thread (see {@code @OnWebSocketFrame}). <b>Buffers.</b> None of its own; a
 * {@code byte[]} method gets a copy of the message, the others the session's buffers.
 */
public final class AnnotatedListener implements WebSocketListener {

    private final Object endpoint;
    private final EndpointMethods methods;
    private volatile Session session;
    /** The streamed message under way, text or binary (one at a time), or null. */
    private volatile StreamedPieces<?> streaming;

    /** @throws IllegalArgumentException when the endpoint's class has no {@link WebSocket} or a bad method */
    public AnnotatedListener(Object endpoint) {
        this.endpoint = endpoint;
        this.methods = EndpointMethods.of(endpoint.getClass());
    }

    /** Checks the class's methods once, ahead of its first session. */
    public static void check(Class<?> type) {
        EndpointMethods.of(type);
    }

    @Override
    public WebSocketConfiguration configure(WebSocketConfiguration configuration) {
        WebSocket settings = methods.settings();
        int text = settings.maxTextMessageSize() > 0 ? settings.maxTextMessageSize() : configuration.maxTextMessageSize();
        int binary = settings.maxBinaryMessageSize() > 0 ? settings.maxBinaryMessageSize() : configuration.maxBinaryMessageSize();
        Duration idle = settings.idleTimeout() > 0 ? Duration.ofMillis(settings.idleTimeout()) : configuration.idleTimeout();
        // A streamed message may be larger than a frame: its frames stay within the frame limit.
        return configuration.withLimits(configuration.maxFrameSize(), text, binary).withTimeouts(idle, configuration.closeTimeout());
    }

    @Override
    public void onOpen(Session session) {
        this.session = session;
        call(methods.open(), handle -> { handle.invokeExact(endpoint, session); });
    }

    @Override
    public void onText(String text) {
        if (methods.text() == null) {
            refuse("text");
            return;
        }
        call(methods.text(), handle -> { handle.invokeExact(endpoint, session, text); });
    }

    @Override
    public void onBinary(ByteBuffer payload) {
        if (methods.buffer() != null) {
            call(methods.buffer(), handle -> { handle.invokeExact(endpoint, session, payload); });
        } else if (methods.bytes() != null) {
            byte[] copy = new byte[payload.remaining()];
            payload.get(copy);
            call(methods.bytes(), handle -> { handle.invokeExact(endpoint, session, copy, 0, copy.length); });
        } else {
            refuse("binary");
        }
    }

    /** A message of a kind the endpoint has no method for: 1003 (RFC 6455 section 7.4.1). */
    private void refuse(String kind) {
        session.close(CloseStatus.UNSUPPORTED_DATA, endpoint.getClass().getSimpleName() + " takes no " + kind + " messages");
    }

    @Override
    public boolean streamsText() {
        return methods.textStream() != null;
    }

    @Override
    public boolean streamsBinary() {
        return methods.binaryStream() != null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onPartialText(String fragment, boolean last, Callback done) {
        StreamedPieces<CharBuffer> pieces = (StreamedPieces<CharBuffer>) streaming;
        if (pieces == null) {
            StreamedPieces<CharBuffer> started = new StreamedPieces<>();
            started.offer(CharBuffer.wrap(fragment), last, done);
            MessageReader reader = new MessageReader(started);
            consume(started, handle -> { handle.invokeExact(endpoint, session, (java.io.Reader) reader); }, methods.textStream(), last);
        } else {
            offer(pieces, CharBuffer.wrap(fragment), last, done);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onPartialBinary(ByteBuffer fragment, boolean last, Callback done) {
        StreamedPieces<ByteBuffer> pieces = (StreamedPieces<ByteBuffer>) streaming;
        if (pieces == null) {
            StreamedPieces<ByteBuffer> started = new StreamedPieces<>();
            started.offer(fragment, last, done);
            MessageInputStream input = new MessageInputStream(started);
            consume(started, handle -> { handle.invokeExact(endpoint, session, (java.io.InputStream) input); }, methods.binaryStream(), last);
        } else {
            offer(pieces, fragment, last, done);
        }
    }

    private <B extends java.nio.Buffer> void offer(StreamedPieces<B> pieces, B piece, boolean last, Callback done) {
        if (last) {
            streaming = null;
        }
        pieces.offer(piece, last, done);
    }

    /**
     * Runs the stream method here, on this blocking thread, while the following frames are
     * offered from the session's other threads; its return ends the message (what it left
     * unread is dropped) and lets the next message come. What it throws while the session is
     * open goes to the error method, and the session closes with 1011.
     */
    private <B extends java.nio.Buffer> void consume(StreamedPieces<B> pieces, Invocation invocation, MethodHandle handle, boolean last) {
        if (!last) {
            streaming = pieces;
        }
        Throwable failure = null;
        try {
            call(handle, invocation);
        } catch (Throwable x) {
            failure = x;
        } finally {
            // The message stays under way (streaming) until its last frame came, read or dropped.
            pieces.finish();
        }
        // A method that failed because the session did (its read threw) adds nothing to the session's own error.
        if (failure != null && session.isOpen()) {
            Throwable cause = failure;
            try {
                call(methods.error(), error -> { error.invokeExact(endpoint, session, cause); });
            } finally {
                session.close(CloseStatus.SERVER_ERROR, "the endpoint failed to read a message");
            }
        }
    }

    @Override
    public void onFrame(Frame frame) {
        call(methods.frame(), handle -> { handle.invokeExact(endpoint, session, frame); });
    }

    @Override
    public void onClose(int code, String reason) {
        failStream(new java.nio.channels.ClosedChannelException());
        call(methods.close(), handle -> { handle.invokeExact(endpoint, session, code, reason); });
    }

    @Override
    public void onError(Throwable cause) {
        failStream(cause);
        call(methods.error(), handle -> { handle.invokeExact(endpoint, session, cause); });
    }

    private void failStream(Throwable cause) {
        StreamedPieces<?> pieces = streaming;
        if (pieces != null) {
            pieces.fail(cause);
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.BLOCKING;
    }

    /** One call of an endpoint method through its handle (a statement: invokeExact's type ends in void). */
    @FunctionalInterface
    private interface Invocation {
        void invoke(MethodHandle handle) throws Throwable;
    }

    /** Calls the method when there is one; what it throws is the session's failure (1011), not the caller's. */
    private void call(MethodHandle handle, Invocation invocation) {
        if (handle == null) {
            return;
        }
        try {
            invocation.invoke(handle);
        } catch (RuntimeException | Error x) {
            throw x;
        } catch (Throwable x) {
            throw new IllegalStateException(endpoint.getClass().getName() + " threw " + x, x);
        }
    }

    /** @return the endpoint object */
    public Object endpoint() {
        return endpoint;
    }

    @Override
    public String toString() {
        return "AnnotatedListener{" + endpoint.getClass().getName() + "}";
    }
}
