package io.wharf.server.http2.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http2.session.Http2Stream;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * The {@link Response} of an HTTP/2 stream: status and fields until committed, then a HEADERS
 * frame (with {@code :status}, the connection-specific fields dropped), DATA, and trailers as a
 * last HEADERS frame. A HEAD response sends its head only.
 *
 * <p><b>Threads.</b> One write at a time from any thread; a concurrent second write fails with
 * {@link WritePendingException}. <b>Buffers.</b> The caller's buffer is written from as is (DATA
 * frames slice it) and belongs to the caller again when the write's callback completes.
 */
final class Http2Response extends io.wharf.server.internal.AbstractResponse {

    private static final VarHandle WRITING;

    static {
        try {
            WRITING = MethodHandles.lookup().findVarHandle(Http2Response.class, "writing", boolean.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final Http2Exchange exchange;
    private final Http2Stream stream;
    /** Whether a write is under way; set through {@code WRITING}. */
    private volatile boolean writing;

    Http2Response(Http2Exchange exchange, Http2Stream stream) {
        this.exchange = exchange;
        this.stream = stream;
    }

    @Override
    public Request getRequest() {
        return exchange;
    }

    /** @return whether the last write was made */
    boolean isComplete() {
        return lastWritten;
    }

    @Override
    public void writeInterim(int interimStatus, HttpFields fields, Callback callback) {
        requireInterim(interimStatus);
        if (committed) {
            callback.failed(new IllegalStateException("the response is committed"));
            return;
        }
        HttpFields.Mutable interim = HttpFields.build(fields == null ? 1 : fields.size() + 1);
        interim.add(":status", decimal(interimStatus));
        if (fields != null) {
            for (HttpField field : fields) {
                interim.add(field);
            }
        }
        stream.headers(interim, false, callback);
    }

    @Override
    public void write(boolean last, ByteBuffer content, Callback callback) {
        if (exchange.isUpgradeAccepted()) {
            callback.failed(new IllegalStateException("a switch of protocols was accepted: the 200 that opens it is the response"));
            return;
        }
        if (lastWritten) {
            callback.failed(new IllegalStateException("write after the last write of " + exchange));
            return;
        }
        if (!WRITING.compareAndSet(this, false, true)) {
            callback.failed(new WritePendingException());
            return;
        }
        if (last) {
            lastWritten = true;
        }
        Callback done = new WriteDone(callback);
        boolean head = exchange.isHead();
        boolean hasContent = !head && content != null && content.hasRemaining();
        HttpFields trailerFields = last && trailers != null && !head ? trailers.get() : null;
        boolean endWithTrailers = trailerFields != null;
        if (!committed) {
            committed = true;
            if (last && content != null && !headers.contains(HttpHeader.CONTENT_LENGTH) && !endWithTrailers) {
                headers.put(contentLengthField(content.remaining()));
            }
            boolean headEnds = last && !hasContent && !endWithTrailers;
            if (headEnds) {
                stream.headers(head(), true, done);
                return;
            }
            if (hasContent && !endWithTrailers) {
                stream.headersAndData(head(), content, last, done);
                return;
            }
            stream.headers(head(), false, Callback.NOOP);
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

    /**
     * Writes the head that opens a tunnel (the {@code 200} of an accepted extended CONNECT),
     * without END_STREAM: what follows on the stream is the tunnel's, not the response's.
     */
    void writeTunnelHead(Callback callback) {
        committed = true;
        lastWritten = true;
        stream.headers(head(), false, callback);
    }

    /** @return the head's fields: {@code :status} first, then the handler's minus the connection-specific ones */
    private HttpFields head() {
        HttpFields.Mutable fields = HttpFields.build(headers.size() + 3);
        fields.add(statusField(status));
        for (HttpField field : headers) {
            HttpHeader header = field.getHeader();
            if (header == HttpHeader.CONNECTION || header == HttpHeader.KEEP_ALIVE || header == HttpHeader.TRANSFER_ENCODING
                    || header == HttpHeader.UPGRADE || header == HttpHeader.PROXY_CONNECTION) {
                continue;
            }
            fields.add(field);
        }
        exchange.connection().addServerFields(fields);
        return fields;
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

    /** The {@code :status} fields of the statuses 100 to 599, made once. */
    private static final HttpField[] STATUS_FIELDS = new HttpField[600];

    static {
        for (int status = 100; status < STATUS_FIELDS.length; status++) {
            STATUS_FIELDS[status] = new HttpField(":status", Integer.toString(status));
        }
    }

    /** @return the {@code :status} field of {@code status}, without making one for the statuses HTTP defines */
    private static HttpField statusField(int status) {
        return status >= 100 && status < STATUS_FIELDS.length ? STATUS_FIELDS[status] : new HttpField(":status", decimal(status));
    }

    /**
     * The {@code content-length} fields of lengths up to 1023, each made when first needed. Filled
     * without a lock: two threads may make an equal field, and a thread sees either null or a
     * whole field (its fields are final), so any field it finds is right.
     */
    private static final HttpField[] CONTENT_LENGTH_FIELDS = new HttpField[1024];

    /** @return the {@code content-length} field of {@code length}, without making one per response for small contents */
    private static HttpField contentLengthField(long length) {
        if (length < 0 || length >= CONTENT_LENGTH_FIELDS.length) {
            return new HttpField(HttpHeader.CONTENT_LENGTH, decimal(length));
        }
        HttpField field = CONTENT_LENGTH_FIELDS[(int) length];
        if (field == null) {
            field = new HttpField(HttpHeader.CONTENT_LENGTH, decimal(length));
            CONTENT_LENGTH_FIELDS[(int) length] = field;
        }
        return field;
    }

    /** Numbers up to 1023 (statuses, small content lengths) as text, made once. */
    private static final String[] DECIMALS = new String[1024];

    static {
        for (int i = 0; i < DECIMALS.length; i++) {
            DECIMALS[i] = Integer.toString(i);
        }
    }

    /** @return {@code number} as decimal text, without making a string for the common small ones */
    private static String decimal(long number) {
        return number >= 0 && number < DECIMALS.length ? DECIMALS[(int) number] : Long.toString(number);
    }
}
