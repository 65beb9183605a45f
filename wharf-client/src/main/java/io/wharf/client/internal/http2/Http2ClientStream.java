package io.wharf.client.internal.http2;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.wharf.client.Request;
import io.wharf.client.Response;
import io.wharf.client.internal.Conversation;
import io.wharf.client.internal.HttpExchange;
import io.wharf.client.internal.HttpRequest;
import io.wharf.client.internal.content.DemandGate;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.http.MetaData;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.session.Http2Stream;
import io.wharf.http2.session.StreamNotProcessedException;
import io.wharf.http2.session.StreamResetException;
import io.wharf.io.Content;
import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.Scheduler;

/**
 * One exchange carried on one HTTP/2 stream: the request's head becomes a HEADERS frame
 * (pseudo-headers, lower-case names, no connection-specific fields), its content DATA frames
 * sent by an {@link Http2RequestContent} under flow control, and the server's header blocks,
 * DATA and trailers become the same response events, with demand, as HTTP/1.1 tells.
 *
 * <pre>
 *  start ─► HEADERS (+ DATA...) ─► request side over
 *  Expect: 100-continue: HEADERS ─► 100 ─► DATA... | final response first ─► content unsent, request failed, stream reset
 *  onHeaders: 1xx ─► informational | final ─► begin, header*, headers ─► content with demand ─► trailers ─► success
 *  onReset: not processed (GOAWAY, REFUSED_STREAM) ─► sent again elsewhere when allowed | failure
 * </pre>
 *
 * <p><b>Reading with demand.</b> Content is read from the stream (a {@code Content.Source})
 * one chunk at a time, and the next only once the listeners demanded: the session credits the
 * server's window only for what was read, so a slow listener holds the server back
 * (back-pressure end to end). The state is a {@link DemandGate}, as in {@code Http1Connection}.
 *
 * <p><b>Threads.</b> {@link #start} runs on the sending thread; the session's events come on
 * the connection's reading thread; demand may come from any thread. <b>Buffers.</b> Each chunk
 * read is owned here until the listeners returned, then released (a listener that keeps it retains it).
 */
final class Http2ClientStream implements Http2Stream.Listener {

    private final Http2ClientConnection connection;
    private final HttpExchange exchange;
    private final HttpRequest request;
    /** Whether the server pushed this exchange: it is never sent, so never sent again. */
    private final boolean pushed;
    private static final Object WAITING = "waiting";
    private static final Object CONTINUED = "continued";
    private static final Object ANSWERED = "answered";
    private static final Object ENDED = "ended";
    private final Runnable read = Invocable.task(InvocationType.NON_BLOCKING, this::read);
    private final DemandGate reading = new DemandGate(DemandGate.State.RUNNING, this::read);
    private final Runnable demand = reading::demand;
    private volatile Http2Stream stream;
    /** When something last moved for this exchange (System.nanoTime), for its own idle timeout. */
    private volatile long lastActivity = System.nanoTime();
    private volatile Scheduler.Task idleCheck;
    private volatile Throwable refusal;
    /** Whether this stream's connection had carried a whole response before it: a stale connection may close under it. */
    private volatile boolean reused;
    /** Whether the server sent a header block on this stream (interim or final): it saw the request. */
    private volatile boolean answered;
    /** Set once this stream is done with its exchange (over, or sent again elsewhere): the idle check stops. */
    private volatile boolean idleOver;
    /**
     * Null without {@code Expect: 100-continue}; with it {@link #WAITING}, then the content's
     * sender parked by {@link #start} until the 100 comes, {@link #CONTINUED} once it came,
     * {@link #ANSWERED} when a final response came first (the content is then never sent), or
     * {@link #ENDED} when the exchange ended (aborted, timed out) while the content waited.
     */
    private final AtomicReference<Object> continueGate = new AtomicReference<>();

    Http2ClientStream(Http2ClientConnection connection, HttpExchange exchange) {
        this(connection, exchange, false);
    }

    private Http2ClientStream(Http2ClientConnection connection, HttpExchange exchange, boolean pushed) {
        this.connection = connection;
        this.exchange = exchange;
        this.request = exchange.getRequest();
        this.pushed = pushed;
    }

    /** Sends the request's head, and starts sending its content. On the sending thread. */
    void start() {
        Duration idle = exchange.idleTimeout();
        if (idle != null) {
            scheduleIdleCheck(idle.toNanos());
        }
        reused = connection.hasResponded();
        exchange.requestBegin();
        MetaData.Request head = exchange.requestHead();
        boolean endStream = request.getContent() == null;
        HttpFields fields = requestFields(head, connection.destination().getOrigin().scheme());
        boolean awaitContinue = !endStream && head.fields().contains(HttpHeader.EXPECT, HttpHeaderValue.CONTINUE.asString());
        if (awaitContinue) {
            // Before the HEADERS go: the 100 may come before newStream() returns.
            continueGate.set(WAITING);
        }
        exchange.requestHeaders();
        Http2Stream opened = connection.session().newStream(fields, endStream, this, Callback.from(InvocationType.NON_BLOCKING,
                () -> headersWritten(endStream), this::refused));
        if (opened == null) {
            retryOrFail(refusal);
            return;
        }
        stream = opened;
        if (exchange.isResponseOver() && !exchange.isResponseSucceeded()) {
            // Aborted while the stream was being opened: the abort found no stream to reset. A
            // response that arrived whole meanwhile is no abort: the content goes as it would
            // have had the response come a moment later (RFC 9113 section 8.1).
            opened.reset(ErrorCode.CANCEL);
            if (awaitContinue) {
                Object before = continueGate.getAndSet(ENDED);
                if (before == WAITING || before == ENDED) {
                    // Whichever of this and the abort's cancel() comes second lets the content go.
                    failUnsentContent();
                }
            }
            return;
        }
        if (!endStream) {
            Http2RequestContent sender = new Http2RequestContent(this, opened, request, connection.getExecutor());
            if (!awaitContinue) {
                sender.start();
                return;
            }
            Object before = continueGate.compareAndExchange(WAITING, sender);
            if (before == CONTINUED) {
                sender.start();
            } else if (before == ENDED) {
                failUnsentContent();
            }
            // Else parked until the 100, or never sent (ANSWERED): the final response tells the exchange.
        }
    }

    HttpExchange exchange() {
        return exchange;
    }

    private void headersWritten(boolean endStream) {
        active();
        exchange.requestCommitted();
        if (endStream) {
            requestWritten();
        }
    }

    /**
     * The HEADERS were not written: the session refused the stream (start() then tells the
     * exchange), or dropped them with the stream (whose reset tells it). Inline in newStream() when refused.
     */
    private void refused(Throwable cause) {
        refusal = cause;
    }

    /** The whole request was written. */
    void requestWritten() {
        if (exchange.requestSucceeded()) {
            tryFinish();
        }
    }

    /** Ends the exchange by resetting its stream with CANCEL: an abort. Any thread. */
    void cancel() {
        connection.forget(exchange);
        letParkedContentGo();
        Http2Stream current = stream;
        if (current != null) {
            current.reset(ErrorCode.CANCEL);
        }
    }

    /** Fails the exchange with {@code cause} and resets the stream (a timeout). Any thread. */
    void fail(Throwable cause) {
        if (stoppedAfterResponse(cause)) {
            return;
        }
        if (exchange.fail(cause)) {
            cancel();
            tryFinish();
        }
    }

    // ---- the response, on the reading thread ----

    @Override
    public void onHeaders(Http2Stream from, HeaderBlock headers, boolean endStream) {
        // The answer may come before newStream() returned to the sending thread.
        stream = from;
        answered = true;
        active();
        if (exchange.isResponseOver()) {
            // Aborted or timed out: nothing more is told, and the stream goes.
            from.reset(ErrorCode.CANCEL);
            return;
        }
        // The session let only a well-formed head through: one :status of three digits.
        int status = Integer.parseInt(headers.pseudoHeader(":status"));
        if (HttpStatus.isInformational(status)) {
            exchange.responseInformational(HttpVersion.HTTP_2, status, null, headers.fields());
            if (status == HttpStatus.CONTINUE_100 && continueGate.getAndSet(CONTINUED) instanceof Http2RequestContent sender) {
                sender.start();
            }
            return;
        }
        // A final response before the 100: the content waiting for it is never sent.
        continueGate.getAndUpdate(before -> before == null || before == CONTINUED ? before : ANSWERED);
        exchange.responseBegin(HttpVersion.HTTP_2, status, null);
        for (HttpField field : headers.fields()) {
            exchange.responseHeader(field);
        }
        exchange.responseHeaders();
        if (endStream) {
            responseComplete();
            return;
        }
        // The session holds the content to the content-length, and reset a malformed response before it came here.
        read();
    }

    /** Reads and delivers content until the listeners stop demanding or none is there. The loop's thread (RUNNING). */
    private void read() {
        while (true) {
            if (exchange.isResponseOver()) {
                return;
            }
            Content.Chunk chunk = stream.read();
            if (chunk == null) {
                stream.demand(read);
                return;
            }
            if (chunk.getFailure() != null) {
                // The stream was reset: onReset tells the exchange.
                return;
            }
            active();
            if (chunk.hasRemaining() && !deliver(chunk)) {
                return;
            }
            if (chunk.isLast()) {
                responseComplete();
                return;
            }
        }
    }

    /** @return false when the listeners did not demand more: the loop stalls until they do */
    private boolean deliver(Content.Chunk chunk) {
        reading.delivering();
        try {
            exchange.responseContent(chunk, demand);
        } finally {
            chunk.release();
        }
        return reading.delivered();
    }

    /**
     * The server promised {@code promise} along with this exchange: the request's push listener
     * takes it (its response then comes on {@code promised} like any other) or refuses it.
     */
    @Override
    public void onPush(Http2Stream from, Http2Stream promised, HeaderBlock promise) {
        Function<Request, Response.Listener> pushes = request.getPushListener();
        Response.Listener listener = null;
        HttpRequest pushedRequest = null;
        if (pushes != null && !exchange.isResponseOver()) {
            try {
                pushedRequest = pushedRequest(promise);
                listener = pushes.apply(pushedRequest);
            } catch (RuntimeException x) {
                listener = null;
            }
        }
        if (listener == null) {
            promised.refuse();
            return;
        }
        HttpExchange pushedExchange = new HttpExchange(connection.destination(), pushedRequest,
                List.of(Conversation.pushed(connection.context(), pushedRequest, listener)));
        pushedExchange.requestSucceeded();
        promised.setListener(new Http2ClientStream(connection, pushedExchange, true));
    }

    /** @return the request a PUSH_PROMISE carries, as a request of this client */
    private HttpRequest pushedRequest(HeaderBlock promise) {
        URI uri = URI.create(promise.pseudoHeader(":scheme") + "://" + promise.pseudoHeader(":authority") + promise.pseudoHeader(":path"));
        HttpRequest promised = (HttpRequest) connection.context().newRequest(uri).method(promise.pseudoHeader(":method"));
        promise.fields().forEach(field -> promised.header(field.getName(), field.getValue()));
        return promised;
    }

    @Override
    public void onTrailers(Http2Stream from, HeaderBlock trailers) {
        trailers.fields().forEach(exchange::responseTrailer);
    }

    private void responseComplete() {
        if (!exchange.responseSucceeded()) {
            return;
        }
        connection.responded();
        if (continueGate.get() == ANSWERED) {
            IOException unsent = exchange.contentNotSentBeforeContinue();
            if (exchange.fail(unsent)) {
                request.getContent().fail(unsent);
                // Our side of the stream is still open: it goes, and the connection carries on.
                cancel();
            }
        }
        tryFinish();
    }

    @Override
    public void onReset(Http2Stream from, ErrorCode error, Throwable cause) {
        stream = from;
        if (!stoppedAfterResponse(cause)) {
            retryOrFail(cause);
        }
    }

    /**
     * RFC 9113 section 8.1: a server that answered in full may reset the stream with NO_ERROR to
     * stop the request; the response stands and the request side ends there, what is left of its
     * content unsent.
     *
     * @return whether {@code cause} is that reset (the exchange then finishes)
     */
    private boolean stoppedAfterResponse(Throwable cause) {
        if (!(cause instanceof StreamResetException reset) || reset.getError() != ErrorCode.NO_ERROR || !exchange.isResponseSucceeded()) {
            return false;
        }
        if (exchange.requestSucceeded() && request.getContent() != null) {
            request.getContent().fail(cause);
        }
        tryFinish();
        return true;
    }

    /**
     * The stream ended early: sent again on another connection when that is safe (see
     * {@link HttpExchange#prepareRetry}) and the server did not process it (GOAWAY or
     * REFUSED_STREAM) or, as HTTP/1.1 does with a stale keep-alive connection, a reused
     * connection was closed by the server without a GOAWAY before it answered; else failed.
     */
    private void retryOrFail(Throwable cause) {
        boolean stale = reused && !answered && connection.closedByServerWithoutGoAway();
        if (!pushed && (cause instanceof StreamNotProcessedException || stale) && exchange.prepareRetry()) {
            cancelIdleCheck();
            connection.forget(exchange);
            connection.destination().resend(exchange);
            return;
        }
        boolean sending = !exchange.isRequestOver();
        exchange.fail(cause);
        if (sending && request.getContent() != null) {
            // Unblocks a read blocked in the source, and stops a streaming source.
            request.getContent().fail(cause);
        }
        tryFinish();
    }

    /** Ends the exchange once both sides are over: its hold on the connection goes back first. Any thread. */
    void tryFinish() {
        if (!exchange.tryComplete()) {
            return;
        }
        cancelIdleCheck();
        connection.forget(exchange);
        letParkedContentGo();
        exchange.complete();
    }

    /** The exchange ended while its content waited for the 100 (aborted, timed out): the content is let go, unread. */
    private void letParkedContentGo() {
        Object before = continueGate.getAndUpdate(gate -> gate == WAITING || gate instanceof Http2RequestContent ? ENDED : gate);
        if (before instanceof Http2RequestContent) {
            failUnsentContent();
        }
        // WAITING: start() has not parked the content yet, and lets it go when it finds ENDED.
    }

    private void failUnsentContent() {
        request.getContent().fail(new IOException("the exchange of " + request + " ended before the server's 100 Continue"));
    }

    private void cancelIdleCheck() {
        idleOver = true;
        Scheduler.Task check = idleCheck;
        if (check != null) {
            check.cancel();
        }
    }

    /** Something moved for this exchange: its idle timeout starts again. */
    void active() {
        lastActivity = System.nanoTime();
    }

    /**
     * The request's own idle timeout, as HTTP/1.1 has it: the exchange fails with a
     * {@link TimeoutException} (and its stream is reset) once nothing moved for it that long;
     * the connection and its other exchanges go on.
     */
    private void scheduleIdleCheck(long idleNanos) {
        if (idleOver) {
            return;
        }
        long left = idleNanos - (System.nanoTime() - lastActivity);
        if (left > 0) {
            idleCheck = connection.context().scheduler().schedule(() -> scheduleIdleCheck(idleNanos), left, TimeUnit.NANOSECONDS);
            return;
        }
        fail(new TimeoutException("idle timeout of " + TimeUnit.NANOSECONDS.toMillis(idleNanos) + " ms elapsed for " + request));
    }

    /**
     * @return the HEADERS fields of {@code head}: the pseudo-headers, then its fields with lower-case
     *     names, without those HTTP/2 forbids (RFC 9113 section 8.2.2; {@code te} only as {@code trailers})
     */
    static HttpFields requestFields(MetaData.Request head, String scheme) {
        HttpFields.Mutable fields = HttpFields.build(head.fields().size() + 5);
        String authority = head.fields().get(HttpHeader.HOST);
        fields.add(":method", head.method());
        fields.add(":scheme", scheme);
        if (authority != null) {
            fields.add(":authority", authority);
        }
        fields.add(":path", head.target());
        boolean length = false;
        for (HttpField field : head.fields()) {
            HttpHeader known = field.getHeader();
            if (known == HttpHeader.HOST || isConnectionSpecific(field)) {
                continue;
            }
            if (known == HttpHeader.TE) {
                if (field.contains("trailers")) {
                    fields.add("te", "trailers");
                }
                continue;
            }
            length |= known == HttpHeader.CONTENT_LENGTH;
            fields.add(field.getName().toLowerCase(Locale.ROOT), field.getValue());
        }
        if (!length && head.contentLength() >= 0) {
            fields.add("content-length", Long.toString(head.contentLength()));
        }
        return fields;
    }

    private static boolean isConnectionSpecific(HttpField field) {
        HttpHeader known = field.getHeader();
        return known == HttpHeader.CONNECTION || known == HttpHeader.KEEP_ALIVE || known == HttpHeader.PROXY_CONNECTION
                || known == HttpHeader.TRANSFER_ENCODING || known == HttpHeader.UPGRADE
                || known == null && field.is("proxy-connection");
    }

    @Override
    public String toString() {
        Http2Stream current = stream;
        return "Http2ClientStream[" + (current == null ? "-" : current.getId()) + ", " + exchange + "]";
    }
}
