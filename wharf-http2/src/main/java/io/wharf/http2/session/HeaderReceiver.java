package io.wharf.http2.session;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.hpack.HeaderBlock;

/**
 * The header blocks of an {@link Http2Session}'s reading half (RFC 9113 sections 5.1, 8.1 and
 * 8.4): HEADERS that open a stream (a request, on a server), answer one of ours or one the peer
 * promised (interim heads, then the final one), or end a stream (trailers), and PUSH_PROMISE (on
 * a client). Each is checked by {@link MessageRules}; a malformed message resets its stream, a
 * block on a stream it may not be on is a connection error, and a well-formed one goes to the
 * session's or the stream's listener.
 *
 * <p><b>Threads.</b> Called by the {@link FrameReceiver} on the connection's reading thread only.
 * It takes the session's lock for each change of state and calls listeners without it.
 * <b>Buffers.</b> A {@link HeaderBlock} holds no pooled buffer.
 */
final class HeaderReceiver {

    private final Http2Session session;
    /** Checks the peer's header blocks; this receiver's alone (it keeps what it read of the last one). */
    private final MessageRules rules = new MessageRules();

    HeaderReceiver(Http2Session session) {
        this.session = session;
    }

    /** What a header block is to the session, judged under the lock (RFC 9113 sections 5.1, 5.1.1 and 8.1). */
    private enum HeadersVerdict {
        /** In flight on a stream we reset, or a new stream while we drain: ignored (the parser kept HPACK in step). */
        IGNORED,
        /** On a stream that closed: connection error STREAM_CLOSED. */
        ON_CLOSED_STREAM,
        /** Opening an identifier of ours: connection error PROTOCOL_ERROR. */
        NOT_PEERS,
        /** Opening a peer's identifier not above the last it opened: connection error PROTOCOL_ERROR. */
        NOT_ABOVE_LAST,
        /** A new stream past our limit: REFUSED_STREAM, counted against the reset budget. */
        REFUSED,
        /** A new stream past our limit before the peer acknowledged it: REFUSED_STREAM, not counted. */
        REFUSED_EARLY,
        /** A new stream: its request. */
        REQUEST,
        /** The head of an answer on a stream we opened or the peer promised. */
        ANSWER,
        /** Trailers on a stream held. */
        TRAILERS
    }

    /** A header block on {@code streamId}: a stream the peer opens, the head of an answer, or trailers. */
    void onHeaders(int streamId, HeaderBlock headers, boolean endStream) {
        Http2Stream stream;
        HeadersVerdict verdict;
        int lastRemote;
        session.lock.lock();
        try {
            if (session.failed()) {
                return;
            }
            stream = session.streams.get(streamId);
            lastRemote = session.ids.lastRemote();
            verdict = stream == null ? judgeUnknown(streamId) : isAnswer(stream) ? HeadersVerdict.ANSWER : HeadersVerdict.TRAILERS;
            if (verdict == HeadersVerdict.REQUEST) {
                stream = session.openRemote(streamId, endStream ? StreamState.HALF_CLOSED_REMOTE : StreamState.OPEN);
            }
        } finally {
            session.lock.unlock();
        }
        switch (verdict) {
            case IGNORED -> { }
            case ON_CLOSED_STREAM -> session.failConnection(ErrorCode.STREAM_CLOSED,
                    "HEADERS on closed stream " + streamId + " (RFC 9113 section 5.1)");
            case NOT_PEERS -> session.failConnection(ErrorCode.PROTOCOL_ERROR,
                    "HEADERS opening stream " + streamId + ", which is not the peer's to open (RFC 9113 section 5.1.1)");
            case NOT_ABOVE_LAST -> session.failConnection(ErrorCode.PROTOCOL_ERROR,
                    "stream " + streamId + " is not above the last stream opened, " + lastRemote + " (RFC 9113 section 5.1.1)");
            case REFUSED, REFUSED_EARLY -> session.closer.resetStreamId(streamId, ErrorCode.REFUSED_STREAM, verdict == HeadersVerdict.REFUSED);
            case REQUEST -> onRequest(stream, headers, endStream);
            case ANSWER -> onAnswer(stream, headers, endStream);
            case TRAILERS -> onTrailers(stream, headers, endStream);
        }
    }

    /** Under the lock: what a header block on a stream the session does not hold is; a new stream's identifier is now the peer's last. */
    private HeadersVerdict judgeUnknown(int streamId) {
        return switch (session.ids.onHeaders(streamId)) {
            case IGNORED -> HeadersVerdict.IGNORED;
            case CLOSED -> HeadersVerdict.ON_CLOSED_STREAM;
            case NOT_PEERS -> HeadersVerdict.NOT_PEERS;
            case NOT_ABOVE_LAST -> HeadersVerdict.NOT_ABOVE_LAST;
            // Before it acknowledged our SETTINGS the peer may not know our limit yet: refused, not counted.
            case NEW -> session.isDraining() ? HeadersVerdict.IGNORED
                    : !session.ids.remoteAtLimit() ? HeadersVerdict.REQUEST
                    : session.settings.acknowledged() ? HeadersVerdict.REFUSED : HeadersVerdict.REFUSED_EARLY;
        };
    }

    /** Under the lock: whether a block on {@code stream} is the head of a response to a stream we opened, or to one the peer promised us. */
    private boolean isAnswer(Http2Stream stream) {
        return !stream.headersReceived && (!session.ids.isRemote(stream.getId()) || stream.state == StreamState.RESERVED_REMOTE);
    }

    /** @return what the peer's messages are: requests on a server, responses on a client */
    String message() {
        return session.role == Http2Session.Role.SERVER ? "request" : "response";
    }

    /** @return how the content that came breaks the stream's {@code content-length}; under the lock */
    static String lengthProblem(Http2Stream stream) {
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
        if (rejected(stream, error, "response", problem)) {
            return;
        }
        Http2Stream.Listener streamListener = stream.listener;
        if (streamListener != null) {
            streamListener.onHeaders(stream, headers, endStream);
        }
        ended(wake, closed);
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
        if (rejected(stream, error, message(), problem)) {
            return;
        }
        Http2Stream.Listener streamListener = stream.listener;
        if (streamListener != null) {
            streamListener.onTrailers(stream, trailers);
        }
        ended(wake, closed);
    }

    /**
     * After the lock: answers a block on a stream that may no longer receive ({@code error}) or a
     * malformed one ({@code problem}). @return whether it was either, and nothing more is to be done
     */
    private boolean rejected(Http2Stream stream, ErrorCode error, String message, String problem) {
        if (error != null) {
            session.closer.streamError(stream, error);
            return true;
        }
        if (problem != null) {
            session.closer.malformed(stream, message, problem);
            return true;
        }
        return false;
    }

    /** After the lock and the listener: wakes the reader of content that ended, then forgets the stream if it closed. */
    private void ended(Runnable wake, Runnable closed) {
        if (wake != null) {
            session.invoker.invoke(wake);
        }
        if (closed != null) {
            closed.run();
        }
    }

    /**
     * A server's promise, on a client (the parser lets no client send one). With push enabled,
     * the promised stream is reserved and offered to the listener of the stream it came on;
     * refused when over our stream limit, draining, or the stream was reset by us meanwhile.
     */
    void onPushPromise(int streamId, int promisedStreamId, HeaderBlock request) {
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
                } else if (session.isDraining() || session.ids.remoteAtLimit()) {
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
}
