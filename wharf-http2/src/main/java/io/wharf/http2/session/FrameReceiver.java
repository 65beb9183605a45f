package io.wharf.http2.session;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameListener;
import io.wharf.http2.frames.Priority;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.session.FloodBudgets.Flood;
import io.wharf.io.Content;

/**
 * The reading half of an {@link Http2Session}: what each frame the parser finds does to the
 * session and its streams (RFC 9113 sections 5 and 6), and the budgets each kind of frame is
 * counted against. Protocol errors become stream resets or a connection error with the code
 * the RFC names. It changes the session's state only through its I/O-free parts, which decide:
 * {@link FlowControl} (windows), {@link StreamIds} (identifiers and limits),
 * {@link SettingsExchange} (SETTINGS) and {@link FloodBudgets}; header blocks go to the
 * {@link HeaderReceiver}.
 *
 * <p><b>Threads.</b> Called by the session's {@link io.wharf.http2.frames.FrameParser} on the
 * connection's reading thread only. It takes the session's lock for each change of state and
 * calls listeners, demand tasks and the flusher without it. <b>Buffers.</b> Each DATA chunk is
 * either queued on its stream (which then owns it) or released here.
 */
final class FrameReceiver implements FrameListener {

    /** DATA pieces smaller than this are copied rather than kept as slices of the network buffer. */
    static final int COPY_BELOW = 2048;

    /**
     * How much content may arrive for nobody (its reader failed it) on a stream whose response
     * we ended, before the stream is reset with NO_ERROR to stop the peer (RFC 9113 section 8.1).
     * Until then the rest of the message is read, so its errors are still caught.
     */
    static final int DROP_LIMIT = 64 * 1024;

    private final Http2Session session;
    private final HeaderReceiver headerBlocks;

    FrameReceiver(Http2Session session) {
        this.session = session;
        this.headerBlocks = new HeaderReceiver(session);
    }


    /**
     * What a DATA frame is to the session, judged under the lock (RFC 9113 sections 5.1, 6.1,
     * 6.9.1 and 8.1.1). Content that no reader will take is credited back to the connection at
     * once, so that a frame in error never stalls the others; a connection error credits nothing.
     */
    private enum DataVerdict {
        /** Within both windows on a stream that may receive: queued for its reader, or dropped when the reader failed the content. */
        ACCEPTED(false),
        /** Past the connection's window: connection error FLOW_CONTROL_ERROR. */
        CONNECTION_WINDOW_EXCEEDED(false),
        /** On a stream never opened: connection error PROTOCOL_ERROR. */
        IDLE_STREAM(false),
        /** In flight on a stream we reset: ignored. */
        RESET_BY_US(true),
        /** On a stream that is closed, or whose peer ended it: stream error STREAM_CLOSED. */
        CLOSED_STREAM(true),
        /** Past the stream's window: stream error FLOW_CONTROL_ERROR. */
        STREAM_WINDOW_EXCEEDED(true),
        /** More content than the stream's content-length, or less by its end: a malformed message. */
        LENGTH_MISMATCH(true);

        final boolean creditedBack;

        DataVerdict(boolean creditedBack) {
            this.creditedBack = creditedBack;
        }
    }

    @Override
    public void onData(int streamId, Content.Chunk data, int padding) {
        int length = data.remaining() + padding;
        boolean empty = length == 0 && !data.isLast();
        Http2Stream stream;
        DataVerdict verdict;
        String malformed = null;
        boolean update;
        Runnable wake = null;
        Runnable closed = null;
        int dropped = 0;
        boolean stop = false;
        session.lock.lock();
        try {
            if (session.failed()) {
                data.release();
                return;
            }
            stream = session.streams.get(streamId);
            verdict = judge(streamId, stream, data, length);
            if (verdict != DataVerdict.ACCEPTED) {
                malformed = verdict == DataVerdict.LENGTH_MISMATCH ? HeaderReceiver.lengthProblem(stream) : null;
                update = verdict.creditedBack && session.windowUpdate(session.flow.credit(length));
            } else {
                update = padding > 0 && session.windowUpdate(session.flow.padding(stream, padding));
                if (data.isLast()) {
                    stream.state = stream.state.remoteEnded();
                    closed = session.closer.closedIfDone(stream);
                }
                if (stream.dropsContent()) {
                    dropped = data.remaining();
                    stream.dropped += dropped;
                    stop = stream.dropped > DROP_LIMIT && stream.state == StreamState.HALF_CLOSED_LOCAL;
                } else {
                    wake = stream.offer(pinless(data));
                    data = null;
                }
            }
        } finally {
            session.lock.unlock();
        }
        if (data != null) {
            data.release();
        }
        switch (verdict) {
            case CONNECTION_WINDOW_EXCEEDED -> {
                session.failConnection(ErrorCode.FLOW_CONTROL_ERROR, "DATA beyond the connection's flow-control window (RFC 9113 section 6.9.1)");
                return;
            }
            case IDLE_STREAM -> {
                session.failConnection(ErrorCode.PROTOCOL_ERROR, "DATA on idle stream " + streamId + " (RFC 9113 section 5.1)");
                return;
            }
            case CLOSED_STREAM -> streamError(streamId, stream, ErrorCode.STREAM_CLOSED);
            case STREAM_WINDOW_EXCEEDED -> streamError(streamId, stream, ErrorCode.FLOW_CONTROL_ERROR);
            case LENGTH_MISMATCH -> session.closer.malformed(stream, headerBlocks.message(), malformed);
            case ACCEPTED, RESET_BY_US -> { }
        }
        if (empty && !session.withinBudget(Flood.EMPTY_DATA)) {
            return;
        }
        if (wake != null) {
            session.invoker.invoke(wake);
        }
        if (closed != null) {
            closed.run();
        }
        if (update) {
            session.flusher.iterate();
        }
        if (dropped > 0) {
            stream.consumed(dropped);
        }
        if (stop) {
            session.closer.resetStream(stream, ErrorCode.NO_ERROR, false);
        }
    }

    /**
     * Under the lock: takes a DATA frame of {@code length} octets (padding included) from the
     * connection's window and, on a stream that may receive, from the stream's, counting its
     * content against the stream's content-length. @return what the frame is
     */
    private DataVerdict judge(int streamId, Http2Stream stream, Content.Chunk data, int length) {
        if (!session.flow.receive(length)) {
            return DataVerdict.CONNECTION_WINDOW_EXCEEDED;
        }
        if (stream == null) {
            if (session.ids.isIdle(streamId)) {
                return DataVerdict.IDLE_STREAM;
            }
            // After our RST_STREAM the peer's DATA in flight is ignored; on a stream closed otherwise it is an error.
            return session.ids.wasResetByUs(streamId) ? DataVerdict.RESET_BY_US : DataVerdict.CLOSED_STREAM;
        }
        if (!stream.state.canReceive()) {
            return DataVerdict.CLOSED_STREAM;
        }
        boolean fits = session.flow.receive(stream, length);
        stream.receivedLength += data.remaining();
        if (!fits) {
            return DataVerdict.STREAM_WINDOW_EXCEEDED;
        }
        if (stream.expectedLength >= 0 && (stream.receivedLength > stream.expectedLength
                || data.isLast() && stream.receivedLength != stream.expectedLength)) {
            return DataVerdict.LENGTH_MISMATCH;
        }
        return DataVerdict.ACCEPTED;
    }

    /** A stream error in a frame on {@code streamId}: on the stream when the session holds it, else on its id. */
    private void streamError(int streamId, Http2Stream stream, ErrorCode error) {
        if (stream != null) {
            session.closer.streamError(stream, error);
        } else {
            session.closer.resetStreamId(streamId, error, true);
        }
    }

    @Override
    public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
        headerBlocks.onHeaders(streamId, headers, endStream);
    }

    @Override
    public void onPriority(int streamId, Priority priority) {
        session.withinBudget(Flood.PRIORITIES);
    }

    @Override
    public void onRstStream(int streamId, long errorCode) {
        Http2Stream stream;
        boolean idle;
        boolean rapid = false;
        Runnable closed = null;
        session.lock.lock();
        try {
            if (session.failed()) {
                return;
            }
            stream = session.streams.get(streamId);
            idle = stream == null && session.ids.isIdle(streamId);
            if (stream != null) {
                // Every reset of a stream the peer opened and we still hold counts (a client refusing
                // a push does not): answered or not, the rate is what a rapid-reset attack shows.
                rapid = session.ids.isRemote(streamId);
                stream.state = StreamState.CLOSED;
                closed = session.closer.closedIfDone(stream);
            }
        } finally {
            session.lock.unlock();
        }
        if (idle) {
            session.failConnection(ErrorCode.PROTOCOL_ERROR, "RST_STREAM on idle stream " + streamId + " (RFC 9113 section 6.4)");
            return;
        }
        if (stream == null) {
            return;
        }
        ErrorCode error = ErrorCode.from(errorCode);
        String why = "stream " + streamId + " reset by the peer: " + ErrorCode.describe(errorCode);
        ErrorCode code = error == null ? ErrorCode.CANCEL : error;
        session.closer.abandon(stream, code, error == ErrorCode.REFUSED_STREAM ? new StreamNotProcessedException(why) : new StreamResetException(why, code));
        if (closed != null) {
            closed.run();
        }
        if (rapid) {
            session.withinBudget(Flood.RESETS);
        }
    }

    @Override
    public void onSettings(Settings settings, boolean ack) {
        if (ack) {
            session.lock.lock();
            try {
                onSettingsAcknowledged();
            } finally {
                session.lock.unlock();
            }
            session.cancelSettingsTimeout();
            session.parser.setMaxFrameSize(session.config.getMaxFrameSize());
            return;
        }
        if (!session.withinBudget(Flood.SETTINGS)) {
            return;
        }
        String overflow;
        boolean queued;
        session.lock.lock();
        try {
            if (session.failed()) {
                return;
            }
            overflow = apply(settings);
            queued = session.flusher.offerControl(session.generator::settingsAck);
        } finally {
            session.lock.unlock();
        }
        if (overflow != null) {
            session.failConnection(ErrorCode.FLOW_CONTROL_ERROR, overflow);
        } else if (!queued) {
            session.failConnection(ErrorCode.ENHANCE_YOUR_CALM, "too many control frames waiting to be written");
        } else {
            session.flusher.iterate();
            session.listener.onSettings(settings);
        }
    }

    /**
     * Under the lock, on the reading thread: the peer acknowledged our SETTINGS. A stream window
     * of ours below the default now applies to the streams open, and a header table below the
     * default to the peer's next block, which must start with a size update to it.
     */
    private void onSettingsAcknowledged() {
        if (!session.settings.acknowledge()) {
            return;
        }
        if (session.config.getMaxHeaderTableSize() < session.decoder.getMaxTableCapacity()) {
            session.decoder.setMaxTableCapacity(session.config.getMaxHeaderTableSize());
        }
        int shrink = session.flow.shrinkOnAcknowledgement();
        if (shrink > 0) {
            for (Http2Stream stream : session.streams.values()) {
                session.flow.shrink(stream, shrink);
            }
        }
    }

    /** Under the lock: applies the peer's settings; @return why they overflow a stream window, or null. */
    String apply(Settings peer) {
        SettingsExchange.Change change = session.settings.apply(peer);
        String overflow = null;
        if (change.windowDelta() != 0) {
            for (Http2Stream stream : session.streams.values()) {
                if (!session.flow.shift(stream, change.windowDelta())) {
                    overflow = "SETTINGS_INITIAL_WINDOW_SIZE makes the window of stream " + stream.getId()
                            + " pass 2^31 - 1 (RFC 9113 section 6.9.2)";
                }
            }
        }
        if (change.maxFrameSize() != SettingsExchange.Change.UNCHANGED) {
            session.generator.setMaxFrameSize(change.maxFrameSize());
        }
        if (change.maxConcurrentStreams() != SettingsExchange.Change.UNCHANGED) {
            session.ids.peerLimit(change.maxConcurrentStreams());
        }
        if (change.headerTableSize() != SettingsExchange.Change.UNCHANGED) {
            session.encoder.setPeerMaxTableCapacity(change.headerTableSize());
        }
        if (change.maxHeaderListSize() != SettingsExchange.Change.UNCHANGED) {
            session.encoder.setPeerMaxHeaderListSize(change.maxHeaderListSize());
        }
        return overflow;
    }

    @Override
    public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock request) {
        headerBlocks.onPushPromise(streamId, promisedStreamId, request);
    }

    @Override
    public void onPing(long payload, boolean ack) {
        if (ack) {
            return;
        }
        if (!session.withinBudget(Flood.PINGS)) {
            return;
        }
        boolean queued;
        session.lock.lock();
        try {
            if (session.failed()) {
                return;
            }
            queued = session.flusher.offerControl(out -> session.generator.ping(out, payload, true));
        } finally {
            session.lock.unlock();
        }
        if (!queued) {
            session.failConnection(ErrorCode.ENHANCE_YOUR_CALM, "too many control frames waiting to be written");
            return;
        }
        session.flusher.iterate();
    }

    @Override
    public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
        List<Http2Stream> unprocessed = new ArrayList<>();
        List<Runnable> closed = new ArrayList<>();
        session.lock.lock();
        try {
            if (!session.drain()) {
                return;
            }
            // Streams of ours above the last the peer processed never will be (RFC 9113 section 6.8).
            for (Http2Stream stream : List.copyOf(session.streams.values())) {
                if (!session.ids.isRemote(stream.getId()) && stream.getId() > lastStreamId) {
                    stream.state = StreamState.CLOSED;
                    unprocessed.add(stream);
                    Runnable done = session.closer.closedIfDone(stream);
                    if (done != null) {
                        closed.add(done);
                    }
                }
            }
            if (session.streams.isEmpty() && unprocessed.isEmpty()) {
                session.flusher.offerLast(out -> { });
            }
        } finally {
            session.lock.unlock();
        }
        ErrorCode error = ErrorCode.from(errorCode);
        for (Http2Stream stream : unprocessed) {
            session.closer.abandon(stream, ErrorCode.REFUSED_STREAM, new StreamNotProcessedException("stream " + stream.getId()
                    + " was not processed: GOAWAY " + ErrorCode.describe(errorCode)
                    + " with last stream " + lastStreamId));
        }
        closed.forEach(Runnable::run);
        session.listener.onGoAway(lastStreamId, error == null ? ErrorCode.INTERNAL_ERROR : error);
        session.flusher.iterate();
    }

    @Override
    public void onWindowUpdate(int streamId, int increment) {
        Http2Stream stream = null;
        String connectionOverflow = null;
        boolean idle = false;
        boolean streamOverflow = false;
        session.lock.lock();
        try {
            if (session.failed()) {
                return;
            }
            if (streamId == 0) {
                if (!session.flow.grant(increment)) {
                    connectionOverflow = "WINDOW_UPDATE makes the connection's window pass 2^31 - 1 (RFC 9113 section 6.9.1)";
                }
            } else {
                stream = session.streams.get(streamId);
                if (stream == null) {
                    idle = session.ids.isIdle(streamId);
                } else {
                    streamOverflow = !session.flow.grant(stream, increment);
                }
            }
        } finally {
            session.lock.unlock();
        }
        if (connectionOverflow != null) {
            session.failConnection(ErrorCode.FLOW_CONTROL_ERROR, connectionOverflow);
        } else if (idle) {
            session.failConnection(ErrorCode.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + streamId + " (RFC 9113 section 5.1)");
        } else if (streamOverflow) {
            session.closer.streamError(stream, ErrorCode.FLOW_CONTROL_ERROR);
        } else {
            session.flusher.iterate();
        }
    }

    @Override
    public void onStreamError(int streamId, ErrorCode error, String reason) {
        Http2Stream stream;
        session.lock.lock();
        try {
            if (session.failed()) {
                return;
            }
            stream = session.streams.get(streamId);
            if (stream == null) {
                session.ids.remoteUsed(streamId);
            }
        } finally {
            session.lock.unlock();
        }
        streamError(streamId, stream, error);
    }

    @Override
    public void onConnectionError(ErrorCode error, String reason) {
        session.failConnection(error, reason);
    }

    @Override
    public void onUnknownFrame(int type, int streamId, int length) {
        session.withinBudget(Flood.UNKNOWN_FRAMES);
    }

    /**
     * A queued chunk keeps its whole network buffer: a peer sending DATA a few bytes per read
     * would make a reader that is slow to read hold one network buffer per few bytes, far more
     * memory than the window it was granted. Chunks under {@link #COPY_BELOW} bytes are copied
     * to the heap and the network buffer let go, so what a stream queues stays within a small
     * multiple of its window.
     *
     * @return {@code data}, or a heap copy of it (the original released)
     */
    private static Content.Chunk pinless(Content.Chunk data) {
        int size = data.remaining();
        if (size == 0 || size >= COPY_BELOW) {
            return data;
        }
        java.nio.ByteBuffer copy = java.nio.ByteBuffer.allocate(size);
        copy.put(data.getByteBuffer().duplicate()).flip();
        boolean last = data.isLast();
        data.release();
        return Content.Chunk.from(copy, last);
    }
}
