package io.wharf.websocket.endpoint;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.OpCode;
import io.wharf.websocket.core.WebSocketConnection;
import io.wharf.websocket.core.WebSocketEvents;

/**
 * Binds a {@link WebSocketListener} to a {@link WebSocketConnection}: it turns the core's
 * events into listener calls and is the {@link Session} the listener sends through.
 *
 * <p><b>Threads.</b> A NON_BLOCKING (or EITHER) listener is called inline on the connection's
 * reading thread; a BLOCKING one through the connection's executor, never on a selector
 * thread. Either way a message's demand completes only after the listener method returned,
 * so events stay one at a time and in order. A listener that throws fails the session (1011).
 * A streamed message's piece completes its demand when the listener completes its {@code done}.
 *
 * <p><b>Fragmented sends.</b> The kind of message being sent in fragments (none, TEXT or
 * BINARY) is one atomic: a fragment of the other kind, or a whole message, while one is under
 * way fails its callback with {@link IllegalStateException} instead of garbling the stream.
 *
 * <p><b>Buffers.</b> None of its own: payloads are passed through, valid until the listener returns.
 */
public final class ListenerSession implements WebSocketEvents, Session {

    private final WebSocketListener listener;
    private final boolean dispatch;
    /** The opcode of the message being sent in fragments, or 0 when none is. */
    private final AtomicInteger fragmenting = new AtomicInteger();
    private volatile WebSocketConnection connection;
    private final java.util.concurrent.CompletableFuture<Session> opening;

    public ListenerSession(WebSocketListener listener) {
        this(listener, null);
    }

    /**
     * @param opening completed with this session once the listener's {@code onOpen} returned
     *     (on whichever thread ran it), or failed when the session ends before: a client's
     *     connect future, so a BLOCKING listener has its session when the caller gets it; may be null
     */
    public ListenerSession(WebSocketListener listener, java.util.concurrent.CompletableFuture<Session> opening) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.dispatch = listener.invocationType() == InvocationType.BLOCKING;
        this.opening = opening;
    }

    /** Runs {@code event} as the listener's type allows, then completes {@code demand} (or fails it with what it threw). */
    private void call(Runnable event, Callback demand) {
        execute(() -> {
            try {
                event.run();
            } catch (Throwable x) {
                demand.failed(x);
                return;
            }
            demand.succeeded();
        });
    }

    /** Runs a final event (no demand): errors are the listener's own to handle, nothing is left to fail. */
    private void notify(Runnable event) {
        execute(() -> {
            try {
                event.run();
            } catch (Throwable ignored) {
                // The session is over.
            }
        });
    }

    /** Inline for a listener that does not block, on the connection's executor for one that does. */
    private void execute(Runnable task) {
        if (dispatch) {
            connection.getExecutor().execute(task);
        } else {
            task.run();
        }
    }

    @Override
    public void onOpen(WebSocketConnection session, Callback demand) {
        this.connection = session;
        call(() -> {
            listener.onOpen(this);
            if (opening != null) {
                opening.complete(this);
            }
        }, demand);
    }

    @Override
    public void onText(String text, Callback demand) {
        call(() -> listener.onText(text), demand);
    }

    @Override
    public void onBinary(ByteBuffer payload, Callback demand) {
        call(() -> listener.onBinary(payload), demand);
    }

    @Override
    public void onFrame(Frame frame) {
        listener.onFrame(frame);
    }

    @Override
    public boolean isStreamed(byte opcode) {
        return opcode == OpCode.TEXT ? listener.streamsText() : listener.streamsBinary();
    }

    @Override
    public void onPartialText(String fragment, boolean last, Callback demand) {
        Callback done = once(demand);
        execute(() -> {
            try {
                listener.onPartialText(fragment, last, done);
            } catch (Throwable x) {
                done.failed(x);
            }
        });
    }

    @Override
    public void onPartialBinary(ByteBuffer fragment, boolean last, Callback demand) {
        Callback done = once(demand);
        execute(() -> {
            try {
                listener.onPartialBinary(fragment, last, done);
            } catch (Throwable x) {
                done.failed(x);
            }
        });
    }

    /** @return {@code demand}, completed by the first of the listener's calls only (it may throw after completing) */
    private static Callback once(Callback demand) {
        AtomicBoolean completed = new AtomicBoolean();
        return Callback.from(InvocationType.NON_BLOCKING, () -> {
            if (completed.compareAndSet(false, true)) {
                demand.succeeded();
            }
        }, cause -> {
            if (completed.compareAndSet(false, true)) {
                demand.failed(cause);
            }
        });
    }

    @Override
    public void onPing(ByteBuffer payload, Callback demand) {
        call(() -> listener.onPing(payload), demand);
    }

    @Override
    public void onPong(ByteBuffer payload, Callback demand) {
        call(() -> listener.onPong(payload), demand);
    }

    @Override
    public void onError(Throwable cause) {
        notify(() -> listener.onError(cause));
    }

    @Override
    public void onClose(CloseStatus status) {
        if (opening != null) {
            opening.completeExceptionally(new java.io.IOException("the session ended before it opened: " + status.code() + " " + status.reason()));
        }
        notify(() -> listener.onClose(status.code(), status.reason()));
    }

    @Override
    public InvocationType invocationType() {
        return listener.invocationType();
    }

    @Override
    public void sendText(String text, Callback callback) {
        sendWhole(Frame.of(OpCode.TEXT, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8))), callback);
    }

    @Override
    public void sendBinary(ByteBuffer payload, Callback callback) {
        sendWhole(Frame.of(OpCode.BINARY, payload), callback);
    }

    private void sendWhole(Frame frame, Callback callback) {
        int under = fragmenting.get();
        if (under != 0) {
            callback.failed(new IllegalStateException("a " + OpCode.name((byte) under)
                + " message is being sent in fragments: finish it before sending a whole " + OpCode.name(frame.opcode())));
            return;
        }
        connection.send(frame, callback);
    }

    @Override
    public void sendPartialText(String fragment, boolean last, Callback callback) {
        sendFragment(OpCode.TEXT, ByteBuffer.wrap(fragment.getBytes(StandardCharsets.UTF_8)), last, callback);
    }

    @Override
    public void sendPartialBinary(ByteBuffer fragment, boolean last, Callback callback) {
        sendFragment(OpCode.BINARY, fragment, last, callback);
    }

    /** The first fragment carries the message's opcode, the rest CONTINUATION; the last ends it. */
    private void sendFragment(byte opcode, ByteBuffer payload, boolean last, Callback callback) {
        byte frameOpcode;
        if (fragmenting.compareAndSet(0, opcode)) {
            frameOpcode = opcode;
        } else if (fragmenting.get() == opcode) {
            frameOpcode = OpCode.CONTINUATION;
        } else {
            callback.failed(new IllegalStateException("a " + OpCode.name((byte) fragmenting.get())
                + " message is being sent in fragments: a " + OpCode.name(opcode) + " fragment cannot join it"));
            return;
        }
        if (last) {
            fragmenting.set(0);
        }
        connection.send(new Frame(last, 0, frameOpcode, payload), callback);
    }

    @Override
    public void sendPing(ByteBuffer payload, Callback callback) {
        sendControl(OpCode.PING, payload, callback);
    }

    @Override
    public void sendPong(ByteBuffer payload, Callback callback) {
        sendControl(OpCode.PONG, payload, callback);
    }

    private void sendControl(byte opcode, ByteBuffer payload, Callback callback) {
        if (payload.remaining() > 125) {
            callback.failed(new IllegalArgumentException(OpCode.name(opcode) + " payload of " + payload.remaining() + " bytes, above 125"));
            return;
        }
        connection.send(Frame.of(opcode, payload), callback);
    }

    @Override
    public void close(int code, String reason) {
        if (!CloseStatus.isTransmittable(code)) {
            throw new IllegalArgumentException("close status " + code + " may not be sent");
        }
        connection.close(code, reason, Callback.NOOP);
    }

    @Override
    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public String getSubprotocol() {
        return connection.getSubprotocol();
    }

    @Override
    public SocketAddress getRemoteAddress() {
        return connection.getRemoteSocketAddress();
    }

    @Override
    public SocketAddress getLocalAddress() {
        return connection.getLocalSocketAddress();
    }

    @Override
    public String toString() {
        return "ListenerSession@" + Integer.toHexString(hashCode()) + "{" + listener + "," + connection + "}";
    }
}
