package io.wharf.server.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.util.function.Supplier;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpStatus;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;

/**
 * The {@link Response} of a {@link ServerExchange}, whatever the protocol: the status, the
 * header fields and the trailers supplier, changeable until the response is committed; then
 * writes, one at a time, that its {@link ServerStream} frames as the protocol does (a head
 * and chunks for HTTP/1.1, HEADERS and DATA frames for HTTP/2).
 *
 * <p><b>State is data:</b> an {@link Output} that only moves forward (back to open only when
 * the stream sent nothing of a refused head). It changes after the stream's claim of the
 * write, so one thread at a time changes it; it is volatile as writes complete on other
 * threads. <b>Threads.</b> The handler sets the head before committing; one write at a time
 * from any thread, a concurrent second write fails with {@link WritePendingException}.
 * <b>Buffers.</b> Holds none; the caller's content buffer is only read.
 */
public final class ExchangeResponse implements Response {

    /** Where the response is. */
    public enum Output {
        /** Nothing written: status and fields may change. */
        OPEN,
        /** The head was written (or is being written); more content may follow. */
        COMMITTED,
        /** The last write was made. */
        WRITTEN
    }

    private static final VarHandle OUTPUT;

    static {
        try {
            OUTPUT = MethodHandles.lookup().findVarHandle(ExchangeResponse.class, "output", Output.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final ServerExchange exchange;
    private final HttpFields.Mutable headers = HttpFields.build(8);
    private int status = HttpStatus.OK_200;
    private Supplier<HttpFields> trailers;
    private volatile Output output;

    ExchangeResponse(ServerExchange exchange) {
        this.exchange = exchange;
        // A plain store: the response reaches other threads through a hand-over that publishes it.
        OUTPUT.set(this, Output.OPEN);
    }

    @Override
    public Request getRequest() {
        return exchange;
    }

    /** @return the exchange this response answers */
    public ServerExchange exchange() {
        return exchange;
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public void setStatus(int status) {
        if (output == Output.OPEN) {
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
        return output != Output.OPEN;
    }

    /** @return whether the last write was made */
    public boolean isComplete() {
        return output == Output.WRITTEN;
    }

    @Override
    public void reset() {
        if (output != Output.OPEN) {
            throw new IllegalStateException("the response is committed");
        }
        status = HttpStatus.OK_200;
        headers.clear();
        trailers = null;
    }

    @Override
    public void writeInterim(int interimStatus, HttpFields fields, Callback callback) {
        if (!HttpStatus.isInformational(interimStatus) || interimStatus == HttpStatus.SWITCHING_PROTOCOLS_101) {
            throw new IllegalArgumentException("not an interim status: " + interimStatus);
        }
        if (output != Output.OPEN) {
            callback.failed(new IllegalStateException("the response is committed"));
            return;
        }
        exchange.stream().writeInterim(interimStatus, fields, callback);
    }

    @Override
    public void write(boolean last, ByteBuffer content, Callback callback) {
        Output now = output;
        if (now == Output.WRITTEN) {
            callback.failed(new IllegalStateException("write after the last write of " + exchange));
            return;
        }
        ProtocolSwitch accepted = exchange.acceptedSwitch();
        if (accepted != null) {
            callback.failed(new IllegalStateException("a switch of protocols was accepted: its " + accepted.openingStatus()
                    + " is the response"));
            return;
        }
        if (!exchange.stream().claimWrite()) {
            callback.failed(new WritePendingException());
            return;
        }
        if (last) {
            exchange.stream().beforeLastWrite();
            output = Output.WRITTEN;
        } else if (now == Output.OPEN) {
            output = Output.COMMITTED;
        }
        exchange.stream().write(this, now == Output.OPEN, content, last, callback);
    }

    /** Ends the response when the handler completed: writes what is left, then {@code done}. */
    void complete(Callback done) {
        if (output == Output.WRITTEN) {
            done.succeeded();
            return;
        }
        write(true, null, done);
    }

    /**
     * Commits the head that opens a switched-to protocol as the whole response, for the stream
     * to write.
     *
     * @return false when the response was committed already: too late to switch
     */
    public boolean commitWhole() {
        if (output != Output.OPEN) {
            return false;
        }
        output = Output.WRITTEN;
        return true;
    }

    /**
     * The stream refused the committing head before sending any of it (a head beyond the limit,
     * content that contradicts the handler's own {@code Content-Length}): the response is open
     * again, so the failure can still be answered with an error page; the connection will not be
     * reused.
     */
    public void headNotSent() {
        output = Output.OPEN;
        exchange.stream().closeAfterResponse();
    }

    @Override
    public String toString() {
        return "Response@" + exchange.getId() + "{" + status + "," + output + "}";
    }
}
