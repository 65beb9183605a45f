package io.wharf.client.internal;

import io.wharf.client.Request;
import io.wharf.client.Response;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpVersion;

/**
 * The response of one exchange (or one interim 1xx response), filled field by field by the
 * connection's reading thread as the parser reports them. Written by that thread only; read by
 * listeners on that thread, and by anyone once the exchange is complete (the completion
 * publishes it).
 */
public final class HttpResponse implements Response {

    private final Request request;
    private final HttpFields.Mutable headers = HttpFields.build(16);
    private HttpFields.Mutable trailers;
    private HttpVersion version;
    private int status;
    private String reason = "";

    public HttpResponse(Request request) {
        this.request = request;
    }

    /** Records the status line. */
    public void begin(HttpVersion version, int status, String reason) {
        this.version = version;
        this.status = status;
        this.reason = reason == null ? "" : reason;
    }

    public void addHeader(io.wharf.http.HttpField field) {
        headers.add(field);
    }

    public void addTrailer(io.wharf.http.HttpField field) {
        if (trailers == null) {
            trailers = HttpFields.build(4);
        }
        trailers.add(field);
    }

    /** @return the fields, to change: the conversation drops those the listeners refuse, or a decoded coding's */
    HttpFields.Mutable mutableHeaders() {
        return headers;
    }

    /** Forgets what was received, for a request retried on another connection. */
    void clear() {
        headers.clear();
        trailers = null;
        version = null;
        status = 0;
        reason = "";
    }

    @Override
    public Request getRequest() {
        return request;
    }

    @Override
    public HttpVersion getVersion() {
        return version;
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public String getReason() {
        return reason;
    }

    @Override
    public HttpFields getHeaders() {
        return headers;
    }

    @Override
    public HttpFields getTrailers() {
        return trailers == null ? HttpFields.EMPTY : trailers;
    }

    @Override
    public String toString() {
        return "HttpResponse[" + version + " " + status + " " + reason + "]@" + Integer.toHexString(hashCode());
    }
}
