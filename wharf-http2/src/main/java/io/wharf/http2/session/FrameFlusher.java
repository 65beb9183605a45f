package io.wharf.http2.session;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameBuffers;
import io.wharf.http2.frames.FrameGenerator;
import io.wharf.http2.hpack.HeaderListTooLargeException;
import io.wharf.io.EndPoint;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.thread.Scheduler;

/**
 * The write side of an {@link Http2Session}: a bounded queue of control frames and an ordered
 * queue of stream frames (HEADERS, DATA, trailers), turned into bytes and written to the
 * endpoint one gather write at a time — an {@link IteratingCallback} whose {@link #process()}
 * makes one write.
 *
 * <p>Each step first writes every control frame waiting (acknowledgements, resets, window
 * updates), then the stream frames in the order they were sent, each stream's in its own
 * order: DATA goes out only within the stream's and the connection's send windows, split at
 * the peer's SETTINGS_MAX_FRAME_SIZE, and a stream whose DATA waits for credit holds back its
 * later frames while other streams go on. HPACK encoding happens here, in wire order.
 *
 * <p><b>Threads.</b> Any thread offers frames (under the session's lock) and calls
 * {@link #iterate()}; {@code process()} runs on one thread at a time and generates under the
 * session's lock; callbacks complete outside it, a BLOCKING one on the executor.
 *
 * <p><b>Buffers.</b> Frame bytes are in a {@link FrameBuffers} released after each write; DATA is
 * written from slices of the caller's buffers, whose callbacks complete only once written.
 */
final class FrameFlusher extends IteratingCallback {

    /** Bytes of DATA put in one write, so one stream does not hold the connection for long. */
    private static final int MAX_DATA_PER_WRITE = 128 * 1024;

    private final Http2Session session;
    private final FrameGenerator generator;
    private final FrameBuffers buffers;
    private final int maxControlFrames;
    /** Guarded by the session's lock. */
    private final ArrayDeque<Consumer<FrameBuffers>> control = new ArrayDeque<>();
    /** Guarded by the session's lock. */
    private final ArrayDeque<StreamFrame> frames = new ArrayDeque<>();
    /** The callbacks of what the write in flight carries; only process() and the completions touch it. */
    private final List<Callback> written = new ArrayList<>();
    /** What a step must run once the lock is let go; one list for every step (steps never overlap). */
    private final List<Runnable> after = new ArrayList<>();
    /** Guarded by the session's lock: close the endpoint once everything queued is written. */
    private boolean closeWhenFlushed;

    FrameFlusher(Http2Session session, FrameGenerator generator, FrameBuffers buffers, int maxControlFrames) {
        this.session = session;
        this.generator = generator;
        this.buffers = buffers;
        this.maxControlFrames = maxControlFrames;
    }

    /**
     * A frame of a stream waiting to be written: a header block, content, both (a head and the
     * content after it, written as HEADERS then DATA), or a PUSH_PROMISE of {@code promised}.
     */
    static final class StreamFrame {
        final Http2Stream stream;
        final HttpFields fields;
        final ByteBuffer data;
        final boolean endStream;
        final Callback callback;
        final Http2Stream promised;

        StreamFrame(Http2Stream stream, HttpFields fields, ByteBuffer data, boolean endStream, Callback callback) {
            this(stream, fields, data, endStream, callback, null);
        }

        StreamFrame(Http2Stream stream, HttpFields fields, ByteBuffer data, boolean endStream, Callback callback, Http2Stream promised) {
            this.stream = stream;
            this.fields = fields;
            this.data = data;
            this.endStream = endStream;
            this.callback = callback;
            this.promised = promised;
        }

        /** @return the frame as content only: what waits of it once its head (if any) is written */
        StreamFrame content() {
            return fields == null ? this : new StreamFrame(stream, null, data, endStream, callback);
        }
    }

    /** Under the session's lock. @return false when the control queue is full: the peer makes us write more than it reads. */
    boolean offerControl(Consumer<FrameBuffers> frame) {
        if (control.size() >= maxControlFrames) {
            return false;
        }
        control.add(frame);
        return true;
    }

    /** Under the session's lock: a GOAWAY (or another last frame) goes first, ahead of any queue bound. */
    void offerLast(Consumer<FrameBuffers> frame) {
        control.add(frame);
        closeWhenFlushed = true;
    }

    /** Under the session's lock. */
    void offer(StreamFrame frame) {
        frames.add(frame);
    }

    /** Under the session's lock: @return the callbacks of {@code stream}'s frames, removed from the queue. */
    List<Callback> drop(Http2Stream stream) {
        List<Callback> dropped = new ArrayList<>();
        for (Iterator<StreamFrame> it = frames.iterator(); it.hasNext(); ) {
            StreamFrame frame = it.next();
            if (frame.stream == stream) {
                it.remove();
                dropped.add(frame.callback);
            }
        }
        return dropped;
    }

    /** Under the session's lock: @return every stream frame's callback, the queues emptied. */
    List<Callback> dropAll() {
        List<Callback> dropped = new ArrayList<>();
        for (StreamFrame frame : frames) {
            dropped.add(frame.callback);
        }
        frames.clear();
        return dropped;
    }

    @Override
    protected Action process() {
        boolean close;
        session.lock.lock();
        try {
            while (!control.isEmpty()) {
                control.poll().accept(buffers);
            }
            if (!closeWhenFlushed) {
                generateStreamFrames();
            }
            close = closeWhenFlushed && buffers.isEmpty();
        } finally {
            session.lock.unlock();
        }
        try {
            for (int i = 0; i < after.size(); i++) {
                after.get(i).run();
            }
        } finally {
            after.clear();
        }
        if (buffers.isEmpty()) {
            if (close) {
                closeEndPoint();
                return Action.SUCCEEDED;
            }
            return Action.IDLE;
        }
        session.getEndPoint().write(this, buffers.toArray());
        return Action.SCHEDULED;
    }

    /**
     * Under the lock: moves what may go now into the buffers; what must run after the unlock goes
     * to {@code after}. The queue is walked by taking each frame from its head: one that goes is
     * dropped, one that must wait is put back at the tail, and once the walk stops those not
     * visited follow them, so the queue keeps its order without an iterator per step.
     */
    private void generateStreamFrames() {
        Set<Http2Stream> held = null;
        int dataBytes = 0;
        int count = frames.size();
        int visited = 0;
        for (; visited < count && dataBytes < MAX_DATA_PER_WRITE; visited++) {
            StreamFrame frame = frames.poll();
            Http2Stream stream = frame.stream;
            if (held != null && held.contains(stream)) {
                frames.add(frame);
                continue;
            }
            if (!stream.state.canSend()) {
                Callback callback = frame.callback;
                after.add(() -> session.invoker.fail(callback, new IllegalStateException("stream " + stream.getId() + " is " + stream.state)));
                continue;
            }
            if (stream.state == StreamState.RESERVED_LOCAL && !stream.promiseSent) {
                // Nothing of a pushed stream may go before the PUSH_PROMISE that announces it.
                held = hold(held, stream);
                frames.add(frame);
                continue;
            }
            if (frame.promised != null) {
                try {
                    generator.pushPromise(buffers, stream.getId(), frame.promised.getId(), frame.fields, 0);
                } catch (HeaderListTooLargeException x) {
                    after.add(() -> {
                        session.invoker.fail(frame.callback, x);
                        session.closer.forgetPromise(frame.promised);
                    });
                    continue;
                }
                frame.promised.promiseSent = true;
                written.add(frame.callback);
                continue;
            }
            if (frame.fields != null) {
                // A head with content (Http2Stream.headersAndData) ends the stream with its DATA, not its HEADERS.
                boolean contentFollows = frame.data != null;
                try {
                    generator.headers(buffers, stream.getId(), frame.fields, null, frame.endStream && !contentFollows, 0);
                } catch (HeaderListTooLargeException x) {
                    // The stream's later frames must not go without their head: held until the reset drops them.
                    held = hold(held, stream);
                    // The reset first: a caller that answers the failure by resetting the stream itself finds it reset
                    // already, and its reset is not counted against the peer's budget.
                    after.add(() -> {
                        session.closer.resetStream(stream, ErrorCode.INTERNAL_ERROR, false);
                        session.invoker.fail(frame.callback, x);
                    });
                    continue;
                }
                stream.headersSent = true;
                stream.state = stream.state.headersSent();
                if (!contentFollows) {
                    written.add(frame.callback);
                    sent(stream, frame.endStream);
                    continue;
                }
            }
            ByteBuffer data = frame.data;
            int length = data == null ? 0 : data.remaining();
            int allowed = session.flow.sendable(stream, Math.min(length, MAX_DATA_PER_WRITE - dataBytes));
            if (length > 0 && allowed <= 0) {
                held = hold(held, stream);
                frames.add(frame.content());
                continue;
            }
            boolean whole = allowed == length;
            if (whole) {
                // The generator takes the content whole (moving its position to its limit): no slice of it here.
                generator.data(buffers, stream.getId(), data == null ? io.wharf.util.buffer.ByteBuffers.EMPTY : data, frame.endStream, 0);
            } else {
                generator.data(buffers, stream.getId(), data.slice(data.position(), allowed), false, 0);
                data.position(data.position() + allowed);
            }
            session.flow.sent(stream, allowed);
            dataBytes += allowed;
            if (whole) {
                written.add(frame.callback);
                sent(stream, frame.endStream);
            } else {
                held = hold(held, stream);
                frames.add(frame.content());
            }
        }
        for (int left = count - visited; left > 0; left--) {
            frames.add(frames.poll());
        }
    }

    private static Set<Http2Stream> hold(Set<Http2Stream> held, Http2Stream stream) {
        Set<Http2Stream> set = held == null ? new HashSet<>() : held;
        set.add(stream);
        return set;
    }

    private void sent(Http2Stream stream, boolean endStream) {
        if (endStream) {
            stream.state = stream.state.localEnded();
            Runnable closed = session.closer.closedIfDone(stream);
            if (closed != null) {
                after.add(closed);
            }
        }
    }

    @Override
    protected void onSuccess() {
        buffers.release();
        completeWritten(null);
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        buffers.release();
        completeWritten(cause);
        List<Callback> dropped;
        session.lock.lock();
        try {
            control.clear();
            dropped = dropAll();
        } finally {
            session.lock.unlock();
        }
        dropped.forEach(callback -> session.invoker.fail(callback, cause));
        session.getEndPoint().close(cause);
    }

    /** Everything before a close is written: half-close, and close fully once the peer did or soon after. */
    private void closeEndPoint() {
        EndPoint endPoint = session.getEndPoint();
        endPoint.shutdownOutput();
        Scheduler scheduler = session.invoker.scheduler();
        if (scheduler != null) {
            scheduler.schedule(() -> endPoint.close(), 2, TimeUnit.SECONDS);
        } else {
            endPoint.close();
        }
    }

    private void completeWritten(Throwable cause) {
        if (written.isEmpty()) {
            return;
        }
        List<Callback> done = new ArrayList<>(written);
        written.clear();
        for (Callback callback : done) {
            if (cause == null) {
                session.invoker.succeed(callback);
            } else {
                session.invoker.fail(callback, cause);
            }
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public String toString() {
        return "FrameFlusher@" + Integer.toHexString(hashCode()) + "{" + session + "}";
    }
}
