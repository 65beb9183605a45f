package io.wharf.client.internal.http1;

import java.nio.ByteBuffer;

import io.wharf.client.internal.HttpExchange;
import io.wharf.http.HttpGenerator;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;
import io.wharf.http.MetaData;
import io.wharf.io.Content;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Writes one request on an HTTP/1.1 connection: the head (with the first chunk of content
 * when it is ready), then the content chunk by chunk as the source gives it, framed by the
 * connection's {@link HttpGenerator}. An {@link IteratingCallback}: each {@link #process()}
 * starts one write.
 *
 * <pre>
 *  HEAD ──► (Expect: 100-continue) AWAIT_CONTINUE ──100──► CONTENT ──► ... ──► (COMPLETING) ──► DONE
 *     └──────────────────────────────────────────────────► CONTENT (source empty now: demand, IDLE)
 * </pre>
 *
 * <p><b>Threads.</b> Started by the sending thread, or on a pool thread when the content may
 * block ({@link RequestContent#isBlocking()}: then this callback is BLOCKING too, so that the
 * endpoint never resumes it on a selector thread). <b>Buffers.</b> It owns the head buffer
 * (from the client's pool, released at the end) and each content chunk from its read until
 * its write completed; whatever it holds when the job fails is released in
 * {@link #onCompleteFailure}.
 */
final class RequestWriter extends IteratingCallback {

    private enum Stage {
        HEAD, AWAIT_CONTINUE, CONTENT, COMPLETING, DONE
    }

    private final Http1Connection connection;
    private final HttpExchange exchange;
    private final Content.Source content;
    private final HttpGenerator generator;
    private final ByteBufferPool pool;
    private final boolean expectContinue;
    private final InvocationType type;
    private Stage stage = Stage.HEAD;
    private RetainableByteBuffer header;
    /** The chunk being written, owned until its write completes. */
    private Content.Chunk chunk;
    /** A read-only view of the chunk's bytes, for the content event. */
    private ByteBuffer written;
    private boolean committed;
    private volatile boolean continued;

    RequestWriter(Http1Connection connection, HttpExchange exchange, HttpGenerator generator, ByteBufferPool pool) {
        this.connection = connection;
        this.exchange = exchange;
        this.content = exchange.requestContent();
        this.generator = generator;
        this.pool = pool;
        this.expectContinue = content != null
                && exchange.getRequest().getHeaders().contains(HttpHeader.EXPECT, HttpHeaderValue.CONTINUE.asString());
        this.type = exchange.isRequestContentBlocking() ? InvocationType.BLOCKING : InvocationType.NON_BLOCKING;
    }

    @Override
    public InvocationType invocationType() {
        return type;
    }

    /** Starts writing: on this thread, or on a pool thread when the content may block. */
    void start() {
        resume();
    }

    /** A 100 Continue arrived: the content may follow. Called by the reading thread. */
    void onContinue() {
        continued = true;
        resume();
    }

    /** @return whether the head was sent with Expect: 100-continue and the content still waits for the 100 */
    boolean isAwaitingContinue() {
        return expectContinue && !continued;
    }

    private void resume() {
        if (type == InvocationType.BLOCKING) {
            connection.getExecutor().execute(this::iterate);
        } else {
            iterate();
        }
    }

    @Override
    protected Action process() throws Throwable {
        while (true) {
            switch (stage) {
                case HEAD -> {
                    exchange.requestBegin();
                    MetaData.Request head = exchange.requestHead();
                    Content.Chunk first = null;
                    if (content != null && !expectContinue) {
                        first = readChunk();
                    }
                    Action action = generate(head, first);
                    exchange.requestHeaders();
                    if (expectContinue && stage == Stage.CONTENT) {
                        stage = Stage.AWAIT_CONTINUE;
                    }
                    return action;
                }
                case AWAIT_CONTINUE -> {
                    if (!continued) {
                        return Action.IDLE;
                    }
                    stage = Stage.CONTENT;
                }
                case CONTENT -> {
                    Content.Chunk next = readChunk();
                    if (next == null) {
                        content.demand(this::resume);
                        return Action.IDLE;
                    }
                    Action action = generate(null, next);
                    if (action != null) {
                        return action;
                    }
                }
                case COMPLETING -> {
                    Action action = generate(null, null);
                    if (action != null) {
                        return action;
                    }
                }
                case DONE -> {
                    return Action.SUCCEEDED;
                }
            }
        }
    }

    /**
     * @return the next chunk (owned now), null when none is ready
     * @throws Throwable the failure the source reports
     */
    private Content.Chunk readChunk() throws Throwable {
        Content.Chunk next = content.read();
        if (next != null && next.getFailure() != null) {
            throw next.getFailure();
        }
        return next;
    }

    /**
     * Frames {@code next} (or the head with it, or the end of the message when both are null
     * in stage COMPLETING) and starts writing what the generator says.
     *
     * @return SCHEDULED when a write started, null when there was nothing to write
     */
    private Action generate(MetaData.Request head, Content.Chunk next) {
        chunk = next;
        ByteBuffer bytes = next == null ? null : next.getByteBuffer();
        boolean last = head == null && stage == Stage.COMPLETING
                || next != null && next.isLast()
                || head != null && content == null;
        HttpGenerator.Result result;
        while (true) {
            ByteBuffer buffer = headerBuffer();
            result = generator.generateRequest(head, bytes, last, buffer);
            if (result != HttpGenerator.Result.HEADER_OVERFLOW) {
                break;
            }
            growHeaderBuffer(head);
        }
        if (generator.isEnd()) {
            stage = Stage.DONE;
        } else if (generator.getState() == HttpGenerator.State.COMPLETING) {
            stage = Stage.COMPLETING;
        } else {
            stage = Stage.CONTENT;
        }
        written = result.writesContent() ? bytes.asReadOnlyBuffer() : null;
        ByteBuffer framing = header.byteBuffer();
        framing.flip();
        if (result.writesHeader() && result.writesContent()) {
            connection.getEndPoint().write(this, framing, bytes);
        } else if (result.writesHeader()) {
            connection.getEndPoint().write(this, framing);
        } else if (result.writesContent()) {
            connection.getEndPoint().write(this, bytes);
        } else {
            releaseChunk();
            return null;
        }
        return Action.SCHEDULED;
    }

    /** @return the head buffer emptied and in fill mode, acquired at the first use */
    private ByteBuffer headerBuffer() {
        if (header == null) {
            header = pool.acquire(connection.settings().requestBufferSize(), false);
        }
        ByteBuffer buffer = header.byteBuffer();
        buffer.clear();
        return buffer;
    }

    private void growHeaderBuffer(MetaData.Request head) {
        int size = header.capacity() * 2;
        int max = connection.settings().maxRequestHeadBytes();
        if (head == null || header.capacity() >= max) {
            throw new IllegalArgumentException("the head of " + exchange.getRequest() + " is larger than " + max
                    + " bytes (HttpClient.setMaxRequestHeadBytes)");
        }
        header.release();
        header = null;
        header = pool.acquire(Math.min(size, max), false);
    }

    @Override
    protected void onSuccess() {
        if (!committed) {
            committed = true;
            connection.committed(exchange);
            exchange.requestCommitted();
        }
        if (written != null) {
            exchange.requestContent(written);
            written = null;
        }
        releaseChunk();
    }

    @Override
    protected void onCompleteSuccess() {
        releaseHeader();
        connection.requestWritten(exchange);
    }

    @Override
    protected void onFailure(Throwable cause) {
        if (content != null) {
            // Unblocks a read blocked in the source, and stops a streaming source.
            content.fail(cause);
        }
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        releaseChunk();
        releaseHeader();
        connection.requestFailed(exchange, cause);
    }

    private void releaseChunk() {
        Content.Chunk owned = chunk;
        chunk = null;
        if (owned != null) {
            owned.release();
        }
    }

    private void releaseHeader() {
        RetainableByteBuffer owned = header;
        header = null;
        if (owned != null) {
            owned.release();
        }
    }

    @Override
    public String toString() {
        return "RequestWriter[" + exchange.getRequest() + ", " + stage + "]";
    }
}
