package io.wharf.server.handler.log;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.http.HttpStatus;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A handler that logs every request its child handles to a {@link RequestLog}, once, when
 * the request's callback completes: with the status, the response content bytes the child
 * wrote and the duration. Put it near the root of the tree.
 *
 * <p>So that every request is logged, this handler takes every request: when there is no
 * child or the child does not take the request, it answers 404 itself (a handler after it in
 * a {@link Handler.Sequence} is never asked). When the child throws, the request is logged
 * with status 500 and the exception is rethrown for the server to answer.
 *
 * <p><b>Threads.</b> The log is called on the thread that completes the callback, before the
 * callback is passed on; {@link RequestLog} implementations never block. A log that is a
 * lifecycle and not yet running is a managed bean: it starts and stops with this handler (one
 * already running is left to whoever started it). The invocation type is the child's.
 */
public class RequestLogHandler extends Handler.Wrapper {

    private static final Logger LOG = LoggerFactory.getLogger(RequestLogHandler.class);

    private final RequestLog requestLog;

    public RequestLogHandler(RequestLog requestLog) {
        this.requestLog = Objects.requireNonNull(requestLog, "requestLog");
        addBean(requestLog);
    }

    public RequestLogHandler(RequestLog requestLog, Handler handler) {
        this(requestLog);
        setHandler(handler);
    }

    /** @return the log written to */
    public RequestLog getRequestLog() {
        return requestLog;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        LoggedExchange exchange = new LoggedExchange(request, response, callback);
        Handler child = getHandler();
        boolean taken;
        try {
            taken = child != null && child.handle(request, exchange.response, exchange);
        } catch (Throwable x) {
            exchange.log(x);
            throw x;
        }
        if (!taken) {
            Response.writeError(request, exchange.response, exchange, HttpStatus.NOT_FOUND_404, null);
        }
        return true;
    }

    @Override
    public InvocationType invocationType() {
        Handler child = getHandler();
        return child == null ? InvocationType.NON_BLOCKING : child.invocationType();
    }

    /** The callback the child completes: logs once, then passes the completion on. */
    private final class LoggedExchange implements Callback {
        private final AtomicBoolean logged = new AtomicBoolean();
        private final AtomicLong bytesWritten = new AtomicLong();
        private final Request request;
        private final Response response;
        private final Callback callback;

        LoggedExchange(Request request, Response response, Callback callback) {
            this.request = request;
            this.callback = callback;
            this.response = new Response.Wrapper(request, response) {
                @Override
                public void write(boolean last, ByteBuffer buffer, Callback writeCallback) {
                    if (buffer != null) {
                        bytesWritten.addAndGet(buffer.remaining());
                    }
                    super.write(last, buffer, writeCallback);
                }
            };
        }

        void log(Throwable failure) {
            if (!logged.compareAndSet(false, true)) {
                return;
            }
            int status = failure != null && !response.isCommitted() ? HttpStatus.INTERNAL_SERVER_ERROR_500 : response.getStatus();
            long duration = Math.max(0, System.nanoTime() - request.getBeginNanoTime());
            try {
                requestLog.log(request, response, new RequestLog.Outcome(status, bytesWritten.get(), duration, failure));
            } catch (Throwable x) {
                LOG.warn("{} failed to log {}", requestLog, request, x);
            }
        }

        @Override
        public void succeeded() {
            log(null);
            callback.succeeded();
        }

        @Override
        public void failed(Throwable cause) {
            log(cause);
            callback.failed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return callback.invocationType();
        }
    }
}
