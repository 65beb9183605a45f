package io.wharf.websocket.core;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.GracefulConnection;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.util.thread.Scheduler;

/**
 * A WebSocket session over an {@link EndPoint} (RFC 6455), the same for server and client: it
 * reads frames with a {@link FrameParser}, joins messages with a {@link MessageAssembler}
 * (limits, UTF-8), answers pings, runs the close handshake ({@link CloseState}), and tells a
 * {@link WebSocketEvents} what arrived. Frames go out through one {@link FrameFlusher}. Data
 * frames pass through the agreed {@link Extension}s (permessage-deflate): on the way in before
 * the assembler checks limits and UTF-8 on what they produce, on the way out in the flusher.
 *
 * <pre>
 *  selector ─► onFillable ─► Reader.process(): fill ─► parse ─► frame
 *      data ─► assemble ─► events.onText/onBinary(message, demand) ─SCHEDULED─► demand completes ─► next frame
 *      ping ─► pong queued ─► written ─► events.onPing(demand)      close ─► handshake, stop reading
 *  any thread ─► send(frame) ─► FrameFlusher queue ─► one gathering write per step
 * </pre>
 *
 * <p><b>Demand.</b> The reader stops at every event it hands the application and goes on only
 * when the event's demand callback completes, so a slow application slows the peer. The read
 * loop is an {@link IteratingCallback}: a demand completed at once costs no recursion.
 *
 * <p><b>Threads.</b> NON_BLOCKING: reading, parsing and the handshake run on the selector
 * thread or the thread that completed a demand; {@link #send}, {@link #close(int, String,
 * Callback)} and the accessors may be called from any thread. {@link WebSocketEvents#onClose}
 * is called once, from {@link #onClose(Throwable)}.
 *
 * <p><b>Buffers.</b> The read buffer comes from the pool when the selector says bytes are
 * there and goes back when it is empty; it is kept while an event that refers to it (a
 * payload slice) waits for its demand. A fragmented message is gathered in a pooled buffer of
 * the assembler. An idle session holds no buffer. Every buffer is released when the reader
 * completes, fails or is aborted by the endpoint's close.
 */
public final class WebSocketConnection extends AbstractConnection
        implements Connection.UpgradeTo, GracefulConnection {

    private final ByteBufferPool pool;
    private final Scheduler scheduler;
    private final WebSocketConfiguration configuration;
    private final WebSocketEvents events;
    private final String subprotocol;
    private final List<Extension> extensions;
    private final FrameParser parser;
    private final MessageAssembler assembler;
    private final FrameFlusher flusher;
    private final Reader reader = new Reader();
    private final AtomicReference<CloseState> state = new AtomicReference<>(CloseState.OPEN);
    /** The status reported at the end: the peer's close, or ours when we failed the session. */
    private final AtomicReference<CloseStatus> reported = new AtomicReference<>();
    private final AtomicBoolean closeNotified = new AtomicBoolean();
    private volatile Scheduler.Task closeTimer;

    /**
     * A session without extensions.
     *
     * @param client whether this is the client's side (frames sent masked, received unmasked)
     * @param subprotocol the subprotocol agreed in the handshake, or null
     */
    public WebSocketConnection(EndPoint endPoint, Executor executor, Scheduler scheduler, ByteBufferPool pool,
            WebSocketConfiguration configuration, boolean client, String subprotocol, WebSocketEvents events) {
        this(endPoint, executor, scheduler, pool, configuration, client, subprotocol, List.of(), events);
    }

    /**
     * @param client whether this is the client's side (frames sent masked, received unmasked)
     * @param subprotocol the subprotocol agreed in the handshake, or null
     * @param extensions the extensions agreed in the handshake, in the order of the answer;
     *     the connection closes their halves when reading and writing are over
     */
    public WebSocketConnection(EndPoint endPoint, Executor executor, Scheduler scheduler, ByteBufferPool pool,
            WebSocketConfiguration configuration, boolean client, String subprotocol, List<Extension> extensions,
            WebSocketEvents events) {
        super(endPoint, executor);
        this.pool = pool;
        this.scheduler = scheduler;
        this.configuration = configuration;
        this.events = events;
        this.subprotocol = subprotocol;
        this.extensions = List.copyOf(extensions);
        this.parser = new FrameParser(!client, configuration.effectiveFrameLimit());
        this.parser.setAllowedRsv(ExtensionNegotiation.rsvOf(this.extensions));
        this.assembler = new MessageAssembler(pool, configuration.maxTextMessageSize(), configuration.maxBinaryMessageSize(),
            opcode -> events.isStreamed((byte) opcode));
        this.flusher = new FrameFlusher(endPoint, pool, client, configuration.maxQueuedFrames(), this.extensions);
    }

    @Override
    public void onUpgradeTo(RetainableByteBuffer prefilled) {
        if (prefilled == null) {
            return;
        }
        if (prefilled.hasRemaining()) {
            reader.input = prefilled;
        } else {
            prefilled.release();
        }
    }

    @Override
    public void onOpen() {
        super.onOpen();
        getEndPoint().setIdleTimeout(configuration.idleTimeout().toMillis());
        events.onOpen(this, Callback.from(InvocationType.NON_BLOCKING, reader::iterate,
            cause -> fail(CloseStatus.SERVER_ERROR, "the application failed to open: " + cause, cause)));
    }

    @Override
    public void onFillable() {
        reader.iterate();
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        if (state.get() == CloseState.OPEN) {
            close(CloseStatus.GOING_AWAY, "idle timeout", Callback.NOOP);
            return false;
        }
        return true;
    }

    /**
     * The server is stopping: starts the close handshake with 1001 (going away). The connection
     * ends when the peer answers or at the close timeout; a session already closing goes on.
     */
    @Override
    public void shutdown() {
        close(CloseStatus.GOING_AWAY, "server stopping", Callback.NOOP);
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        state.set(CloseState.CLOSED);
        cancelCloseTimer();
        Throwable closed = cause != null ? cause : new ClosedChannelException();
        flusher.fail(closed);
        reader.abort(closed);
        if (closeNotified.compareAndSet(false, true)) {
            CloseStatus status = reported.get();
            if (status == null) {
                if (cause != null) {
                    events.onError(cause);
                }
                status = new CloseStatus(CloseStatus.ABNORMAL, cause == null ? "closed without a close frame" : String.valueOf(cause.getMessage()));
            }
            events.onClose(status);
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    /**
     * Sends one frame (a whole message, a fragment, a ping or pong); {@code callback} completes
     * once it is written, or fails when the session is closing or the outgoing queue is full.
     * The payload must stay untouched until then.
     */
    public void send(Frame frame, Callback callback) {
        if (frame.opcode() == OpCode.CLOSE) {
            throw new IllegalArgumentException("use close(code, reason, callback) to close");
        }
        if (!state.get().canSend()) {
            callback.failed(new ClosedChannelException());
            return;
        }
        flusher.send(frame, callback);
    }

    /**
     * Starts the close handshake: sends a close frame with {@code code} and {@code reason}, then
     * waits for the peer's, at most {@link WebSocketConfiguration#closeTimeout()}. Completes
     * {@code callback} when our close frame is written (at once when already closing).
     */
    public void close(int code, String reason, Callback callback) {
        if (!state.compareAndSet(CloseState.OPEN, CloseState.LOCAL_CLOSE_QUEUED)) {
            callback.succeeded();
            return;
        }
        ByteBuffer payload = new CloseStatus(code, reason).toPayload();
        flusher.send(Frame.of(OpCode.CLOSE, payload), Callback.from(InvocationType.NON_BLOCKING, () -> {
            onLocalCloseWritten();
            callback.succeeded();
        }, cause -> {
            getEndPoint().close(cause);
            callback.failed(cause);
        }));
    }

    private void onLocalCloseWritten() {
        if (state.compareAndSet(CloseState.LOCAL_CLOSE_QUEUED, CloseState.LOCAL_CLOSE_WRITTEN)) {
            long millis = configuration.closeTimeout().toMillis();
            closeTimer = scheduler.schedule(() -> getEndPoint().close(
                new TimeoutException("no close frame from the peer within " + millis + " ms")), millis, TimeUnit.MILLISECONDS);
            if (state.get() == CloseState.CLOSED) {
                cancelCloseTimer();
            }
        } else if (state.compareAndSet(CloseState.LOCAL_CLOSE_ANSWERED, CloseState.CLOSED)) {
            getEndPoint().close();
        }
    }

    /** The peer's close frame arrived: answer it, or finish the handshake we started. */
    private void onRemoteClose(CloseStatus status) {
        reported.compareAndSet(null, status);
        while (true) {
            CloseState current = state.get();
            switch (current) {
                case OPEN -> {
                    if (state.compareAndSet(current, CloseState.REMOTE_CLOSE_RECEIVED)) {
                        ByteBuffer echo = status.code() == CloseStatus.NO_STATUS
                            ? ByteBuffer.allocate(0) : new CloseStatus(status.code(), "").toPayload();
                        flusher.send(Frame.of(OpCode.CLOSE, echo), closeEndPointAfterwards());
                        return;
                    }
                }
                case LOCAL_CLOSE_QUEUED -> {
                    if (state.compareAndSet(current, CloseState.LOCAL_CLOSE_ANSWERED)) {
                        return;
                    }
                }
                case LOCAL_CLOSE_WRITTEN -> {
                    if (state.compareAndSet(current, CloseState.CLOSED)) {
                        cancelCloseTimer();
                        getEndPoint().close();
                        return;
                    }
                }
                default -> {
                    return;
                }
            }
        }
    }

    /**
     * Fails the session: tells the application, sends a close frame with {@code code}, and
     * closes the endpoint once it is written (at once when a handshake was already under way).
     */
    private void fail(int code, String reason, Throwable cause) {
        reported.compareAndSet(null, new CloseStatus(code, reason));
        // Not open any more before the application hears of it, so nothing it does then (a
        // close of its own, from another thread) can go out ahead of this status.
        boolean failing = state.compareAndSet(CloseState.OPEN, CloseState.FAILING);
        if (cause != null) {
            events.onError(cause);
        }
        if (failing) {
            flusher.send(Frame.of(OpCode.CLOSE, new CloseStatus(code, reason).toPayload()), closeEndPointAfterwards());
        } else {
            getEndPoint().close(cause);
        }
    }

    private Callback closeEndPointAfterwards() {
        return Callback.from(InvocationType.NON_BLOCKING, () -> {
            state.set(CloseState.CLOSED);
            getEndPoint().close();
        }, cause -> getEndPoint().close(cause));
    }

    private void cancelCloseTimer() {
        Scheduler.Task timer = closeTimer;
        if (timer != null) {
            timer.cancel();
        }
    }

    /** @return whether application messages may still be sent */
    public boolean isOpen() {
        return state.get() == CloseState.OPEN && getEndPoint().isOpen();
    }

    /** @return the subprotocol agreed in the handshake, or null */
    public String getSubprotocol() {
        return subprotocol;
    }

    /** @return the extensions agreed in the handshake, as answered (empty when none) */
    public List<ExtensionConfig> getExtensions() {
        return extensions.stream().map(Extension::config).toList();
    }

    public SocketAddress getRemoteSocketAddress() {
        return getEndPoint().getRemoteSocketAddress();
    }

    public SocketAddress getLocalSocketAddress() {
        return getEndPoint().getLocalSocketAddress();
    }

    public WebSocketConfiguration getConfiguration() {
        return configuration;
    }

    /** @return how many outgoing frames wait to be written */
    public int getQueuedFrames() {
        return flusher.queued();
    }

    @Override
    public String toString() {
        return "WebSocketConnection@" + Integer.toHexString(hashCode()) + "{" + state.get() + "," + getEndPoint() + "}";
    }

    /**
     * The read loop, one frame per round: each {@link #process()} step reads and parses until a
     * frame needs the application, hands it over with this callback as its demand, and returns
     * SCHEDULED; the demand's completion resumes the loop. IDLE when the network has no bytes
     * (fill interest registered, no buffer held); SUCCEEDED when reading is over (close frame,
     * end of input, protocol error).
     */
    private final class Reader extends IteratingCallback {
        /** The network buffer, held only while it has bytes (or a delivered payload refers to it). */
        private RetainableByteBuffer input;
        /** The last delivered message was gathered by the assembler: release it once delivered. */
        private boolean releaseMessage;
        /** The message the extensions' output completed, while a frame is being decoded. */
        private MessageAssembler.Message decoded;
        /** The characters of a streamed text message, a split one carried between frames. */
        private final Utf8Fragments textFragments = new Utf8Fragments();

        @Override
        protected Action process() throws Exception {
            while (true) {
                if (input == null || !input.hasRemaining()) {
                    if (input == null) {
                        input = pool.acquire(configuration.inputBufferSize(), true);
                    }
                    input.byteBuffer().position(0).limit(0);
                    int filled = getEndPoint().fill(input.byteBuffer());
                    if (filled <= 0) {
                        releaseInput();
                        if (filled == 0) {
                            fillInterested();
                            return Action.IDLE;
                        }
                        getEndPoint().close();
                        return Action.SUCCEEDED;
                    }
                }
                Frame frame;
                try {
                    frame = parser.parse(input.byteBuffer());
                } catch (ProtocolException x) {
                    fail(x.getStatus(), x.getMessage(), x);
                    return Action.SUCCEEDED;
                }
                if (frame != null) {
                    events.onFrame(frame);
                    Action action = onFrame(frame);
                    if (action != null) {
                        return action;
                    }
                }
            }
        }

        /** @return what the step did, or null to read on */
        private Action onFrame(Frame frame) {
            switch (frame.opcode()) {
                case OpCode.CLOSE -> {
                    CloseStatus status;
                    try {
                        status = CloseStatus.parse(frame.payload());
                    } catch (ProtocolException x) {
                        fail(x.getStatus(), x.getMessage(), x);
                        return Action.SUCCEEDED;
                    }
                    onRemoteClose(status);
                    return Action.SUCCEEDED;
                }
                case OpCode.PING -> {
                    if (state.get() != CloseState.OPEN) {
                        return null;
                    }
                    ByteBuffer copy = ByteBuffer.allocate(frame.payload().remaining()).put(frame.payload().duplicate()).flip();
                    flusher.send(Frame.of(OpCode.PONG, copy), Callback.from(InvocationType.NON_BLOCKING,
                        () -> events.onPing(copy.duplicate(), this), this::failed));
                    return Action.SCHEDULED;
                }
                case OpCode.PONG -> {
                    events.onPong(frame.payload(), this);
                    return Action.SCHEDULED;
                }
                default -> {
                    return onData(frame);
                }
            }
        }

        private Action onData(Frame frame) {
            if (state.get() != CloseState.OPEN) {
                return null;
            }
            MessageAssembler.Message message;
            try {
                message = extensions.isEmpty() ? assembler.accept(frame) : decode(frame);
            } catch (ProtocolException x) {
                fail(x.getStatus(), x.getMessage(), x);
                return Action.SUCCEEDED;
            }
            if (message == null) {
                return null;
            }
            if (message.streamed()) {
                return onFragment(message);
            }
            if (message.opcode() == OpCode.TEXT) {
                String text = StandardCharsets.UTF_8.decode(message.payload()).toString();
                assembler.release();
                events.onText(text, this);
            } else {
                releaseMessage = true;
                events.onBinary(message.payload(), this);
            }
            return Action.SCHEDULED;
        }

        /** Hands one fragment of a streamed message on; a text fragment's bytes are decoded (and let go) at once. */
        private Action onFragment(MessageAssembler.Message fragment) {
            releaseMessage = true;
            if (fragment.opcode() == OpCode.TEXT) {
                String text = textFragments.decode(fragment.payload(), fragment.last());
                events.onPartialText(text, fragment.last(), this);
            } else {
                events.onPartialBinary(fragment.payload(), fragment.last(), this);
            }
            return Action.SCHEDULED;
        }

        /** Passes a data frame through the extensions, the last agreed first, into the assembler. */
        private MessageAssembler.Message decode(Frame frame) {
            decoded = null;
            decode(frame, extensions.size() - 1);
            MessageAssembler.Message message = decoded;
            decoded = null;
            return message;
        }

        private void decode(Frame frame, int index) {
            if (index < 0) {
                MessageAssembler.Message message = assembler.acceptCopy(frame);
                if (message != null) {
                    decoded = message;
                }
                return;
            }
            extensions.get(index).decode(frame, output -> decode(output, index - 1));
        }

        @Override
        protected void onSuccess() {
            if (releaseMessage) {
                releaseMessage = false;
                assembler.release();
            }
        }

        @Override
        protected void onCompleteSuccess() {
            releaseAll();
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            releaseAll();
            // A read that failed because this side closed the endpoint (the close timeout, the
            // idle timeout) is that close's doing, and onClose reports it with its own cause.
            if (state.get() != CloseState.CLOSED && getEndPoint().isOpen()) {
                fail(CloseStatus.SERVER_ERROR, "failed to read: " + cause, cause);
            }
        }

        private void releaseAll() {
            releaseInput();
            assembler.release();
            for (Extension extension : extensions) {
                extension.closeIncoming();
            }
        }

        private void releaseInput() {
            if (input != null) {
                input.release();
                input = null;
            }
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
