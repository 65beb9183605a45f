package io.wharf.client.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import io.wharf.client.RequestContent;
import io.wharf.client.Response;
import io.wharf.client.Result;
import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.TransportExchange;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpVersion;
import io.wharf.http.MetaData;
import io.wharf.io.Content;

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
 * <p>It is the {@link TransportExchange} every transport is handed, the built-in ones
 * included: the view's calls are its own methods, so carrying an exchange through the SPI costs
 * no object of its own.
 *
 * <p><b>Threads.</b> Any method may be called from any thread. The lock only guards the two
 * outcomes and the connection link; listeners are told outside it. <b>Buffers.</b> None.
 */
public final class HttpExchange implements TransportExchange {

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
    /** Set, under the lock, by the call of {@link #tryComplete()} that ended the exchange; read by that caller's thread. */
    private Result result;
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

    @Override
    public boolean retry() {
        if (!prepareRetry()) {
            return false;
        }
        destination.resend(this);
        return true;
    }

    /** @return the failure of a request whose server answered before its 100 Continue: the content was not sent */
    public IOException contentNotSentBeforeContinue() {
        return new IOException("the server answered " + response.getStatus()
                + " instead of 100 Continue: the content of " + request + " was not sent");
    }

    @Override
    public boolean isHead() {
        return HttpMethod.HEAD.is(request.getMethod());
    }

    // ---- the request, for the transport ----

    @Override
    public MetaData.Request requestHead() {
        return request.toMetaData();
    }

    @Override
    public Content.Source requestContent() {
        return request.getContent();
    }

    @Override
    public boolean isRequestContentBlocking() {
        RequestContent content = request.getContent();
        return content != null && content.isBlocking();
    }

    @Override
    public Duration idleTimeout() {
        return request.getIdleTimeout();
    }

    @Override
    public void requestBegin() {
        request.events().begin(request);
    }

    @Override
    public void requestHeaders() {
        request.events().headers(request);
    }

    @Override
    public void requestCommitted() {
        request.events().commit(request);
    }

    @Override
    public void requestContent(ByteBuffer written) {
        request.events().content(request, written);
    }

    // ---- the response, from the transport ----

    @Override
    public void responseInformational(HttpVersion version, int status, String reason, HttpFields fields) {
        HttpResponse interim = new HttpResponse(request);
        interim.begin(version, status, reason);
        for (HttpField field : fields) {
            interim.addHeader(field);
        }
        events.informational(interim);
    }

    @Override
    public void responseBegin(HttpVersion version, int status, String reason) {
        response.begin(version, status, reason);
        events.begin(response);
    }

    @Override
    public boolean responseHeader(HttpField field) {
        if (!events.header(response, field)) {
            return false;
        }
        response.addHeader(field);
        return true;
    }

    @Override
    public void responseHeaders() {
        events.headers(response);
    }

    @Override
    public void responseContent(Content.Chunk chunk, Runnable demand) {
        events.content(response, chunk, demand);
    }

    @Override
    public void responseTrailer(HttpField field) {
        response.addTrailer(field);
    }

    // ---- both sides ----

    @Override
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

    @Override
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

    @Override
    public synchronized boolean isResponseOver() {
        return responseSide != Side.PENDING;
    }

    /** @return whether the whole response arrived */
    public synchronized boolean isResponseSucceeded() {
        return responseSide == Side.SUCCEEDED;
    }

    @Override
    public synchronized boolean isRequestOver() {
        return requestSide != Side.PENDING;
    }

    @Override
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
        if (tryComplete()) {
            complete();
        }
        return true;
    }

    @Override
    public boolean tryComplete() {
        synchronized (this) {
            if (completed || requestSide == Side.PENDING || responseSide == Side.PENDING) {
                return false;
            }
            completed = true;
            connection = null;
            result = new Result(request, requestFailure, response, responseFailure);
        }
        return true;
    }

    /** Read by the thread whose {@link #tryComplete()} set the result: no lock. */
    @Override
    public boolean isSucceeded() {
        Result over = result;
        return over != null && over.isSucceeded();
    }

    /** Called by the thread whose {@link #tryComplete()} set the result: no lock. */
    @Override
    public void complete() {
        events.complete(result);
    }

    @Override
    public synchronized String toString() {
        return "HttpExchange[" + request + ", request " + requestSide + ", response " + responseSide + "]";
    }
}
