package io.wharf.servlet.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.Semaphore;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

import io.wharf.io.Content;
import io.wharf.server.Request;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;

/**
 * The {@link ServletInputStream} of a request, over the core request's content (a
 * {@link Content.Source}). Blocking until a {@link ReadListener} is set; after that,
 * non-blocking with the contract of Servlet 6.1 section 5.3: {@link #isReady()} false means a
 * callback to {@code onDataAvailable} will come, {@code read} while not ready is an error,
 * {@code onAllDataRead} comes once after the last byte, {@code onError} on a failure. No thread
 * waits for content in that mode: the core's {@code demand} calls back.
 *
 * <p><b>Threads and buffers.</b> One thread at a time (the application's, or the one calling
 * the listener). It holds at most one chunk and releases it once consumed, on the end, or on
 * {@link #close()}.
 */
final class RequestInput extends ServletInputStream {

    private final Request source;
    private final ServletExchange exchange;
    private final Semaphore available = new Semaphore(0);
    private final byte[] one = new byte[1];
    private Content.Chunk chunk;
    private boolean ended;
    private IOException failure;
    private volatile ReadListener listener;
    /** Whether a demand for the listener is outstanding: the core takes one at a time. */
    private final java.util.concurrent.atomic.AtomicBoolean demanding = new java.util.concurrent.atomic.AtomicBoolean();
    private boolean allDataReadSent;

    RequestInput(Request source, ServletExchange exchange) {
        this.source = source;
        this.exchange = exchange;
    }

    @Override
    public boolean isFinished() {
        return ended;
    }

    @Override
    public boolean isReady() {
        if (listener == null || ended || failure != null) {
            return true;
        }
        if (fetch()) {
            return true;
        }
        demand();
        return false;
    }

    /**
     * Asks the core to call back when content comes, unless that is already asked. The call back
     * only hands the listener's turn to the pool: the core may call it at once on the thread that
     * asked — an application thread in {@code isReady()}, perhaps holding locks of its own — and
     * the listener must not run there.
     */
    private void demand() {
        if (demanding.compareAndSet(false, true)) {
            source.demand(Invocable.task(InvocationType.NON_BLOCKING, () -> exchange.execute(this::onDemand)));
        }
    }

    private void onDemand() {
        demanding.set(false);
        onContentAvailable();
    }

    @Override
    public void setReadListener(ReadListener readListener) {
        if (readListener == null) {
            throw new NullPointerException("read listener");
        }
        if (listener != null) {
            throw new IllegalStateException("a ReadListener is already set on this request");
        }
        if (!exchange.isAsyncStarted()) {
            throw new IllegalStateException("setReadListener needs asynchronous processing: call startAsync() first "
                + "(Servlet 6.1 section 5.3)");
        }
        listener = readListener;
        exchange.execute(this::onContentAvailable);
    }

    /**
     * Content may be there: tells the listener, until it stops reading or the content ends. The
     * whole step holds the exchange's callback lock, so a WriteListener callback reading this
     * stream on another thread never sees it half done.
     */
    private void onContentAvailable() {
        ReadListener current = listener;
        try {
            exchange.runCallback(() -> {
                try {
                    deliver(current);
                } catch (Throwable x) {
                    current.onError(x);
                }
            });
        } catch (Throwable ignored) {
            // The listener failed on its own error; the async timeout or the application completes the exchange.
        }
    }

    private void deliver(ReadListener current) throws IOException {
        if (!fetch()) {
            demand();
            return;
        }
        if (failure != null) {
            current.onError(failure);
            return;
        }
        if (!atEnd()) {
            current.onDataAvailable();
        }
        if (failure != null) {
            // The content failed while the listener read (a client gone before the end): an error, not the end of the data.
            current.onError(failure);
            return;
        }
        if (atEnd() && !allDataReadSent) {
            end();
            allDataReadSent = true;
            current.onAllDataRead();
        }
    }

    /** @return whether the content is read to its end (all bytes consumed, or the end met) */
    private boolean atEnd() {
        return ended || chunk != null && chunk.isLast() && !chunk.hasRemaining();
    }

    /**
     * Makes sure a chunk with bytes, the end, or a failure is at hand, without waiting.
     *
     * @return whether one is
     */
    private boolean fetch() {
        if (ended || failure != null) {
            return true;
        }
        while (chunk == null || !chunk.hasRemaining() && !chunk.isLast()) {
            release();
            Content.Chunk next = source.read();
            if (next == null) {
                return false;
            }
            chunk = next;
        }
        Throwable cause = chunk.getFailure();
        if (cause != null) {
            failure = cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
            end();
        }
        return true;
    }

    @Override
    public int read() throws IOException {
        int read = read(one, 0, 1);
        return read < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (listener != null) {
            if (!fetch()) {
                throw new IllegalStateException("read while isReady() is false (Servlet 6.1 section 5.3)");
            }
        } else {
            waitForContent();
        }
        if (failure != null) {
            throw failure;
        }
        if (ended) {
            return -1;
        }
        if (length == 0) {
            return 0;
        }
        Content.Chunk current = chunk;
        if (!current.hasRemaining()) {
            end();
            return -1;
        }
        int count = Math.min(length, current.remaining());
        current.getByteBuffer().get(bytes, offset, count);
        if (!current.hasRemaining() && current.isLast()) {
            end();
        }
        return count;
    }

    private void waitForContent() throws IOException {
        while (!fetch()) {
            source.demand(available::release);
            try {
                available.acquire();
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for request content");
            }
        }
    }

    @Override
    public int available() {
        Content.Chunk current = chunk;
        return current == null || ended ? 0 : current.remaining();
    }

    /** Releases the chunk held and whatever content is there without waiting; the rest is the exchange's to discard. */
    @Override
    public void close() {
        release();
        if (!ended) {
            ended = Request.consumeAvailable(source);
        }
    }

    private void end() {
        ended = true;
        release();
    }

    private void release() {
        Content.Chunk current = chunk;
        if (current != null) {
            chunk = null;
            current.release();
        }
    }
}
