package io.wharf.server.internal;

import java.util.function.Supplier;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpStatus;
import io.wharf.server.Response;

/**
 * What every protocol's {@link Response} holds the same way: the status, the header fields and
 * the trailers supplier, changeable until the response is committed, and whether it is
 * committed and its last write made. HTTP/1.1's {@link ServerResponse} and HTTP/2's response
 * extend it and frame the content their own way.
 *
 * <p><b>Threads.</b> The handler sets the head before committing; {@code committed} and
 * {@code lastWritten} are volatile as writes complete on other threads. Holds no buffer.
 */
public abstract class AbstractResponse implements Response {

    protected final HttpFields.Mutable headers = HttpFields.build(8);
    protected int status = HttpStatus.OK_200;
    protected Supplier<HttpFields> trailers;
    protected volatile boolean committed;
    protected volatile boolean lastWritten;

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public void setStatus(int status) {
        if (!committed) {
            this.status = status;
        }
    }

    @Override
    public HttpFields.Mutable getHeaders() {
        return headers;
    }

    @Override
    public Supplier<HttpFields> getTrailersSupplier() {
        return trailers;
    }

    @Override
    public void setTrailersSupplier(Supplier<HttpFields> trailers) {
        this.trailers = trailers;
    }

    @Override
    public boolean isCommitted() {
        return committed;
    }

    @Override
    public void reset() {
        if (committed) {
            throw new IllegalStateException("the response is committed");
        }
        status = HttpStatus.OK_200;
        headers.clear();
        trailers = null;
    }

    /** @throws IllegalArgumentException when {@code interimStatus} is not 1xx, or is 101 */
    protected static void requireInterim(int interimStatus) {
        if (!HttpStatus.isInformational(interimStatus) || interimStatus == HttpStatus.SWITCHING_PROTOCOLS_101) {
            throw new IllegalArgumentException("not an interim status: " + interimStatus);
        }
    }
}
