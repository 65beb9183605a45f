package io.wharf.server.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;

import io.wharf.http.HttpGenerator;
import io.wharf.http.MetaData;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * One response write: asks the generator what to send, borrows a header buffer for the head
 * and framing (a larger one when it overflows, up to a limit), writes header and content to
 * the endpoint, and repeats while the generator owes bytes (the terminating chunk). Then it
 * frees the writing flag and completes the caller's callback.
 *
 * <p>A multi-step loop, so an {@link IteratingCallback}: each {@code process()} is one
 * generate-and-write. Runs on the writer's thread, then on the endpoint's completion thread.
 */
final class ResponseWrite extends IteratingCallback {

    private static final int MAX_HEADER_BUFFER = 64 * 1024;

    private final HttpConnection connection;
    private final boolean head;
    private final AtomicBoolean writing;
    private final Callback callback;
    private MetaData.Response info;
    private ByteBuffer content;
    private boolean last;
    private RetainableByteBuffer header;
    private HttpGenerator.Result result;
    private boolean finished;

    ResponseWrite(HttpConnection connection, boolean head, AtomicBoolean writing, Callback callback) {
        this.connection = connection;
        this.head = head;
        this.writing = writing;
        this.callback = callback;
    }

    void start(MetaData.Response info, ByteBuffer content, boolean last) {
        this.info = info;
        this.content = content;
        this.last = last;
        iterate();
    }

    @Override
    protected Action process() throws Throwable {
        releaseHeader();
        while (!finished) {
            HttpGenerator generator = connection.generator();
            ByteBuffer buffer = generate(generator);
            HttpGenerator.Result result = this.result;
            ByteBuffer body = result.writesContent() ? content : null;
            info = null;
            content = null;
            finished = generator.getState() != HttpGenerator.State.COMPLETING;
            if (body != null) {
                connection.getEndPoint().write(this, result.writesHeader() ? buffer : ByteBuffers.EMPTY, body);
                return Action.SCHEDULED;
            }
            if (result.writesHeader()) {
                connection.getEndPoint().write(this, buffer);
                return Action.SCHEDULED;
            }
            releaseHeader();
        }
        return Action.SUCCEEDED;
    }

    /** Generates into a borrowed header buffer, growing it on overflow; @return it, in flush mode. */
    private ByteBuffer generate(HttpGenerator generator) {
        int size = connection.configuration().getResponseHeaderSize();
        while (true) {
            header = connection.getConnector().getByteBufferPool().acquire(size, true);
            ByteBuffer buffer = header.byteBuffer();
            int position = ByteBuffers.flipToFill(buffer);
            try {
                result = generator.generateResponse(info, head, content, last, buffer);
            } finally {
                ByteBuffers.flipToFlush(buffer, position);
            }
            if (result != HttpGenerator.Result.HEADER_OVERFLOW) {
                return buffer;
            }
            releaseHeader();
            if (size >= MAX_HEADER_BUFFER) {
                throw new IllegalStateException("response head larger than " + MAX_HEADER_BUFFER + " bytes");
            }
            size *= 2;
        }
    }

    private void releaseHeader() {
        if (header != null) {
            header.release();
            header = null;
        }
    }

    @Override
    protected void onCompleteSuccess() {
        releaseHeader();
        writing.set(false);
        callback.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        releaseHeader();
        writing.set(false);
        callback.failed(cause);
    }

    @Override
    public InvocationType invocationType() {
        return callback.invocationType();
    }
}
