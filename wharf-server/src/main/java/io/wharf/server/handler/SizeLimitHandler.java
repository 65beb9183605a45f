package io.wharf.server.handler;

import java.nio.ByteBuffer;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;
import io.wharf.io.Content;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * A handler wrapper that bounds the content of requests and responses. Its invocation type is
 * its child's.
 *
 * <p><b>Requests.</b> With {@code maxRequestBytes} of 0 or more:
 * <ul>
 * <li>a request whose {@code Content-Length} is larger is answered 413 at once; the child
 *     does not run, the content is not read and the connection is not reused;</li>
 * <li>otherwise (chunked content, or a length that lies) the child reads through a counting
 *     source: the read that takes the count past the limit returns a failure chunk carrying a
 *     {@link BadMessageException} 413 instead of its bytes, and the content underneath is
 *     failed. Unless the child commits a response of its own, the answer is 413 — whether it
 *     fails its callback, throws, or succeeds without writing.</li>
 * </ul>
 * The count is of the bytes the child reads: placed inside a
 * {@link io.wharf.server.handler.gzip.GzipHandler GzipHandler}, it bounds inflated content;
 * outside, compressed content.
 *
 * <p><b>Responses.</b> With {@code maxResponseBytes} of 0 or more, a write that would take the
 * content past the limit — or the first write of a response whose declared
 * {@code Content-Length} is larger — is refused: its callback fails with an
 * {@link IllegalStateException} naming the limit and none of its bytes are written. If the
 * response is not committed yet the answer becomes a 500; if it is, the exchange fails and
 * the connection is aborted, so the client sees a truncated response rather than a complete
 * one. This holds even when the child ignores the failed write and succeeds its callback.
 *
 * <p><b>Threads and buffers.</b> Configure before starting; {@code handle} runs on the
 * child's thread and the wrappers are used as {@link Request} and {@link Response} say. No
 * buffers are borrowed: chunks pass through to the child, who releases them, and a chunk over
 * the limit is released here. Counters are per request.
 */
public class SizeLimitHandler extends Handler.Wrapper {

    private volatile long maxRequestBytes;
    private volatile long maxResponseBytes;

    /**
     * @param maxRequestBytes the most request content bytes, or -1 for no limit
     * @param maxResponseBytes the most response content bytes, or -1 for no limit
     * @throws IllegalArgumentException when a limit is below -1
     */
    public SizeLimitHandler(long maxRequestBytes, long maxResponseBytes) {
        setMaxRequestBytes(maxRequestBytes);
        setMaxResponseBytes(maxResponseBytes);
    }

    /** As {@link #SizeLimitHandler(long, long)}, wrapping {@code handler}. */
    public SizeLimitHandler(long maxRequestBytes, long maxResponseBytes, Handler handler) {
        this(maxRequestBytes, maxResponseBytes);
        setHandler(handler);
    }

    /** @return the most request content bytes, -1 for no limit */
    public long getMaxRequestBytes() {
        return maxRequestBytes;
    }

    /** @throws IllegalArgumentException when {@code maxRequestBytes} is below -1 */
    public void setMaxRequestBytes(long maxRequestBytes) {
        if (maxRequestBytes < -1) {
            throw new IllegalArgumentException("maxRequestBytes must be -1 (no limit) or more, was " + maxRequestBytes);
        }
        this.maxRequestBytes = maxRequestBytes;
    }

    /** @return the most response content bytes, -1 for no limit */
    public long getMaxResponseBytes() {
        return maxResponseBytes;
    }

    /** @throws IllegalArgumentException when {@code maxResponseBytes} is below -1 */
    public void setMaxResponseBytes(long maxResponseBytes) {
        if (maxResponseBytes < -1) {
            throw new IllegalArgumentException("maxResponseBytes must be -1 (no limit) or more, was " + maxResponseBytes);
        }
        this.maxResponseBytes = maxResponseBytes;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler child = getHandler();
        if (child == null) {
            return false;
        }
        long maxRequest = maxRequestBytes;
        long maxResponse = maxResponseBytes;
        if (maxRequest < 0 && maxResponse < 0) {
            return child.handle(request, response, callback);
        }
        if (maxRequest >= 0 && declaredLength(request) > maxRequest) {
            BadMessageException tooLarge = requestTooLarge(maxRequest);
            // Fail the content so that it is not read just to be dropped: the connection closes.
            request.fail(tooLarge);
            Response.writeError(request, response, callback, tooLarge.getStatus(), tooLarge.getReason());
            return true;
        }
        LimitedRequest limitedRequest = new LimitedRequest(request, maxRequest);
        LimitedResponse limitedResponse = maxResponse >= 0 ? new LimitedResponse(limitedRequest, response, maxResponse) : null;
        Completion completion = new Completion(limitedRequest, response, limitedResponse, callback);
        // A 413 from the content reaches the server's exchange through fail(), which answers it.
        return child.handle(limitedRequest, limitedResponse != null ? limitedResponse : response, completion);
    }

    /** @return the request's Content-Length, -1 when absent (the parser has checked that it is a number) */
    private static long declaredLength(Request request) {
        try {
            return request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        } catch (NumberFormatException x) {
            return -1;
        }
    }

    private static BadMessageException requestTooLarge(long max) {
        return new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413, "request content is larger than " + max + " bytes");
    }

    @Override
    public String toString() {
        return "SizeLimitHandler@" + Integer.toHexString(hashCode()) + "[request=" + maxRequestBytes + ", response=" + maxResponseBytes + "]";
    }

    /** A request whose content source counts the bytes read and fails past the limit (none when negative). */
    private static final class LimitedRequest extends Request.Wrapper {
        private final long max;
        private long read;
        private volatile BadMessageException failure;

        LimitedRequest(Request wrapped, long max) {
            super(wrapped);
            this.max = max;
        }

        @Override
        public Content.Chunk read() {
            BadMessageException failed = failure;
            if (failed != null) {
                return Content.Chunk.from(failed);
            }
            Content.Chunk chunk = super.read();
            if (chunk == null || max < 0 || chunk.getFailure() != null) {
                return chunk;
            }
            read += chunk.remaining();
            if (read <= max) {
                return chunk;
            }
            chunk.release();
            failed = requestTooLarge(max);
            failure = failed;
            super.fail(failed);
            return Content.Chunk.from(failed);
        }

        @Override
        public void demand(Runnable onContentAvailable) {
            if (failure != null) {
                onContentAvailable.run();
            } else {
                super.demand(onContentAvailable);
            }
        }

        /** @return the 413 the content failed with, or null */
        BadMessageException getFailure() {
            return failure;
        }
    }

    /** A response that refuses writes past the limit and remembers that it did. */
    private static final class LimitedResponse extends Response.Wrapper {
        private final long max;
        private long written;
        private volatile IllegalStateException failure;

        LimitedResponse(Request request, Response wrapped, long max) {
            super(request, wrapped);
            this.max = max;
        }

        @Override
        public void write(boolean last, ByteBuffer buffer, Callback callback) {
            long size = buffer == null ? 0 : buffer.remaining();
            long declared = isCommitted() ? -1 : declaredLength();
            if (failure == null && (declared > max || written + size > max)) {
                failure = new IllegalStateException("response content is larger than " + max + " bytes");
            }
            IllegalStateException failed = failure;
            if (failed != null) {
                callback.failed(failed);
                return;
            }
            written += size;
            super.write(last, buffer, callback);
        }

        private long declaredLength() {
            try {
                return getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
            } catch (NumberFormatException x) {
                return -1;
            }
        }

        /** @return the failure of a write over the limit, or null */
        IllegalStateException getFailure() {
            return failure;
        }
    }

    /**
     * The callback handed to the child: answers 500 when the response went over its limit,
     * unless a response was committed; a committed response over its limit fails the
     * exchange. Request content over its limit needs nothing here: the content source failed
     * the request with 413, and the server answers that when no response was committed.
     */
    private static final class Completion implements Callback {
        private final LimitedRequest request;
        private final Response response;
        private final LimitedResponse limitedResponse;
        private final Callback callback;

        Completion(LimitedRequest request, Response response, LimitedResponse limitedResponse, Callback callback) {
            this.request = request;
            this.response = response;
            this.limitedResponse = limitedResponse;
            this.callback = callback;
        }

        @Override
        public void succeeded() {
            IllegalStateException overLimit = limitedResponse == null ? null : limitedResponse.getFailure();
            if (overLimit != null && (request.getFailure() == null || response.isCommitted())) {
                // Uncommitted: a 500; committed: the callback fails and the exchange is aborted.
                Response.writeError(request.getWrapped(), response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, overLimit.getMessage(), overLimit);
            } else {
                callback.succeeded();
            }
        }

        @Override
        public void failed(Throwable cause) {
            callback.failed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return callback.invocationType();
        }
    }
}
