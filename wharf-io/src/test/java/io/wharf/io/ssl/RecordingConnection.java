package io.wharf.io.ssl;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

import io.wharf.io.AbstractConnection;
import io.wharf.io.EndPoint;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Test connection: reads everything into memory. {@link #received(int)} completes once that
 * many bytes arrived, {@link #ended()} at the end of input (fill returned -1) with all the text,
 * {@link #closed()} when the endpoint closed, with the cause (null for a normal close).
 */
final class RecordingConnection extends AbstractConnection {

    private final ByteBufferPool pool;
    private final InvocationType type;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> ended = new CompletableFuture<>();
    private final CompletableFuture<Throwable> closed = new CompletableFuture<>();
    private volatile int expected = Integer.MAX_VALUE;
    private volatile CompletableFuture<String> received = new CompletableFuture<>();

    RecordingConnection(EndPoint endPoint, ByteBufferPool pool) {
        this(endPoint, pool, InvocationType.NON_BLOCKING);
    }

    RecordingConnection(EndPoint endPoint, ByteBufferPool pool, InvocationType type) {
        super(endPoint, Runnable::run);
        this.pool = pool;
        this.type = type;
    }

    @Override
    public void onOpen() {
        fillInterested();
    }

    @Override
    public void onFillable() {
        RetainableByteBuffer buffer = pool.acquire(1024, false);
        try {
            while (true) {
                int filled = getEndPoint().fill(buffer.byteBuffer());
                if (filled > 0) {
                    take(buffer.byteBuffer());
                } else if (filled == 0) {
                    if (getEndPoint().getConnection() == this) {
                        fillInterested();
                    }
                    return;
                } else {
                    ended.complete(text());
                    return;
                }
            }
        } catch (IOException x) {
            ended.completeExceptionally(x);
            getEndPoint().close(x);
        } finally {
            buffer.release();
        }
    }

    private synchronized void take(ByteBuffer buffer) {
        while (buffer.hasRemaining()) {
            bytes.write(buffer.get());
        }
        if (bytes.size() >= expected) {
            received.complete(text());
        }
    }

    synchronized String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** @return completes with the text once at least {@code count} bytes arrived */
    synchronized CompletableFuture<String> received(int count) {
        expected = count;
        received = new CompletableFuture<>();
        if (bytes.size() >= count) {
            received.complete(text());
        }
        return received;
    }

    CompletableFuture<String> ended() {
        return ended;
    }

    CompletableFuture<Throwable> closed() {
        return closed;
    }

    @Override
    public void onClose(Throwable cause) {
        closed.complete(cause);
        if (cause != null) {
            ended.completeExceptionally(cause);
            received.completeExceptionally(cause);
        }
    }

    @Override
    public InvocationType invocationType() {
        return type;
    }
}
