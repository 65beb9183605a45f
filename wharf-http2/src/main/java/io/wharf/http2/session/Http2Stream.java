package io.wharf.http2.session;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Objects;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.io.Content;
import io.wharf.util.Callback;

/**
 * One HTTP/2 stream of an {@link Http2Session}: its {@link StreamState}, its two flow-control
 * windows, the content that arrived for it (read as a {@link Content.Source}), and the calls
 * that send on it ({@link #headers}, {@link #data}, {@link #reset}). Role-neutral: a server
 * stream answers a request, a client stream ({@link Http2Session#newStream}) carries one.
 *
 * <p><b>Threads.</b> The session's reading thread adds content and tells the {@link Listener};
 * the application reads, demands and sends from any thread, one reader at a time. Every field
 * below is guarded by the session's lock, which is never held while calling out.
 *
 * <p><b>Buffers.</b> Queued content chunks are slices of network buffers the session's parser
 * handed out; whoever {@link #read()}s a chunk owns it and releases it. Chunks left unread when
 * the stream closes are released by the stream. A buffer given to {@link #data} belongs to the
 * caller again once its callback completed.
 */
public final class Http2Stream extends FlowWindow implements Content.Source {

    /**
     * What happens to a stream beyond its content; told on the session's reading thread,
     * without lock, and must not block.
     */
    public interface Listener {
        /**
         * The peer's header block that answers a stream we opened (a response's head): first any
         * interim (1xx) blocks, then the final one; {@code endStream} when no content follows.
         */
        default void onHeaders(Http2Stream stream, HeaderBlock headers, boolean endStream) {
        }

        /** The peer's trailer fields arrived; the content ends with them. */
        default void onTrailers(Http2Stream stream, HeaderBlock trailers) {
        }

        /**
         * The server promised a push on this stream (a client's, which enabled push):
         * {@code pushed} is reserved for the response to {@code request}, whose pseudo-headers
         * and fields the promise carries. Set a listener on {@code pushed} to take the response,
         * or {@link Http2Stream#refuse() refuse} it; by default it is refused.
         */
        default void onPush(Http2Stream stream, Http2Stream pushed, HeaderBlock request) {
            pushed.refuse();
        }

        /** The stream was reset by the peer or by the session (its connection failed or closed). */
        default void onReset(Http2Stream stream, ErrorCode error, Throwable cause) {
        }

        /** The stream is closed and forgotten by the session. */
        default void onClosed(Http2Stream stream) {
        }
    }

    private final Http2Session session;
    private final int id;
    // Guarded by the session's lock.
    StreamState state = StreamState.IDLE;
    boolean headersSent;
    /** For a stream we promised: whether its PUSH_PROMISE is written, before which nothing of it may go. */
    boolean promiseSent;
    /** On a stream we opened: whether the peer's final (non-1xx) header block arrived. */
    boolean headersReceived;
    /**
     * On a stream we opened or the peer promised: whether its request is a HEAD, whose response
     * has no content whatever its {@code content-length} says (RFC 9110 section 8.6).
     */
    boolean headRequest;
    /** The content length the request or response announced, -1 when none. */
    long expectedLength = -1;
    long receivedLength;
    Listener listener;
    /** Content not read yet; made when the first chunk is queued (most requests have none). */
    private ArrayDeque<Content.Chunk> chunks;
    private Runnable demand;
    private Throwable failure;
    private boolean ended;
    /** Content that arrived after the reader failed it: dropped, and credited back at once. */
    long dropped;

    /**
     * @param send the stream's send window: the peer's initial window
     * @param receive its receive window: ours, as {@link FlowControl#streamReceiveWindow} gives it
     */
    Http2Stream(Http2Session session, int id, long send, int receive) {
        super(send, receive);
        this.session = session;
        this.id = id;
    }

    /** @return the stream identifier */
    public int getId() {
        return id;
    }

    /** @return the session the stream belongs to */
    public Http2Session getSession() {
        return session;
    }

    /** @return the state now */
    public StreamState getState() {
        session.lock.lock();
        try {
            return state;
        } finally {
            session.lock.unlock();
        }
    }

    /** Sets who hears of trailers and resets; before the content can arrive (when the stream is handed out). */
    public void setListener(Listener listener) {
        session.lock.lock();
        try {
            this.listener = listener;
        } finally {
            session.lock.unlock();
        }
    }

    /**
     * Announces the content's length (from {@code content-length}): more DATA than that, or
     * less by END_STREAM, resets the stream with PROTOCOL_ERROR (RFC 9113 section 8.1.1). The
     * session sets it from the head of each request or response it receives (not for the
     * response to a HEAD, a 204 or a 304), before the head reaches a listener.
     */
    public void setExpectedContentLength(long length) {
        session.lock.lock();
        try {
            this.expectedLength = length;
        } finally {
            session.lock.unlock();
        }
    }

    /**
     * Sends a header block: the response's (or request's) head, or trailers with {@code endStream}.
     *
     * @param callback completed once the frames are written
     */
    public void headers(HttpFields fields, boolean endStream, Callback callback) {
        session.sender.send(this, fields, null, endStream, callback);
    }

    /**
     * Sends content, in DATA frames within both flow-control windows and the peer's frame size.
     *
     * @param buffer the bytes, untouched until {@code callback} completes; null or empty for none
     * @param endStream whether this ends the stream
     */
    public void data(ByteBuffer buffer, boolean endStream, Callback callback) {
        session.sender.send(this, null, buffer, endStream, callback);
    }

    /**
     * Sends a header block and the content after it, as {@link #headers} then {@link #data}
     * would, in one step: one callback, completed once both are written.
     *
     * @param buffer the content, not null; untouched until {@code callback} completes
     * @param endStream whether the content ends the stream
     */
    public void headersAndData(HttpFields fields, ByteBuffer buffer, boolean endStream, Callback callback) {
        session.sender.send(this, Objects.requireNonNull(fields, "fields"), Objects.requireNonNull(buffer, "buffer"),
                endStream, callback);
    }

    /**
     * Promises a pushed response on this stream (a server's, for a request the client opened):
     * queues a PUSH_PROMISE carrying {@code request}, the pseudo-headers and fields of the
     * request being pushed, and reserves the stream that will answer it. The new stream has no
     * content to read; its response is sent with {@link #headers} and {@link #data} like any
     * other, after the promise.
     *
     * @return the promised stream, or null when no push may be made now: the peer disabled
     *     push, this stream can no longer send, the session is closing, or as many pushed
     *     streams are under way as the peer allows (its SETTINGS_MAX_CONCURRENT_STREAMS, and at
     *     most our own limit)
     */
    public Http2Stream push(HttpFields request) {
        return session.sender.push(this, request);
    }

    /**
     * Resets the stream, our own decision (a cancel, a failure of ours): RST_STREAM with
     * {@code error}, not counted against the reset budget (that is {@link #reject}); queued
     * content and sends are dropped. A stream of ours whose HEADERS are still queued closes
     * without a word: the peer never heard of it.
     */
    public void reset(ErrorCode error) {
        session.closer.resetStream(this, error, false);
    }

    /** Refuses a push the peer promised: RST_STREAM with CANCEL, not counted as the peer's fault. */
    public void refuse() {
        session.closer.resetStream(this, ErrorCode.CANCEL, false);
    }

    /**
     * Resets the stream because the peer's input on it was bad (a malformed request): like
     * {@link #reset}, but it counts against the session's reset budget, so a peer that makes us
     * reset stream after stream is cut off with ENHANCE_YOUR_CALM.
     */
    public void reject(ErrorCode error) {
        session.closer.resetStream(this, error, true);
    }

    // ---- Content.Source ----

    @Override
    public Content.Chunk read() {
        Content.Chunk chunk;
        session.lock.lock();
        try {
            chunk = chunks == null ? null : chunks.poll();
            if (chunk == null) {
                if (failure != null) {
                    return Content.Chunk.from(failure);
                }
                return ended ? Content.Chunk.EOF : null;
            }
        } finally {
            session.lock.unlock();
        }
        if (chunk.hasRemaining()) {
            consumed(chunk.remaining());
        }
        return chunk;
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        boolean ready;
        session.lock.lock();
        try {
            ready = chunks != null && !chunks.isEmpty() || failure != null || ended;
            if (!ready) {
                if (demand != null && demand != onContentAvailable) {
                    throw new IllegalStateException("demand already pending on " + this);
                }
                demand = onContentAvailable;
            }
        } finally {
            session.lock.unlock();
        }
        if (ready) {
            session.invoker.invoke(onContentAvailable);
        }
    }

    @Override
    public void fail(Throwable cause) {
        Runnable wake = failContent(cause);
        if (wake != null) {
            session.invoker.invoke(wake);
        }
    }

    /**
     * @return whether the content ended and every chunk of it was read (or it failed): a
     *     {@link #fail} now would change nothing, so its cause need not be made
     */
    public boolean isContentConsumed() {
        session.lock.lock();
        try {
            return failure != null || ended && (chunks == null || chunks.isEmpty());
        } finally {
            session.lock.unlock();
        }
    }

    @Override
    public long getLength() {
        session.lock.lock();
        try {
            return expectedLength;
        } finally {
            session.lock.unlock();
        }
    }

    // ---- the session's side, under its lock unless said ----

    /** @return the demand to run now that content arrived, or null */
    Runnable offer(Content.Chunk chunk) {
        if (failure != null || ended) {
            chunk.release();
            return null;
        }
        if (!chunk.hasRemaining()) {
            chunk.release();
            if (!chunk.isLast()) {
                return null;
            }
            ended = true;
            return takeDemand();
        }
        if (chunks == null) {
            chunks = new ArrayDeque<>(4);
        }
        if (chunk.isLast()) {
            // Handed out as bytes then EOF, as an HTTP/1 source does: readers that stop at a last chunk
            // without releasing it (they keep it to answer -1) would otherwise hold the network buffer.
            ended = true;
            chunks.add(Content.Chunk.from(chunk.getByteBuffer(), false, chunk));
        } else {
            chunks.add(chunk);
        }
        return takeDemand();
    }

    /** Ends the content without a chunk (trailers or END_STREAM on HEADERS); @return the demand to run, or null. */
    Runnable end() {
        ended = true;
        return takeDemand();
    }

    /**
     * Under the lock: whether content that arrives now is dropped, nobody being there to read it
     * (the reader failed the content). It is credited back to the peer as if read, so that a
     * peer finishing its message never stalls the connection's window.
     */
    boolean dropsContent() {
        return failure != null;
    }

    /**
     * Fails the content, dropping what is queued and crediting it back to the peer; takes the
     * lock itself. @return the demand to run, or null.
     */
    Runnable failContent(Throwable cause) {
        ArrayDeque<Content.Chunk> dropped;
        Runnable wake;
        session.lock.lock();
        try {
            boolean empty = chunks == null || chunks.isEmpty();
            if (failure == null && !(ended && empty)) {
                failure = cause;
            }
            dropped = empty ? null : chunks;
            chunks = null;
            wake = takeDemand();
        } finally {
            session.lock.unlock();
        }
        int bytes = 0;
        if (dropped != null) {
            for (Content.Chunk chunk : dropped) {
                bytes += chunk.remaining();
                chunk.release();
            }
        }
        if (bytes > 0) {
            consumed(bytes);
        }
        return wake;
    }

    /**
     * The reader consumed {@code bytes} of the content (or they were dropped): credited back to
     * the peer, for the stream and the connection, when the flow-control strategy says. Takes
     * the lock itself.
     */
    void consumed(int bytes) {
        boolean update = false;
        session.lock.lock();
        try {
            if (session.failed()) {
                return;
            }
            int increment = session.flow.credit(this, bytes, state.canReceive());
            if (increment > 0) {
                update = session.flusher.offerControl(out -> session.generator.windowUpdate(out, id, increment));
            }
            update |= session.windowUpdate(session.flow.credit(bytes));
        } finally {
            session.lock.unlock();
        }
        if (update) {
            session.flusher.iterate();
        }
    }

    private Runnable takeDemand() {
        Runnable wake = demand;
        demand = null;
        return wake;
    }

    @Override
    public String toString() {
        return "Http2Stream#" + id + "{" + state + ", " + super.toString() + "}";
    }
}
