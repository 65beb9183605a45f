package io.wharf.http2.session;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.util.Callback;

/**
 * How the streams of an {@link Http2Session} end before their time: the resets we send (our own
 * decision, a stream error in the peer's input, a malformed message), an RST_STREAM on an
 * identifier we hold no stream for, a promise never written, and the abandoning of every stream
 * when the connection fails or closes. Each closed stream's queued frames and content are
 * failed and its listener told; a stream that is CLOSED is forgotten ({@link #closedIfDone}).
 *
 * <pre>
 *   resetStream / streamError / malformed ──▶ CLOSED, RST_STREAM queued (unless the peer never heard of the stream)
 *       ──▶ abandon: queued frames failed, content failed, Listener.onReset ──▶ closedIfDone: Listener.onClosed
 * </pre>
 *
 * <p><b>Threads.</b> Any thread: the reading thread (stream errors), the application's (resets),
 * the flusher's (a head too large). It takes the session's lock for each change of state and
 * calls callbacks and listeners without it; what says "under the lock" is called with it held.
 * <b>Buffers.</b> Content chunks a failed stream still held are released by the stream
 * ({@link Http2Stream#failContent}).
 */
final class StreamCloser {

    private final Http2Session session;

    StreamCloser(Http2Session session) {
        this.session = session;
    }

    /**
     * A PUSH_PROMISE that was never written (its stream was reset, the session closed, or the
     * promise did not fit the peer's header list size): the promised stream closes without a
     * word, since the peer never heard of it, and what was queued on it fails.
     */
    void forgetPromise(Http2Stream promised) {
        Runnable closed;
        session.lock.lock();
        try {
            if (session.failed() || promised.state == StreamState.CLOSED || promised.promiseSent) {
                return; // A closing session abandons every stream itself.
            }
            promised.state = StreamState.CLOSED;
            closed = closedIfDone(promised);
        } finally {
            session.lock.unlock();
        }
        abandon(promised, ErrorCode.CANCEL, new IOException("the promise of stream " + promised.getId() + " was not sent"));
        if (closed != null) {
            closed.run();
        }
    }

    /**
     * Resets {@code stream}: RST_STREAM with {@code error} (none for a stream of ours the peer has
     * not heard of yet, its HEADERS still queued), its queued frames failed, its content failed.
     *
     * @param peerCaused whether the peer's input made us reset it, which counts against the reset budget
     */
    void resetStream(Http2Stream stream, ErrorCode error, boolean peerCaused) {
        reset(stream, error, peerCaused, false, null);
    }

    /**
     * A stream error in a frame the peer sent on {@code stream}, which the receiver found held:
     * resets it as {@link #resetStream} does, counted against the reset budget. The stream may
     * have closed since the receiver looked it up (its response ended on another thread); the
     * error is then still answered, with RST_STREAM on its id, unless we reset the stream
     * ourselves, after which the peer's frames in flight are ignored (RFC 9113 section 5.1).
     */
    void streamError(Http2Stream stream, ErrorCode error) {
        reset(stream, error, true, true, null);
    }

    /**
     * The peer's message on {@code stream} is malformed (RFC 9113 section 8.1.1): a stream error
     * of type PROTOCOL_ERROR, answered as {@link #streamError} answers one; the stream's
     * listener and reader are failed with an exception that says {@code problem}.
     *
     * @param message what was malformed: {@code "request"}, {@code "response"} or {@code "pushed request"}
     */
    void malformed(Http2Stream stream, String message, String problem) {
        reset(stream, ErrorCode.PROTOCOL_ERROR, true, true, "malformed " + message + ": " + problem);
    }

    /** @param problem why the peer's message on the stream is malformed, or null */
    private void reset(Http2Stream stream, ErrorCode error, boolean peerCaused, boolean answerWhenClosed, String problem) {
        boolean wasClosed;
        boolean announced = false;
        boolean queued = false;
        Runnable closed = null;
        session.lock.lock();
        try {
            wasClosed = stream.state == StreamState.CLOSED;
            if (wasClosed) {
                answerWhenClosed &= !session.ids.wasResetByUs(stream.getId());
            } else {
                stream.state = StreamState.CLOSED;
                closed = closedIfDone(stream);
                session.ids.resetByUs(stream.getId());
                // A stream of ours whose HEADERS (or PUSH_PROMISE) wait unwritten is idle for the peer, and an
                // RST_STREAM on an idle stream is a connection error (RFC 9113 sections 5.1 and 6.4), while
                // control frames go ahead of stream frames: none goes. Closed, its frames are never written,
                // and the peer takes its identifier as closed when a later stream opens.
                announced = session.ids.isRemote(stream.getId()) || stream.headersSent || stream.promiseSent;
                queued = !announced || session.flusher.offerControl(out -> session.generator.rstStream(out, stream.getId(), error));
            }
        } finally {
            session.lock.unlock();
        }
        if (wasClosed) {
            if (answerWhenClosed) {
                resetStreamId(stream.getId(), error, true);
            }
            return;
        }
        if (!queued) {
            session.failConnection(ErrorCode.ENHANCE_YOUR_CALM, "too many control frames waiting to be written");
            return;
        }
        abandon(stream, error, new IOException("stream " + stream.getId() + " reset: " + error
                + (problem == null ? "" : ", " + problem)));
        if (closed != null) {
            closed.run();
        }
        if (!announced || !peerCaused || session.withinBudget(FloodBudgets.Flood.RESETS)) {
            session.flusher.iterate();
        }
    }

    /**
     * A stream error on a stream we keep no state for: RST_STREAM on its id.
     *
     * @param counted whether it counts against the reset budget
     */
    void resetStreamId(int streamId, ErrorCode error, boolean counted) {
        boolean queued;
        session.lock.lock();
        try {
            session.ids.resetByUs(streamId);
            queued = session.flusher.offerControl(out -> session.generator.rstStream(out, streamId, error));
        } finally {
            session.lock.unlock();
        }
        if (!queued) {
            session.failConnection(ErrorCode.ENHANCE_YOUR_CALM, "too many control frames waiting to be written");
        } else if (!counted || session.withinBudget(FloodBudgets.Flood.RESETS)) {
            session.flusher.iterate();
        }
    }

    /** The streams and queued stream frames a closing session gives up. */
    record Abandoned(List<Http2Stream> streams, List<Callback> frames) {
    }

    /** Under the lock: empties the stream table and the queue of stream frames; @return what they held. */
    Abandoned takeAll() {
        Abandoned all = new Abandoned(new ArrayList<>(session.streams.values()), session.flusher.dropAll());
        session.streams.clear();
        return all;
    }

    /** Without the lock: fails what {@link #takeAll()} took, telling each stream's listener. */
    void abandonAll(Abandoned all, ErrorCode error, IOException cause) {
        session.cancelSettingsTimeout();
        all.frames().forEach(callback -> session.invoker.fail(callback, cause));
        for (Http2Stream stream : all.streams()) {
            // A stream of ours whose HEADERS never went out was not processed: it may go again elsewhere.
            boolean unsent = !session.ids.isRemote(stream.getId()) && !stream.headersSent;
            abandon(stream, error, unsent ? new StreamNotProcessedException("stream " + stream.getId()
                    + " was not sent: " + cause.getMessage()) : cause);
        }
    }

    /** Fails a closed stream's queued frames and content and tells its listener; without lock. */
    void abandon(Http2Stream stream, ErrorCode error, Throwable cause) {
        List<Callback> dropped;
        session.lock.lock();
        try {
            dropped = session.flusher.drop(stream);
        } finally {
            session.lock.unlock();
        }
        dropped.forEach(callback -> session.invoker.fail(callback, cause));
        Runnable wake = stream.failContent(cause);
        if (wake != null) {
            session.invoker.invoke(wake);
        }
        Http2Stream.Listener streamListener = stream.listener;
        if (streamListener != null) {
            streamListener.onReset(stream, error, cause);
        }
    }

    /** Under the lock: forgets a stream that is CLOSED. @return what to run after the unlock, or null when still open. */
    Runnable closedIfDone(Http2Stream stream) {
        if (stream.state != StreamState.CLOSED || session.streams.remove(stream.getId()) == null) {
            return null;
        }
        session.ids.closed(stream.getId());
        boolean drained = session.isDraining() && session.streams.isEmpty();
        if (drained) {
            session.flusher.offerLast(out -> { });
        }
        return () -> {
            Http2Stream.Listener streamListener = stream.listener;
            if (streamListener != null) {
                streamListener.onClosed(stream);
            }
            if (drained) {
                session.flusher.iterate();
            }
        };
    }
}
