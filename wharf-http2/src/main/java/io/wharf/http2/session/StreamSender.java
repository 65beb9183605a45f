package io.wharf.http2.session;

import java.io.IOException;
import java.nio.ByteBuffer;

import io.wharf.http.HttpFields;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * The sending half of an {@link Http2Session} as the application sees it: opening a stream of
 * ours with its HEADERS, reserving a pushed stream with its PUSH_PROMISE, and queuing a
 * stream's frames on the {@link FrameFlusher}. The identifier of a new stream is taken and its
 * first frame queued under one lock, so that identifiers go out in increasing order (RFC 9113
 * section 5.1.1). Frames queued by the thread inside {@link Http2Session#parse} (a handler
 * answering inline) are written once that parse ends, so that the answers to the requests of
 * one network buffer go out in one write rather than one write per frame.
 *
 * <p><b>Threads.</b> Any thread sends; the session's lock is held while queuing and never while
 * failing a callback. Only the reading thread calls {@link #parseStarted} and {@link #parseEnded}.
 * <b>Buffers.</b> A buffer of content belongs to the flusher until its callback completes.
 */
final class StreamSender {

    private final Http2Session session;
    /**
     * The thread inside {@link Http2Session#parse} now, else null; only the reading thread sets it.
     * Another thread may see a stale value, but never itself, which is all {@link #flush} asks:
     * a plain field does.
     */
    private Thread parsingThread;
    /** Whether the parsing thread queued stream frames to write when its parse ends; the reading thread's only. */
    private boolean flushAfterParse;

    StreamSender(Http2Session session) {
        this.session = session;
    }

    /** See {@link Http2Session#newStream}. */
    Http2Stream open(HttpFields fields, boolean endStream, Http2Stream.Listener listener, Callback callback) {
        Http2Stream stream = null;
        Throwable refused = null;
        session.lock.lock();
        try {
            SessionState state = session.state();
            int id = state == SessionState.OPEN ? session.ids.openLocal() : 0;
            if (state != SessionState.OPEN) {
                refused = new StreamNotProcessedException("HTTP/2 connection is " + state + ": no new stream");
            } else if (id == 0) {
                refused = new StreamNotProcessedException("HTTP/2 connection ran out of stream identifiers");
            } else {
                stream = session.newStream(id, StreamState.OPEN);
                stream.headRequest = "HEAD".equals(fields.get(":method"));
                stream.listener = listener;
                session.flusher.offer(new FrameFlusher.StreamFrame(stream, fields, null, endStream, callback));
            }
        } finally {
            session.lock.unlock();
        }
        if (refused != null) {
            session.invoker.fail(callback, refused);
            return null;
        }
        flush();
        return stream;
    }

    /** Queues a header block, content or both on {@code stream}; fails {@code callback} when it or the session can no longer send. */
    void send(Http2Stream stream, HttpFields fields, ByteBuffer data, boolean endStream, Callback callback) {
        Throwable refused = null;
        session.lock.lock();
        try {
            if (session.failed()) {
                refused = new IOException("HTTP/2 connection is " + session.state());
            } else if (!stream.state.canSend()) {
                refused = new IllegalStateException("stream " + stream.getId() + " is " + stream.state);
            } else {
                session.flusher.offer(new FrameFlusher.StreamFrame(stream, fields, data, endStream, callback));
            }
        } finally {
            session.lock.unlock();
        }
        if (refused != null) {
            session.invoker.fail(callback, refused);
            return;
        }
        flush();
    }

    /** See {@link Http2Stream#push}. */
    Http2Stream push(Http2Stream associated, HttpFields request) {
        Http2Stream promised;
        session.lock.lock();
        try {
            if (!session.canPush() || !associated.state.canSend() || associated.state == StreamState.RESERVED_LOCAL) {
                return null;
            }
            int id = session.ids.openPush();
            if (id == 0) {
                return null;
            }
            promised = session.newStream(id, StreamState.RESERVED_LOCAL);
            Callback forget = Callback.from(InvocationType.NON_BLOCKING, () -> { }, failure -> session.closer.forgetPromise(promised));
            session.flusher.offer(new FrameFlusher.StreamFrame(associated, request, null, false, forget, promised));
        } finally {
            session.lock.unlock();
        }
        promised.end();
        flush();
        return promised;
    }

    /** The reading thread starts parsing: what it sends meanwhile is written when the parse ends. */
    void parseStarted() {
        parsingThread = Thread.currentThread();
    }

    /** The reading thread's parse ended: what it sent meanwhile is written now. */
    void parseEnded() {
        parsingThread = null;
        if (flushAfterParse) {
            flushAfterParse = false;
            session.flusher.iterate();
        }
    }

    /** Writes the stream frames just queued: at once, or once the parse of the thread that queued them ends. */
    private void flush() {
        if (Thread.currentThread() == parsingThread) {
            flushAfterParse = true;
        } else {
            session.flusher.iterate();
        }
    }
}
