package io.wharf.server.handler.log;

import io.wharf.server.Request;
import io.wharf.server.Response;

/**
 * Records completed requests, one call per request. {@link RequestLogHandler} calls
 * {@link #log} on the thread that completes the request's callback — possibly a selector
 * thread — while the request's headers are still valid, so an implementation must copy what
 * it needs and must never block: it hands slow work (formatting aside) to its own thread, as
 * {@link NcsaRequestLog} does. An implementation that is a lifecycle is started and stopped
 * with the handler that holds it.
 */
@FunctionalInterface
public interface RequestLog {

    /**
     * How a request ended, which neither the request nor the response tells.
     *
     * @param status the status sent (500 when the handling failed before committing)
     * @param bytesWritten the response content bytes the handler wrote
     * @param durationNanos from the request's first byte to the completion of its callback
     * @param failure why the handling failed, or null when it succeeded
     */
    record Outcome(int status, long bytesWritten, long durationNanos, Throwable failure) {
    }

    /**
     * Records one completed request. Must not block and should not throw; what it throws is
     * logged and ignored.
     *
     * @param request the request; read it now, it is recycled after this call returns
     * @param response the response, committed (or failed)
     * @param outcome the status, bytes and duration
     */
    void log(Request request, Response response, Outcome outcome);
}
