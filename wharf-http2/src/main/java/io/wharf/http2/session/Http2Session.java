package io.wharf.http2.session;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameBuffers;
import io.wharf.http2.frames.FrameGenerator;
import io.wharf.http2.frames.FrameParser;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.io.EndPoint;
import io.wharf.util.Callback;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.util.thread.Scheduler;

/**
 * One HTTP/2 connection's protocol state, shared by both roles (RFC 9113): the streams and
 * their states, SETTINGS exchanged and acknowledged (with a timeout for ours), PING answered,
 * GOAWAY with a graceful drain, flow control of the connection and each stream, the limit on
 * concurrent streams, and the budgets that bound what a peer can make us do. Errors become
 * RST_STREAM (a stream's) or GOAWAY then close (the connection's).
 *
 * <pre>
 *   network bytes ─► parse() ─► FrameParser ─► FrameReceiver (HeaderReceiver) ─► Listener.onStream / Http2Stream content
 *   Http2Stream.headers / data / push ─► StreamSender ─► FrameFlusher (IteratingCallback) ─► EndPoint.write
 *   Http2Stream.reset, stream errors, connection errors ─► StreamCloser ─► FrameFlusher
 * </pre>
 *
 * <p>This class is the façade: the public API, the session's life ({@link SessionState}) and
 * the wiring. The protocol state lives in parts that do no I/O, take an event and return a
 * decision, and are unit-tested alone: {@link FlowControl} (the windows of RFC 9113 section
 * 6.9), {@link StreamIds} (identifiers, limits and recently closed streams, section 5.1),
 * {@link SettingsExchange} (SETTINGS both ways, section 6.5) and {@link FloodBudgets} (what
 * a peer may make us do per second). The receiver, sender, closer and flusher act on their
 * decisions.
 *
 * <p><b>Threads.</b> {@link #parse} runs on the connection's reading thread, which is never
 * blocked by the application: every frame, and in particular WINDOW_UPDATE, SETTINGS, PING and
 * RST_STREAM, is handled there at once. The application sends and reads on streams from any
 * thread. One lock guards the session and stream state; it is never held while calling the
 * listeners, callbacks or demand tasks, which run inline when NON_BLOCKING and on the executor
 * otherwise.
 *
 * <p><b>Buffers.</b> The caller of {@link #parse} owns the network buffer; DATA chunks are slices
 * that retain it until read and released (see {@link Http2Stream}). Frame bytes we write are
 * pooled and released after each write by the {@link FrameFlusher}.
 */
public final class Http2Session {

    /** Which side of the connection this session is. */
    public enum Role {
        /** Accepts streams on odd identifiers. */
        SERVER,
        /** Opens streams on odd identifiers; accepts the even ones a server promises, when it enabled push. */
        CLIENT
    }

    /** Told of the streams the peer opens; on the reading thread, without lock. */
    public interface Listener {
        /**
         * The peer opened a stream with a header block (a request, for a server).
         *
         * @param headers the fields; {@link HeaderBlock#tooLarge()} when they passed our limit
         * @param endStream whether the stream carries no content
         */
        void onStream(Http2Stream stream, HeaderBlock headers, boolean endStream);

        /** The connection closed; every stream was reset before. */
        default void onClosed(Throwable cause) {
        }

        /** The peer's SETTINGS arrived and apply from now on (its acknowledgement is queued). */
        default void onSettings(Settings settings) {
        }

        /**
         * The peer's GOAWAY arrived: no new stream may be opened, and the streams we opened
         * above {@code lastStreamId} were already reset with a {@link StreamNotProcessedException}.
         */
        default void onGoAway(int lastStreamId, ErrorCode error) {
        }
    }

    final ReentrantLock lock = new ReentrantLock();
    final Role role;
    private final EndPoint endPoint;
    private final Scheduler scheduler;
    /** Runs the application's code: inline when NON_BLOCKING, else on the executor. */
    final Invoker invoker;
    final SessionConfiguration config;
    final Listener listener;
    final FrameParser parser;
    final HpackDecoder decoder;
    private final FrameReceiver receiver;
    final FrameGenerator generator;
    final HpackEncoder encoder;
    final FrameFlusher flusher;
    final StreamCloser closer = new StreamCloser(this);
    final StreamSender sender = new StreamSender(this);
    // The I/O-free parts of the protocol state: guarded by lock, but the budgets, which are thread-safe.
    final FlowControl flow;
    final StreamIds ids;
    final SettingsExchange settings;
    private final FloodBudgets budgets;
    // Guarded by lock.
    final StreamTable streams = new StreamTable();
    private SessionState state = SessionState.OPEN;
    private Scheduler.Task settingsTimeout;

    /**
     * @param endPoint where the frames are written; reading is the caller's, which hands the bytes to {@link #parse}
     * @param executor runs BLOCKING callbacks and demand tasks
     * @param pool lends the buffers of the frames we write and of frames the parser must copy
     */
    public Http2Session(Role role, EndPoint endPoint, Executor executor, Scheduler scheduler, ByteBufferPool pool,
                        SessionConfiguration config, Listener listener) {
        this.role = Objects.requireNonNull(role, "role");
        this.endPoint = Objects.requireNonNull(endPoint, "endPoint");
        this.invoker = new Invoker(Objects.requireNonNull(executor, "executor"), scheduler);
        this.scheduler = scheduler;
        this.config = Objects.requireNonNull(config, "config");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.flow = new FlowControl(config.getFlowControl(), config.getInitialSessionWindow(), config.getInitialStreamWindow());
        this.ids = new StreamIds(role == Role.SERVER, config.getMaxConcurrentStreams());
        this.settings = new SettingsExchange(role == Role.SERVER, config);
        this.budgets = new FloodBudgets(config);
        // Until the peer acknowledged our SETTINGS it may encode with the default table (RFC 7541 section 4.2).
        int tableBeforeAck = Math.max(config.getMaxHeaderTableSize(), HpackDecoder.DEFAULT_TABLE_CAPACITY);
        this.decoder = new HpackDecoder(tableBeforeAck, config.getMaxHeaderListSize());
        this.receiver = new FrameReceiver(this);
        this.parser = role == Role.SERVER ? FrameParser.server(receiver, decoder, pool) : FrameParser.client(receiver, decoder, pool);
        this.encoder = new HpackEncoder();
        this.generator = new FrameGenerator(encoder);
        // Frame bytes for a socket go in direct buffers: written from heap ones, the JDK copies each
        // into a temporary direct buffer it looks up per write. TLS encrypts from heap ones anyway.
        boolean direct = !(endPoint instanceof io.wharf.io.ssl.SslEndPoint);
        this.flusher = new FrameFlusher(this, generator, new FrameBuffers(pool, direct), config.getMaxControlFrames());
    }

    /** @return which side this session is */
    public Role getRole() {
        return role;
    }

    /** @return the endpoint the frames go to */
    public EndPoint getEndPoint() {
        return endPoint;
    }

    /** @return the configuration */
    public SessionConfiguration getConfiguration() {
        return config;
    }

    /** @return the state now */
    public SessionState getState() {
        lock.lock();
        try {
            return state;
        } finally {
            lock.unlock();
        }
    }

    /** @return the number of streams open now */
    public int getStreamCount() {
        lock.lock();
        try {
            return streams.size();
        } finally {
            lock.unlock();
        }
    }

    /** @return the octets in our HPACK decoder's dynamic table now (at most our SETTINGS_HEADER_TABLE_SIZE); for tests and dumps */
    public int getHeaderTableSize() {
        return decoder.getTableSize();
    }

    /**
     * Starts the session: sends (a client's preface and) our SETTINGS and the connection window's
     * first update, and starts the clock for the SETTINGS acknowledgement.
     */
    public void start() {
        Settings ours = settings.ours();
        int windowIncrement = flow.initialConnectionIncrement();
        lock.lock();
        try {
            flusher.offerControl(out -> {
                if (role == Role.CLIENT) {
                    generator.preface(out);
                }
                generator.settings(out, ours);
                if (windowIncrement > 0) {
                    generator.windowUpdate(out, 0, windowIncrement);
                }
            });
        } finally {
            lock.unlock();
        }
        if (scheduler != null && !config.getSettingsTimeout().isZero()) {
            settingsTimeout = scheduler.schedule(() -> failConnection(ErrorCode.SETTINGS_TIMEOUT,
                    "our SETTINGS were not acknowledged within " + config.getSettingsTimeout().toMillis() + " ms (RFC 9113 section 6.5.3)"),
                    config.getSettingsTimeout().toMillis(), TimeUnit.MILLISECONDS);
        }
        flusher.iterate();
    }

    /**
     * Parses the bytes of {@code network}, on the reading thread. Stream frames this thread
     * sends meanwhile (handlers answering inline) are written together when the parse ends.
     *
     * @return false once the connection failed: later bytes are ignored
     */
    public boolean parse(RetainableByteBuffer network) {
        sender.parseStarted();
        try {
            return parser.parse(network);
        } finally {
            sender.parseEnded();
        }
    }

    /**
     * Closes gracefully: GOAWAY NO_ERROR naming the last stream the peer opened; the streams
     * under way finish, then the connection closes.
     */
    public void shutdown() {
        boolean closeNow;
        lock.lock();
        try {
            if (state != SessionState.OPEN) {
                return;
            }
            state = SessionState.DRAINING;
            int last = ids.lastRemote();
            flusher.offerControl(out -> generator.goAway(out, last, ErrorCode.NO_ERROR, "shutting down"));
            closeNow = streams.isEmpty();
            if (closeNow) {
                flusher.offerLast(out -> { });
            }
        } finally {
            lock.unlock();
        }
        flusher.iterate();
    }

    /**
     * The connection closed (by us or the peer): every stream left is reset and the parser's
     * buffers go back. On the thread that saw the close.
     */
    public void onClose(Throwable cause) {
        StreamCloser.Abandoned left;
        lock.lock();
        try {
            if (state == SessionState.CLOSED) {
                return;
            }
            state = SessionState.CLOSED;
            left = closer.takeAll();
        } finally {
            lock.unlock();
        }
        closer.abandonAll(left, ErrorCode.CANCEL, new IOException("HTTP/2 connection closed", cause));
        flusher.close();
        parser.close();
        listener.onClosed(cause);
    }

    // ---- sending, from any thread ----

    /**
     * Opens a stream of ours (a client's request) with its header block: the identifier is taken
     * and the HEADERS queued under one lock, so that identifiers go out in increasing order
     * (RFC 9113 section 5.1.1). Any thread.
     *
     * @param fields the pseudo-headers then the regular fields
     * @param listener told of the peer's header blocks, trailers, reset and close on the stream
     * @param callback completed once the HEADERS are written, or failed when the session
     *     refuses a new stream (closing, closed, or out of identifiers)
     * @return the stream, or null when refused (the callback was failed)
     */
    public Http2Stream newStream(HttpFields fields, boolean endStream, Http2Stream.Listener listener, Callback callback) {
        return sender.open(fields, endStream, listener, callback);
    }

    /** @return whether a push may be promised now: we are a server, open, and the peer accepts pushes */
    public boolean isPushEnabled() {
        lock.lock();
        try {
            return canPush();
        } finally {
            lock.unlock();
        }
    }

    /**
     * @return whether the peer announced SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 (RFC 8441), so
     *     that extended CONNECT requests may be sent to it; false until its SETTINGS arrived
     */
    public boolean isPeerConnectProtocolEnabled() {
        lock.lock();
        try {
            return settings.peerEnablesConnectProtocol();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Spends one event of {@code flood}; any thread, without the lock.
     * @return false when the peer went over its budget: the connection then failed with ENHANCE_YOUR_CALM
     */
    boolean withinBudget(FloodBudgets.Flood flood) {
        if (budgets.spend(flood)) {
            return true;
        }
        failConnection(ErrorCode.ENHANCE_YOUR_CALM, budgets.exceeded(flood));
        return false;
    }

    /**
     * A connection error: GOAWAY with {@code error}, every stream reset, then the connection closes.
     * Any thread.
     */
    public void failConnection(ErrorCode error, String reason) {
        StreamCloser.Abandoned left;
        lock.lock();
        try {
            if (failed()) {
                return;
            }
            state = SessionState.FAILING;
            int last = ids.lastRemote();
            flusher.offerLast(out -> generator.goAway(out, last, error, reason));
            left = closer.takeAll();
        } finally {
            lock.unlock();
        }
        closer.abandonAll(left, error, new IOException("HTTP/2 connection error " + error + ": " + reason));
        flusher.iterate();
    }

    /**
     * Under the lock: queues the connection's WINDOW_UPDATE that {@link FlowControl} decided.
     * @param increment its increment, 0 for none
     * @return whether one was queued
     */
    boolean windowUpdate(int increment) {
        return increment > 0 && flusher.offerControl(out -> generator.windowUpdate(out, 0, increment));
    }

    /** Stops the clock of our SETTINGS' acknowledgement (it came, or the session ends); any thread. */
    void cancelSettingsTimeout() {
        Scheduler.Task timeout = settingsTimeout;
        if (timeout != null) {
            timeout.cancel();
        }
    }

    /** Under the lock: whether a connection error or the close ended the session: nothing more is read or sent. */
    boolean failed() {
        return state == SessionState.FAILING || state == SessionState.CLOSED;
    }

    /** Under the lock: @return the state now */
    SessionState state() {
        return state;
    }

    /** Under the lock: whether a push may be promised now: we are a server, open, and the peer accepts pushes. */
    boolean canPush() {
        return role == Role.SERVER && state == SessionState.OPEN && settings.peerEnablesPush();
    }

    /** Under the lock: whether a GOAWAY was sent or received and the streams under way finish. */
    boolean isDraining() {
        return state == SessionState.DRAINING;
    }

    /**
     * Under the lock: the peer's GOAWAY arrived. @return false when the session was no longer
     * open; else it drains from now on
     */
    boolean drain() {
        if (state != SessionState.OPEN) {
            return false;
        }
        state = SessionState.DRAINING;
        return true;
    }

    /** Under the lock: a new stream in {@code state}, held; its windows from the settings now. */
    Http2Stream newStream(int id, StreamState state) {
        Http2Stream stream = new Http2Stream(this, id, settings.peerInitialWindow(), flow.streamReceiveWindow(settings.acknowledged()));
        stream.state = state;
        streams.put(stream);
        return stream;
    }

    /** Under the lock: a stream the peer opened (or promised), counted against our limit. */
    Http2Stream openRemote(int id, StreamState state) {
        ids.remoteOpened();
        return newStream(id, state);
    }

    /**
     * A server's start after an HTTP/1.1 {@code Upgrade: h2c} (RFC 7540 section 3.2): the
     * client's {@code HTTP2-Settings} apply as if sent in a SETTINGS frame, and the upgraded
     * request becomes stream 1, half closed (remote). Call after {@link #start()}, before
     * parsing. The caller hands the stream to its handling as if the peer had opened it.
     *
     * @return stream 1
     */
    public Http2Stream upgrade(Settings peerSettings) {
        if (role != Role.SERVER) {
            throw new IllegalStateException("only a server takes an upgraded request");
        }
        Http2Stream stream;
        lock.lock();
        try {
            ids.upgraded();
            receiver.apply(peerSettings);
            stream = newStream(1, StreamState.HALF_CLOSED_REMOTE);
        } finally {
            lock.unlock();
        }
        stream.end();
        return stream;
    }

    @Override
    public String toString() {
        return "Http2Session@" + Integer.toHexString(hashCode()) + "{" + role + ", " + state + ", " + streams.size() + " streams}";
    }
}
