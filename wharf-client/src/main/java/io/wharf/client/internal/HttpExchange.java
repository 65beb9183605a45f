package io.wharf.client.internal;

import java.io.IOException;

import java.util.List;

import io.wharf.client.Response;
import io.wharf.client.Result;
import io.wharf.http.HttpMethod;

/**
 * One request and its response on their way: queued in a destination, then carried by one
 * connection (or, after a retry, another). It decides, under its own small lock, when each
 * side is over and when the whole exchange is, so that every outcome is told exactly once
 * whoever gets there first — the reading thread, the writing thread, a timeout, an abort.
 *
 * <pre>
 *  request side:  PENDING ──► SUCCEEDED | FAILED      (the writer, or a failure)
 *  response side: PENDING ──► SUCCEEDED | FAILED      (the reader, or a failure)
 *  both over ──► complete: onComplete(Result) once, after the connection was released or closed
 * </pre>
 *
 * <p><b>Threads.</b> Any method may be called from any thread. The lock only guards the two
 * outcomes and the connection link; listeners are told outside it. <b>Buffers.</b> None.
 */
public final class HttpExchange {

    /** Where one side of the exchange is. */
    private enum Side {
        PENDING, SUCCEEDED, FAILED
    }

    private final HttpDestination destination;
    private final HttpRequest request;
    private final HttpResponse response;
    private final ResponseEvents events;
    private Side requestSide = Side.PENDING;
    private Side responseSide = Side.PENDING;
    private Throwable requestFailure;
    private Throwable responseFailure;
    private boolean completed;
    private ClientConnection connection;
    private boolean retried;

    public HttpExchange(HttpDestination destination, HttpRequest request, List<Response.Listener> listeners) {
        this.destination = destination;
        this.request = request;
        this.response = new HttpResponse(request);
        this.events = new ResponseEvents(listeners);
    }

    public HttpRequest getRequest() {
        return request;
    }

    public HttpResponse getResponse() {
        return response;
    }

    public ResponseEvents events() {
        return events;
    }

    public HttpDestination destination() {
        return destination;
    }

    /**
     * Links the exchange to the connection that is about to carry it.
     *
     * @return false when the exchange is already over (aborted while queued)
     */
    synchronized boolean associate(ClientConnection carrier) {
        if (requestSide != Side.PENDING || responseSide != Side.PENDING) {
            return false;
        }
        connection = carrier;
        return true;
    }

    /** Unlinks the exchange from {@code carrier}, when it still is linked to it. */
    public synchronized void disassociate(ClientConnection carrier) {
        if (connection == carrier) {
            connection = null;
        }
    }

    /**
     * Prepares a retry on another connection: allowed once, for an idempotent method whose
     * content (if any) can be read again, while the response has not begun to be told and
     * nothing failed the exchange. A request already written whole goes back to pending: its
     * listeners are told begin, headers and commit again.
     *
     * @return whether the exchange may be sent again
     */
    public boolean prepareRetry() {
        synchronized (this) {
            if (retried || completed || requestSide == Side.FAILED || responseSide != Side.PENDING) {
                return false;
            }
            HttpMethod method = HttpMethod.fromString(request.getMethod());
            if (method == null || !method.isIdempotent()) {
                return false;
            }
            if (request.getContent() != null && !request.getContent().rewind()) {
                return false;
            }
            retried = true;
            requestSide = Side.PENDING;
            connection = null;
        }
        response.clear();
        return true;
    }

    /** @return the failure of a request whose server answered before its 100 Continue: the content was not sent */
    public IOException contentNotSentBeforeContinue() {
        return new IOException("the server answered " + response.getStatus()
                + " instead of 100 Continue: the content of " + request + " was not sent");
    }

    /** @return whether the request is HEAD, whose response has no content */
    public boolean isHead() {
        return HttpMethod.HEAD.is(request.getMethod());
    }

    /** The request was written whole: tells its listeners, once. @return whether this call ended the request side */
    public boolean requestSucceeded() {
        synchronized (this) {
            if (requestSide != Side.PENDING) {
                return false;
            }
            requestSide = Side.SUCCEEDED;
        }
        request.events().success(request);
        return true;
    }

    /** The response arrived whole: tells its listeners, once. @return whether this call ended the response side */
    public boolean responseSucceeded() {
        synchronized (this) {
            if (responseSide != Side.PENDING) {
                return false;
            }
            responseSide = Side.SUCCEEDED;
        }
        events.success(response);
        return true;
    }

    /** @return whether the response side is over (succeeded or failed) */
    public synchronized boolean isResponseOver() {
        return responseSide != Side.PENDING;
    }

    /** @return whether the whole response arrived */
    public synchronized boolean isResponseSucceeded() {
        return responseSide == Side.SUCCEEDED;
    }

    /** @return whether the request side is over (succeeded or failed) */
    public synchronized boolean isRequestOver() {
        return requestSide != Side.PENDING;
    }

    /**
     * Fails whatever side is still pending with {@code cause} and tells the listeners.
     *
     * @return whether this call ended at least one side
     */
    public boolean fail(Throwable cause) {
        boolean failRequest;
        boolean failResponse;
        synchronized (this) {
            failRequest = requestSide == Side.PENDING;
            failResponse = responseSide == Side.PENDING;
            if (failRequest) {
                requestSide = Side.FAILED;
                requestFailure = cause;
            }
            if (failResponse) {
                responseSide = Side.FAILED;
                responseFailure = cause;
            }
        }
        if (failRequest) {
            request.events().failure(request, cause);
        }
        if (failResponse) {
            events.failure(response, cause);
        }
        return failRequest || failResponse;
    }

    /**
     * Ends the exchange with {@code cause}, from any thread: fails the pending sides, takes the
     * exchange out of its queue or closes its connection, then completes it.
     *
     * @return whether this call ended the exchange
     */
    boolean abort(Throwable cause) {
        if (!fail(cause)) {
            return false;
        }
        ClientConnection carrier;
        synchronized (this) {
            carrier = connection;
        }
        if (carrier != null) {
            carrier.abort(this, cause);
        } else {
            destination.remove(this);
        }
        Result result = tryComplete();
        if (result != null) {
            complete(result);
        }
        return true;
    }

    /**
     * @return the result when both sides are over and this call is the first to see it (the
     *     caller then frees the connection and calls {@link #complete}); null otherwise
     */
    public Result tryComplete() {
        synchronized (this) {
            if (completed || requestSide == Side.PENDING || responseSide == Side.PENDING) {
                return null;
            }
            completed = true;
            connection = null;
        }
        return new Result(request, requestFailure, response, responseFailure);
    }

    /** Tells the listeners the exchange is over; called once, by whoever got the result. */
    public void complete(Result result) {
        events.complete(result);
    }

    @Override
    public synchronized String toString() {
        return "HttpExchange[" + request + ", request " + requestSide + ", response " + responseSide + "]";
    }
}
