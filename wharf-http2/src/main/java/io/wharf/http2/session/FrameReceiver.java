package io.wharf.http2.session;

import java.io.IOException;
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
 * the RFC names.
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
    /** Checks the peer's header blocks; this receiver's alone (it keeps what it read of the last one). */
    private final MessageRules rules = new MessageRules();

    FrameReceiver(Http2Session session) {
        this.session = session;
    }


    @Override
    public void onData(int streamId, Content.Chunk data, int padding) {
        int length = data.remaining() + padding;
        boolean empty = length == 0 && !data.isLast();
        ErrorCode connectionError = null;
        String reason = null;
        ErrorCode streamError = null;
        String malformed = null;
        Http2Stream stream;
        Runnable wake = null;
        Runnable closed = null;
        boolean update = false;
        int dropped = 0;
        boolean stop = false;
        session.lock.lock();
        try {
            if (session.failed()) {
                data.release();
                return;
            }
            boolean fits = session.flow.receive(length);
            stream = session.streams.get(streamId);
            if (!fits) {
                connectionError = ErrorCode.FLOW_CONTROL_ERROR;
                reason = "DATA beyond the connection's flow-control window (RFC 9113 section 6.9.1)";
            } else if (stream == null) {
                if (session.ids.isIdle(streamId)) {
                    connectionError = ErrorCode.PROTOCOL_ERROR;
                    reason = "DATA on idle stream " + streamId + " (RFC 9113 section 5.1)";
                } else {
                    // After our RST_STREAM the peer's DATA in flight is ignored; on a stream closed otherwise it is an error.
                    streamError = session.ids.wasResetByUs(streamId) ? null : ErrorCode.STREAM_CLOSED;
                    update = session.windowUpdate(session.flow.credit(length));
                }
            } else if (!stream.state.canReceive()) {
                streamError = ErrorCode.STREAM_CLOSED;
                update = session.windowUpdate(session.flow.credit(length));
            } else {
                boolean streamFits = session.flow.receive(stream.window, length);
                stream.receivedLength += data.remaining();
                if (!streamFits) {
                    streamError = ErrorCode.FLOW_CONTROL_ERROR;
                    update = session.windowUpdate(session.flow.credit(length));
                } else if (stream.expectedLength >= 0 && (stream.receivedLength > stream.expectedLength
                        || data.isLast() && stream.receivedLength != stream.expectedLength)) {
                    malformed = lengthProblem(stream);
                    update = session.windowUpdate(session.flow.credit(length));
                } else {
                    if (padding > 0) {
                        update = session.windowUpdate(session.flow.padding(stream.window, padding));
                    }
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
            }
        } finally {
            session.lock.unlock();
        }
        if (data != null) {
            data.release();
        }
        if (connectionError != null) {
            session.failConnection(connectionError, reason);
            return;
        }
        if (malformed != null) {
            session.closer.malformed(stream, message(), malformed);
        } else if (streamError != null) {
            if (stream != null) {
                session.closer.streamError(stream, streamError);
            } else {
                session.closer.resetStreamId(streamId, streamError, true);
            }
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
            session.consumed(stream, dropped);
        }
        if (stop) {
            session.closer.resetStream(stream, ErrorCode.NO_ERROR, false);
        }
    }

    @Override
    public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
        Http2Stream stream;
        boolean opened = false;
        boolean answer = false;
        boolean refused = false;
        boolean refusalCounted = false;
        ErrorCode connectionError = null;
        String reason = null;
        session.lock.lock();
        try {
            if (session.failed()) {
                return;
            }
            stream = session.streams.get(streamId);
            if (stream == null) {
                int lastRemote = session.ids.lastRemote();
                switch (session.ids.onHeaders(streamId)) {
                    // In flight on a stream we reset, a response or trailers: ignored (the parser kept HPACK in step).
                    case IGNORED -> {
                        return;
                    }
                    case CLOSED -> {
                        connectionError = ErrorCode.STREAM_CLOSED;
                        reason = "HEADERS on closed stream " + streamId + " (RFC 9113 section 5.1)";
                    }
                    case NOT_PEERS -> {
                        connectionError = ErrorCode.PROTOCOL_ERROR;
                        reason = "HEADERS opening stream " + streamId + ", which is not the peer's to open (RFC 9113 section 5.1.1)";
                    }
                    case NOT_ABOVE_LAST -> {
                        connectionError = ErrorCode.PROTOCOL_ERROR;
                        reason = "stream " + streamId + " is not above the last stream opened, " + lastRemote + " (RFC 9113 section 5.1.1)";
                    }
                    case NEW -> {
                        if (!session.acceptsStreams()) {
                            return;
                        }
                        if (session.ids.remoteAtLimit()) {
                            refused = true;
                            // Before it acknowledged our SETTINGS the peer may not know our limit yet: refused, not counted.
                            refusalCounted = session.settings.acknowledged();
                        } else {
                            stream = session.openRemote(streamId, endStream ? StreamState.HALF_CLOSED_REMOTE : StreamState.OPEN);
                            opened = true;
                        }
                    }
                }
            } else {
                // The head of a response to a stream we opened, or to one the peer promised us.
                answer = !stream.headersReceived && (!session.ids.isRemote(streamId) || stream.state == StreamState.RESERVED_REMOTE);
            }
        } finally {
            session.lock.unlock();
        }
        if (connectionError != null) {
            session.failConnection(connectionError, reason);
        } else if (refused) {
            session.closer.resetStreamId(streamId, ErrorCode.REFUSED_STREAM, refusalCounted);
        } else if (opened) {
            onRequest(stream, headers, endStream);
        } else if (answer) {
            onAnswer(stream, headers, endStream);
        } else if (stream != null) {
            onTrailers(stream, headers, endStream);
        }
    }

    /** @return what the peer's messages are: requests on a server, responses on a client */
    private String message() {
        return session.role == Http2Session.Role.SERVER ? "request" : "response";
    }

    /** @return how the content that came breaks the stream's {@code content-length}; under the lock */
    private static String lengthProblem(Http2Stream stream) {
        return (stream.receivedLength > stream.expectedLength ? "more DATA than content-length " + stream.expectedLength
                : "content-length " + stream.expectedLength + " but the content ended after " + stream.receivedLength + " octets")
                + " (RFC 9113 section 8.1.1)";
    }

    /**
     * A request that opened a stream (a server's): handed to the session's listener when
     * well-formed, else the stream is reset. A block too large to keep goes to the listener,
     * which answers 431.
     */
    private void onRequest(Http2Stream stream, HeaderBlock headers, boolean endStream) {
        String problem = null;
        if (!headers.tooLarge()) {
            problem = rules.request(headers, session.config.isConnectProtocolEnabled());
            long length = problem == null ? rules.contentLength() : -1;
            if (endStream && length > 0) {
                problem = "content-length " + length + " but END_STREAM on HEADERS (RFC 9113 section 8.1.1)";
            } else if (length >= 0) {
                stream.setExpectedContentLength(length);
            }
        }
        if (problem != null) {
            session.closer.malformed(stream, "request", problem);
            return;
        }
        if (endStream) {
            stream.end();
        }
        session.listener.onStream(stream, headers, endStream);
    }

    /** The peer's head on a stream we opened or it promised: interim (1xx) blocks, then the final one. */
    private void onAnswer(Http2Stream stream, HeaderBlock headers, boolean endStream) {
        String problem = rules.response(headers);
        int status = problem == null ? rules.status() : -1;
        boolean interim = status >= 100 && status < 200;
        long length = -1;
        if (problem == null && interim && endStream) {
            problem = "END_STREAM on a " + status + " response (RFC 9113 section 8.1)";
        } else if (status == 101) {
            problem = "101 Switching Protocols (RFC 9113 section 8.6)";
        } else if (problem == null && !interim && !stream.headRequest && status != 204 && status != 304) {
            // RFC 9113 section 8.1.1: a HEAD's, 204's or 304's content-length describes no content.
            length = rules.contentLength();
            if (endStream && length > 0) {
                problem = "content-length " + length + " but END_STREAM on HEADERS (RFC 9113 section 8.1.1)";
            }
        }
        ErrorCode error = null;
        Runnable wake = null;
        Runnable closed = null;
        session.lock.lock();
        try {
            if (!stream.state.canReceive() && stream.state != StreamState.RESERVED_REMOTE) {
                error = ErrorCode.STREAM_CLOSED;
            } else if (problem == null && !interim) {
                stream.headersReceived = true;
                stream.expectedLength = length;
                stream.state = stream.state.headersReceived();
                if (endStream) {
                    stream.state = stream.state.remoteEnded();
                    wake = stream.end();
                    closed = session.closer.closedIfDone(stream);
                }
            }
        } finally {
            session.lock.unlock();
        }
        if (error != null) {
            session.closer.streamError(stream, error);
            return;
        }
        if (problem != null) {
            session.closer.malformed(stream, "response", problem);
            return;
        }
        Http2Stream.Listener streamListener = stream.listener;
        if (streamListener != null) {
            streamListener.onHeaders(stream, headers, endStream);
        }
        if (wake != null) {
            session.invoker.invoke(wake);
        }
        if (closed != null) {
            closed.run();
        }
    }

    private void onTrailers(Http2Stream stream, HeaderBlock trailers, boolean endStream) {
        String problem = endStream ? rules.trailers(trailers)
                : "trailers without END_STREAM (RFC 9113 section 8.1)";
        ErrorCode error = null;
        Runnable wake = null;
        Runnable closed = null;
        session.lock.lock();
        try {
            if (!stream.state.canReceive()) {
                error = ErrorCode.STREAM_CLOSED;
            } else if (problem == null && stream.expectedLength >= 0 && stream.receivedLength != stream.expectedLength) {
                problem = lengthProblem(stream);
            } else if (problem == null) {
                stream.state = stream.state.remoteEnded();
                wake = stream.end();
                closed = session.closer.closedIfDone(stream);
            }
        } finally {
            session.lock.unlock();
        }
        if (error != null) {
            session.closer.streamError(stream, error);
            return;
        }
        if (problem != null) {
            session.closer.malformed(stream, message(), problem);
            return;
        }
        Http2Stream.Listener streamListener = stream.listener;
        if (streamListener != null) {
            streamListener.onTrailers(stream, trailers);
        }
        if (wake != null) {
            session.invoker.invoke(wake);
        }
        if (closed != null) {
            closed.run();
        }
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
                session.flow.shrink(stream.window, shrink);
            }
        }
    }

    /** Under the lock: applies the peer's settings; @return why they overflow a stream window, or null. */
    String apply(Settings peer) {
        SettingsExchange.Change change = session.settings.apply(peer);
        String overflow = null;
        if (change.windowDelta() != 0) {
            for (Http2Stream stream : session.streams.values()) {
                if (!session.flow.shift(stream.window, change.windowDelta())) {
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

    /**
     * A server's promise, on a client (the parser lets no client send one). With push enabled,
     * the promised stream is reserved and offered to the listener of the stream it came on;
     * refused when over our stream limit, draining, or the stream was reset by us meanwhile.
     */
    @Override
    public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock request) {
        Http2Stream associated;
        Http2Stream promised = null;
        ErrorCode refusal = null;
        String violation = null;
        String malformed = pushProblem(request);
        session.lock.lock();
        try {
            if (session.failed()) {
                return;
            }
            associated = session.streams.get(streamId);
            if (!session.config.isPushEnabled()) {
                violation = "PUSH_PROMISE although push is disabled (RFC 9113 section 8.4)";
            } else if (!session.ids.isNewRemote(promisedStreamId)) {
                violation = "PUSH_PROMISE of stream " + promisedStreamId + ", not a new even stream above "
                        + session.ids.lastRemote() + " (RFC 9113 section 5.1.1)";
            } else if (associated == null ? !session.ids.wasResetByUs(streamId)
                    : session.ids.isRemote(streamId) || !associated.state.canReceive()) {
                violation = "PUSH_PROMISE on stream " + streamId + ", which is neither open nor half closed (local) (RFC 9113 section 6.6)";
            } else {
                session.ids.remoteUsed(promisedStreamId);
                if (associated == null) {
                    // Promised on a stream we reset: its promises in flight are refused.
                    refusal = ErrorCode.CANCEL;
                } else if (!session.acceptsStreams() || session.ids.remoteAtLimit()) {
                    refusal = ErrorCode.REFUSED_STREAM;
                } else {
                    promised = session.openRemote(promisedStreamId, StreamState.RESERVED_REMOTE);
                    promised.headRequest = "HEAD".equals(request.pseudoHeader(":method"));
                }
            }
        } finally {
            session.lock.unlock();
        }
        if (violation != null) {
            session.failConnection(ErrorCode.PROTOCOL_ERROR, violation);
        } else if (refusal != null) {
            session.closer.resetStreamId(promisedStreamId, refusal, false);
        } else if (malformed != null) {
            session.closer.malformed(promised, "pushed request", malformed);
        } else if (associated.listener == null) {
            promised.refuse();
        } else {
            associated.listener.onPush(associated, promised, request);
        }
    }

    /** @return why a promised request is malformed or may not be pushed, or null */
    private String pushProblem(HeaderBlock request) {
        String problem = rules.request(request, false);
        if (problem != null) {
            return problem;
        }
        String method = request.pseudoHeader(":method");
        // RFC 9113 section 8.4: a promise must be of a complete, safe and cacheable request.
        if (!"GET".equals(method) && !"HEAD".equals(method) || request.pseudoHeader(":authority") == null) {
            return "a promise of a request that is not a GET or HEAD with :authority (RFC 9113 section 8.4)";
        }
        return null;
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
                    streamOverflow = !session.flow.grant(stream.window, increment);
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
        if (stream != null) {
            session.closer.streamError(stream, error);
        } else {
            session.closer.resetStreamId(streamId, error, true);
        }
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
