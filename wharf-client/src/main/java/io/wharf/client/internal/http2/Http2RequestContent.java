package io.wharf.client.internal.http2;

import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

import io.wharf.client.RequestContent;
import io.wharf.client.internal.HttpRequest;
import io.wharf.http2.session.Http2Stream;
import io.wharf.http2.session.StreamNotProcessedException;
import io.wharf.io.Content;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBuffers;

/**
 * Sends a request's content on its HTTP/2 stream: reads a chunk from the {@link RequestContent}
 * when one is ready (else demands and waits), hands it to {@link Http2Stream#data}, and reads
 * the next only once the session wrote that one — which it does within the flow-control
 * windows, so a server that grants no credit holds the source back. An
 * {@link IteratingCallback}: each {@link #process()} sends one chunk.
 *
 * <p><b>Threads.</b> Started by the sending thread, or on a pool thread when the content may
 * block (this callback is BLOCKING then, so that the session runs it on the executor).
 * <b>Buffers.</b> It owns each chunk from its read until its DATA was written (or failed) and
 * releases it then.
 */
final class Http2RequestContent extends IteratingCallback {

    private final Http2ClientStream owner;
    private final Http2Stream stream;
    private final HttpRequest request;
    private final RequestContent content;
    private final InvocationType type;
    private final Executor executor;
    private Content.Chunk chunk;
    private ByteBuffer written;
    private boolean last;

    Http2RequestContent(Http2ClientStream owner, Http2Stream stream, HttpRequest request, Executor executor) {
        this.executor = executor;
        this.owner = owner;
        this.stream = stream;
        this.request = request;
        this.content = request.getContent();
        this.type = content.isBlocking() ? InvocationType.BLOCKING : InvocationType.NON_BLOCKING;
    }

    @Override
    public InvocationType invocationType() {
        return type;
    }

    void start() {
        resume();
    }

    private void resume() {
        if (type == InvocationType.BLOCKING) {
            executor.execute(this::iterate);
        } else {
            iterate();
        }
    }

    @Override
    protected Action process() throws Throwable {
        while (!last) {
            Content.Chunk next = content.read();
            if (next == null) {
                content.demand(this::resume);
                return Action.IDLE;
            }
            if (next.getFailure() != null) {
                throw next.getFailure();
            }
            last = next.isLast();
            if (!next.hasRemaining() && !last) {
                next.release();
                continue;
            }
            chunk = next;
            ByteBuffer bytes = next.hasRemaining() ? next.getByteBuffer() : ByteBuffers.EMPTY;
            written = bytes.hasRemaining() ? bytes.asReadOnlyBuffer() : null;
            stream.data(bytes, last, this);
            return Action.SCHEDULED;
        }
        return Action.SUCCEEDED;
    }

    @Override
    protected void onSuccess() {
        owner.active();
        if (written != null) {
            request.events().content(request, written);
            written = null;
        }
        releaseChunk();
    }

    @Override
    protected void onCompleteSuccess() {
        owner.requestWritten();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        releaseChunk();
        if (cause instanceof StreamNotProcessedException) {
            // The stream's reset follows, and may send the exchange again: the content is not failed.
            return;
        }
        content.fail(cause);
        owner.fail(cause);
    }

    private void releaseChunk() {
        Content.Chunk owned = chunk;
        chunk = null;
        if (owned != null) {
            owned.release();
        }
    }

    @Override
    public String toString() {
        return "Http2RequestContent[" + request + "]";
    }
}
