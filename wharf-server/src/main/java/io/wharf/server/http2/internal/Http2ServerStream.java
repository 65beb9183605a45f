package io.wharf.server.http2.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.List;

import io.wharf.http.BadMessageException;
import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.session.Http2Stream;
import io.wharf.http2.session.Http2StreamEndPoint;
import io.wharf.io.Connection;
import io.wharf.io.Content;
import io.wharf.server.Push;
import io.wharf.server.internal.ExchangeResponse;
import io.wharf.server.internal.ProtocolSwitch;
import io.wharf.server.internal.ServerExchange;
import io.wharf.server.internal.ServerStream;
import io.wharf.server.internal.UriMemory;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * HTTP/2's {@link ServerStream}: one request on an {@link Http2Stream}. Its content is read
 * straight from the stream, whose window is credited back as the handler reads; its response
 * goes out as a HEADERS frame (with {@code :status}, the connection-specific fields dropped),
 * DATA, and trailers as a last HEADERS frame; a HEAD response sends its head only. An extended
 * CONNECT (RFC 8441) offers a switch to its {@code :protocol}, answered {@code 200}, after which
 * the stream is the new protocol's endpoint. It is also the callback the exchange completes
 * when the response is done: unread content is then dropped, or the stream reset on failure.
 *
 * <p><b>Threads.</b> Made on the connection's reading thread; the exchange is handled there
 * when the handler tree is NON_BLOCKING, else on the executor; its content is read by one
 * thread at a time. One write at a time from any thread ({@link #claimWrite()}).
 * <b>Buffers.</b> Content chunks are slices of network buffers, owned by whoever reads them;
 * the caller's response buffer is written from as is (DATA frames slice it).
 */
final class Http2ServerStream implements ServerStream, Http2Stream.Listener, Callback {

    private static final VarHandle WRITING;

    static {
        try {
            WRITING = MethodHandles.lookup().findVarHandle(Http2ServerStream.class, "writing", boolean.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final Http2Stream stream;
    private final RequestHead head;
    private final ServerExchange exchange;
    private volatile HttpFields trailers;
    /** Whether a write is under way; set through {@code WRITING}. */
    private volatile boolean writing;

    Http2ServerStream(Http2ServerConnection connection, Http2Stream stream, RequestHead head, boolean endStream) {
        this.stream = stream;
        this.head = head;
        long beginNanos = System.nanoTime();
        this.exchange = new ServerExchange(this, connection, head.method(), isTunnel(head), head.fields(), !endStream,
                beginNanos, beginNanos);
        stream.setListener(this);
    }

    /** @return the exchange this stream serves */
    ServerExchange exchange() {
        return exchange;
    }

    /** @return whether the request is a CONNECT that opens a tunnel to its {@code :authority} (not an extended CONNECT) */
    private static boolean isTunnel(RequestHead head) {
        return HttpMethod.CONNECT.is(head.method()) && head.protocol() == null;
    }

    /** @return the connection, which is the exchange's metadata: not kept in a field of each stream */
    private Http2ServerConnection connection() {
        return (Http2ServerConnection) exchange.getConnectionMetaData();
    }

    // ---- the request's head ----

    @Override
    public String method() {
        return head.method();
    }

    /** @return the {@code :path}, or the {@code :authority} of a CONNECT that opens a tunnel */
    @Override
    public String target() {
        return isTunnel(head) ? head.authority() : head.path();
    }

    @Override
    public HttpFields fields() {
        return head.fields();
    }

    @Override
    public long length() {
        return head.contentLength();
    }

    // ---- the request, before the handlers ----

    /** @return the {@code :authority}, else the {@code Host} field, parsed once per connection while it repeats */
    @Override
    public HostPort authority() {
        String text = head.authority() != null ? head.authority() : head.fields().get(HttpHeader.HOST);
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return connection().authorityOf(text);
        } catch (IllegalArgumentException x) {
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "Bad :authority: " + x.getMessage());
        }
    }

    @Override
    public String scheme() {
        return head.scheme();
    }

    @Override
    public UriMemory uriMemory() {
        return connection().uriMemory();
    }

    @Override
    public boolean intercept(ServerExchange exchange) {
        return false;
    }

    /** @return for an extended CONNECT (RFC 8441), the switch to its {@code :protocol}; else null */
    @Override
    public ProtocolSwitch offerSwitch(ExchangeResponse response) {
        return head.protocol() == null ? null : new ProtocolSwitch(response, List.of(head.protocol()), HttpStatus.OK_200);
    }

    /** @return pushes for a request the client opened (never a pushed one) while its session accepts them */
    @Override
    public Push push() {
        if ((stream.getId() & 1) == 0 || !connection().getSession().isPushEnabled()) {
            return null;
        }
        return this::push;
    }

    /** Promises a GET of {@code pathQuery} on this stream and answers it on the promised stream. */
    private boolean push(String pathQuery, HttpFields headers) {
        if (pathQuery == null || !pathQuery.startsWith("/")) {
            throw new IllegalArgumentException("not an absolute path: " + pathQuery);
        }
        String authority = head.authority() != null ? head.authority() : head.fields().get(HttpHeader.HOST);
        HttpFields.Mutable promise = HttpFields.build(headers.size() + 4);
        promise.add(":method", "GET");
        promise.add(":scheme", head.scheme());
        if (authority != null) {
            promise.add(":authority", authority);
        }
        promise.add(":path", pathQuery);
        HttpFields.Mutable fields = HttpFields.build(headers.size() + 1);
        for (HttpField field : headers) {
            promise.add(field);
            fields.add(field);
        }
        Http2Stream promised = stream.push(promise);
        if (promised == null) {
            return false;
        }
        if (authority != null && !fields.contains(HttpHeader.HOST)) {
            fields.add(HttpHeader.HOST, authority);
        }
        connection().handle(promised, new RequestHead("GET", head.scheme(), authority, pathQuery, fields.asImmutable(), -1), true);
        return true;
    }

    @Override
    public String id() {
        return connection().getId() + "-" + stream.getId();
    }

    // ---- Http2Stream.Listener, on the reading thread ----

    @Override
    public void onTrailers(Http2Stream stream, HeaderBlock block) {
        trailers = block.fields().asImmutable();
    }

    // ---- the request's content ----

    @Override
    public Content.Chunk read() {
        Content.Chunk chunk = stream.read();
        if (chunk == null) {
            exchange.continueIfExpected();
        }
        return chunk;
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        exchange.continueIfExpected();
        stream.demand(onContentAvailable);
    }

    @Override
    public void fail(Throwable cause) {
        stream.fail(cause);
    }

    @Override
    public HttpFields trailers() {
        return trailers;
    }

    /** @return null: a content that breaks HTTP/2's rules resets the stream, and a wrapper's failure is the handler's to answer */
    @Override
    public BadMessageException contentFailure() {
        return null;
    }

    // ---- the response ----

    @Override
    public boolean claimWrite() {
        return WRITING.compareAndSet(this, false, true);
    }

    @Override
    public void writeContinue() {
        writeInterim(HttpStatus.CONTINUE_100, HttpFields.EMPTY, Callback.NOOP);
    }

    @Override
    public void writeInterim(int status, HttpFields fields, Callback callback) {
        HttpFields.Mutable interim = HttpFields.build(fields == null ? 1 : fields.size() + 1);
        interim.add(":status", ResponseHeads.decimal(status));
        if (fields != null) {
            for (HttpField field : fields) {
                interim.add(field);
            }
        }
        stream.headers(interim, false, callback);
    }

    @Override
    public void write(ExchangeResponse response, boolean commit, ByteBuffer content, boolean last, Callback callback) {
        Callback done = new WriteDone(callback);
        // RFC 9110 §15.3.5, §15.4.5: a 204 or 304 has no content, and §8.6 no content-length: what was written is dropped, as over HTTP/1.1.
        boolean noContent = HttpStatus.hasNoBody(response.getStatus());
        boolean headOnly = exchange.isHead() || noContent;
        boolean hasContent = !headOnly && content != null && content.hasRemaining();
        var trailerSupplier = response.getTrailersSupplier();
        HttpFields trailerFields = last && trailerSupplier != null && !headOnly ? trailerSupplier.get() : null;
        boolean endWithTrailers = trailerFields != null;
        if (commit) {
            HttpFields.Mutable headers = response.getHeaders();
            if (noContent) {
                headers.remove(HttpHeader.CONTENT_LENGTH);
            } else if (last && content != null && !headers.contains(HttpHeader.CONTENT_LENGTH) && !endWithTrailers) {
                headers.put(ResponseHeads.contentLengthField(content.remaining()));
            }
            boolean headEnds = last && !hasContent && !endWithTrailers;
            if (headEnds) {
                stream.headers(head(response), true, done);
                return;
            }
            if (hasContent && !endWithTrailers) {
                stream.headersAndData(head(response), content, last, done);
                return;
            }
            stream.headers(head(response), false, Callback.NOOP);
        }
        if (endWithTrailers) {
            if (hasContent) {
                stream.data(content, false, Callback.NOOP);
            }
            stream.headers(trailerFields, true, done);
        } else if (hasContent || last) {
            stream.data(hasContent ? content : null, last, done);
        } else {
            done.succeeded();
        }
    }

    private HttpFields head(ExchangeResponse response) {
        return ResponseHeads.of(response.getStatus(), response.getHeaders(), connection());
    }

    @Override
    public void beforeLastWrite() {
    }

    /** Nothing to do: the connection carries other streams whatever this one does. */
    @Override
    public void closeAfterResponse() {
    }

    /**
     * {@code 200} with the handler's fields, without END_STREAM, then the stream is the endpoint
     * of the connection the handler's factory makes. Content the client sent already waits on
     * the stream for that connection to read.
     */
    @Override
    public void switchProtocols(ProtocolSwitch accepted, ExchangeResponse response) {
        for (HttpField field : accepted.fields()) {
            response.getHeaders().add(field);
        }
        response.setStatus(accepted.openingStatus());
        response.commitWhole();
        stream.headers(head(response), false, Callback.from(InvocationType.NON_BLOCKING, () -> openTunnel(accepted), this::failed));
    }

    private void openTunnel(ProtocolSwitch accepted) {
        Http2StreamEndPoint endPoint = new Http2StreamEndPoint(stream);
        endPoint.setIdleTimeout(connection().getEndPoint().getIdleTimeout());
        Connection next;
        try {
            next = accepted.newConnection(endPoint);
        } catch (Throwable x) {
            endPoint.close(x);
            return;
        }
        endPoint.setConnection(next);
        endPoint.onOpen();
        next.onOpen();
        connection().tunnelOpened(endPoint);
    }

    @Override
    public Callback responseDone() {
        return this;
    }

    // ---- the response is done ----

    /**
     * The response is complete: content nobody read is dropped (and credited back). The rest
     * of a request still coming is read and dropped too, its errors still caught, unless it
     * goes on past a bound: then the session tells the client to stop with NO_ERROR (RFC 9113
     * section 8.1).
     */
    @Override
    public void succeeded() {
        if (!stream.isContentConsumed()) {
            stream.fail(new ExchangeCompleteException(exchange));
        }
    }

    /** The response could not be completed: the stream is reset. */
    @Override
    public void failed(Throwable cause) {
        stream.reset(ErrorCode.INTERNAL_ERROR);
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public String toString() {
        return exchange.toString();
    }

    /** Ends the write: the next may start, then the caller hears. */
    private final class WriteDone implements Callback {
        private final Callback callback;

        WriteDone(Callback callback) {
            this.callback = callback;
        }

        @Override
        public void succeeded() {
            writing = false;
            callback.succeeded();
        }

        @Override
        public void failed(Throwable cause) {
            writing = false;
            callback.failed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return callback.invocationType();
        }
    }

    /**
     * What a read of the request content finds after the exchange completed. Made only when
     * content was still unread or still coming, so it has no stack trace (which
     * would only show the completing thread) and makes its message when asked: filling a stack
     * trace here was over half the bytes allocated per request and a good part of the CPU.
     */
    static final class ExchangeCompleteException extends java.io.IOException {
        private final transient ServerExchange exchange;

        ExchangeCompleteException(ServerExchange exchange) {
            this.exchange = exchange;
        }

        @Override
        public String getMessage() {
            return "the exchange of " + exchange + " is complete";
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
