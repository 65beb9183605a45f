package io.wharf.server.internal;

import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpGenerator;
import io.wharf.http.HttpStatus;
import io.wharf.http.MetaData;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * The {@link Response} of an {@link HttpExchange}: status and fields until committed, then
 * content framed by the connection's {@link HttpGenerator} and written to the endpoint.
 *
 * <p><b>Threads.</b> One write at a time from any thread; a concurrent second write fails
 * with {@link WritePendingException}. The writes go through the connection's one
 * {@link ResponseWrite}. <b>Buffers.</b> Each write borrows a header buffer for the head and
 * chunk framing and returns it when the endpoint write completes; the caller's content buffer
 * is only read.
 */
final class ServerResponse extends AbstractResponse {

    private static final MetaData.Response CONTINUE = new MetaData.Response(HttpStatus.CONTINUE_100, io.wharf.http.HttpVersion.HTTP_1_1, HttpFields.EMPTY);

    private final HttpExchange exchange;
    private final HttpConnection connection;

    ServerResponse(HttpExchange exchange, HttpConnection connection) {
        this.exchange = exchange;
        this.connection = connection;
    }

    @Override
    public Request getRequest() {
        return exchange;
    }

    @Override
    public void writeInterim(int interimStatus, HttpFields fields, Callback callback) {
        requireInterim(interimStatus);
        if (committed) {
            callback.failed(new IllegalStateException("the response is committed"));
            return;
        }
        MetaData.Response info = new MetaData.Response(interimStatus, null, exchange.getConnectionMetaData().getHttpVersion(), fields, -1, null);
        connection.responseWrite().write(exchange.isHead(), info, null, false, callback);
    }

    /** Sends {@code 100 Continue} before the first read of content that the client holds back. */
    void writeContinue() {
        ResponseWrite write = connection.responseWrite();
        if (write.begin()) {
            write.start(false, CONTINUE, null, false, Callback.NOOP, null);
        }
    }

    @Override
    public void write(boolean last, ByteBuffer content, Callback callback) {
        if (lastWritten) {
            callback.failed(new IllegalStateException("write after the last write of " + exchange));
            return;
        }
        if (exchange.acceptedUpgrade() != null) {
            callback.failed(new IllegalStateException("a protocol switch was accepted: its 101 is the response"));
            return;
        }
        ResponseWrite write = connection.responseWrite();
        if (!write.begin()) {
            callback.failed(new WritePendingException());
            return;
        }
        MetaData.Response info = null;
        if (!committed) {
            if (last) {
                exchange.beforeLastWrite();
            }
            info = commit();
        } else if (last) {
            exchange.beforeLastWrite();
        }
        if (last) {
            lastWritten = true;
        }
        write.start(exchange.isHead(), info, content, last, callback, info != null ? this : null);
    }

    /**
     * Called by the {@link ResponseWrite} whose committing write failed before the generator
     * produced the head (a head beyond the limit, content that contradicts the handler's own
     * {@code Content-Length}): nothing was sent, so the response is open again and the
     * failure can still be answered with an error page. The connection will not be reused.
     */
    void headNotSent() {
        committed = false;
        lastWritten = false;
        exchange.closeAfterResponse();
    }

    /** Writes {@code 101 Switching Protocols} for an accepted switch, as the whole response; then {@code done}. */
    void writeSwitchingProtocols(HttpUpgrade upgrade, Callback done) {
        if (committed) {
            done.failed(new IllegalStateException("the response is committed: cannot switch protocols"));
            return;
        }
        committed = true;
        lastWritten = true;
        connection.responseWrite().write(false, upgrade.switchingProtocols(), null, true, done);
    }

    /** Ends the response when the handler completed: writes what is left, then {@code done}. */
    void complete(Callback done) {
        if (lastWritten) {
            done.succeeded();
            return;
        }
        write(true, null, done);
    }

    private MetaData.Response commit() {
        committed = true;
        HttpGenerator generator = connection.generator();
        generator.setPersistent(exchange.wantsPersistence());
        return new MetaData.Response(status, null, exchange.getConnectionMetaData().getHttpVersion(), headers, -1, trailers);
    }

    @Override
    public String toString() {
        return "Response@" + exchange.getId() + "{" + status + (committed ? ",committed" : "") + (lastWritten ? ",last" : "") + "}";
    }

    /** @return the invocation type of response write completions: they never block */
    static InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
