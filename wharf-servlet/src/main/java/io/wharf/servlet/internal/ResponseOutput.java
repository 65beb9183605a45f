package io.wharf.servlet.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * The {@link ServletOutputStream} of a response: the response buffer of Servlet 6.1 section
 * 5.1 (filled up to the buffer size, then written to the core response, which commits it),
 * and the end of the content. Blocking until a {@link WriteListener} is set; after that,
 * non-blocking with the contract of section 5.4: a write is taken whole but starts a core write
 * when the buffer overflows, {@link #isReady()} is false while that write is in progress,
 * {@code onWritePossible} follows when it completes, and writing while not ready is an error.
 *
 * <p>A response with a content length closes itself when that many bytes were written
 * (section 5.7); the bytes beyond it are dropped. Writes after the close are ignored.
 *
 * <p><b>Threads and buffers.</b> Written by one thread at a time (the application's, or the
 * one calling the listener); a core write's callback may run on another, and takes the lock.
 * The buffer is a heap array grown up to the buffer size; a core write gets a wrapper of it
 * (blocking) or a copy (non-blocking), so the core never holds the array the next write fills.
 */
final class ResponseOutput extends ServletOutputStream {

    private static final byte[] NO_BYTES = new byte[0];

    private final ServletApiResponse response;
    private final Response core;
    private final ServletExchange exchange;
    /** For {@link #write(int)}, made on first use. */
    private byte[] one;
    private final Object lock = new Object();
    private byte[] buffer = NO_BYTES;
    private byte[] flight = NO_BYTES;
    private int count;
    private int bufferSize;
    private long written;
    private boolean closed;
    private boolean suspended;
    private volatile WriteListener listener;
    /** Non-blocking: a core write is in progress. Guarded by {@link #lock}. */
    private boolean pending;
    /** Non-blocking: {@link #isReady()} said no, so {@code onWritePossible} is owed. Guarded by {@link #lock}. */
    private boolean owed;

    ResponseOutput(ServletApiResponse response, Response core, ServletExchange exchange, int bufferSize) {
        this.response = response;
        this.core = core;
        this.exchange = exchange;
        this.bufferSize = bufferSize;
    }

    int getBufferSize() {
        return bufferSize;
    }

    void setBufferSize(int size) {
        if (count > 0 || written > 0 || core.isCommitted()) {
            throw new IllegalStateException("setBufferSize after content was written (Servlet 6.1 section 5.1)");
        }
        bufferSize = Math.max(size, 0);
    }

    /** @return whether content was written since the start or the last reset */
    boolean isWritten() {
        return written > 0;
    }

    /** Forgets the buffered bytes (section 5.1 {@code resetBuffer}). */
    void resetBuffer() {
        count = 0;
        written = 0;
    }

    /** From now on writes are ignored: after {@code sendError} or {@code sendRedirect}, until an error page writes. */
    void suspend() {
        suspended = true;
        resetBuffer();
    }

    /** Takes writes again, for the error page's dispatch. */
    void resume() {
        suspended = false;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void write(int b) throws IOException {
        if (one == null) {
            one = new byte[1];
        }
        one[0] = (byte) b;
        write(one, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
        if (closed || suspended) {
            return;
        }
        WriteListener nonBlocking = listener;
        if (nonBlocking != null) {
            checkReady();
        }
        long limit = response.contentLengthLimit();
        int take = limit >= 0 ? (int) Math.min(length, Math.max(0, limit - written)) : length;
        if (count + take <= bufferSize) {
            append(bytes, offset, take);
        } else if (nonBlocking == null) {
            writeBlocking(false, bytes, offset, take);
        } else {
            ByteBuffer combined = inFlight(count + take);
            combined.put(buffer, 0, count).put(bytes, offset, take).flip();
            count = 0;
            written += take;
            writeAsync(false, combined);
        }
        if (limit >= 0 && written >= limit) {
            close();
        }
    }

    private void append(byte[] bytes, int offset, int length) {
        if (buffer.length < count + length) {
            buffer = Arrays.copyOf(buffer, Math.min(bufferSize, Math.max(count + length, Math.max(256, buffer.length * 2))));
        }
        System.arraycopy(bytes, offset, buffer, count, length);
        count += length;
        written += length;
    }

    /** Blocking: writes the buffer, then the bytes (or buffers them if they fit now). */
    private void writeBlocking(boolean last, byte[] bytes, int offset, int length) throws IOException {
        if (count > 0) {
            response.beforeCommit();
            waitFor(false, ByteBuffer.wrap(buffer, 0, count));
            count = 0;
        }
        if (length <= bufferSize && !last) {
            append(bytes, offset, length);
            return;
        }
        written += length;
        response.beforeCommit();
        waitFor(last, ByteBuffer.wrap(bytes, offset, length));
    }

    private void waitFor(boolean last, ByteBuffer content) throws IOException {
        Callback.Completable done = new Callback.Completable();
        core.write(last, content, done);
        done.await("writing the response");
    }

    @Override
    public void flush() throws IOException {
        if (closed || suspended) {
            return;
        }
        if (listener != null) {
            checkReady();
            ByteBuffer copy = inFlight(count);
            copy.put(buffer, 0, count).flip();
            count = 0;
            writeAsync(false, copy);
            return;
        }
        response.beforeCommit();
        waitFor(false, ByteBuffer.wrap(buffer, 0, count));
        count = 0;
    }

    /**
     * Ends the content: the buffered bytes go with {@code last}. A response never committed
     * gets the buffered length as its {@code Content-Length} first.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (!core.isCommitted()) {
            response.setContentLengthOnClose(count);
        }
        if (listener != null) {
            awaitNotPending();
        }
        response.beforeCommit();
        ByteBuffer content = ByteBuffer.wrap(buffer, 0, count);
        count = 0;
        waitFor(true, content);
    }

    // ---- non-blocking ------------------------------------------------------------------------

    @Override
    public boolean isReady() {
        if (listener == null) {
            return true;
        }
        synchronized (lock) {
            if (pending) {
                owed = true;
                return false;
            }
            return true;
        }
    }

    /** Non-blocking close: waits for the write in progress, so the last write comes after it. */
    private void awaitNotPending() throws IOException {
        synchronized (lock) {
            while (pending) {
                try {
                    lock.wait();
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for a response write");
                }
            }
        }
    }

    private void checkReady() {
        synchronized (lock) {
            if (pending) {
                throw new IllegalStateException("write while isReady() is false (Servlet 6.1 section 5.4)");
            }
        }
    }

    @Override
    public void setWriteListener(WriteListener writeListener) {
        if (writeListener == null) {
            throw new NullPointerException("write listener");
        }
        if (listener != null) {
            throw new IllegalStateException("a WriteListener is already set on this response");
        }
        if (!exchange.isAsyncStarted()) {
            throw new IllegalStateException("setWriteListener needs asynchronous processing: call startAsync() first "
                + "(Servlet 6.1 section 5.4)");
        }
        listener = writeListener;
        exchange.execute(() -> callListener(writeListener));
    }

    /**
     * Non-blocking: the array a core write takes its bytes from, kept for the next one. A write
     * starts only when none is in progress ({@link #checkReady}), so one array serves them all
     * in turn; it grows to the largest write and is not shared with {@link #buffer}, which the
     * application fills meanwhile.
     *
     * @return a cleared buffer of at least {@code size} bytes over that array
     */
    private ByteBuffer inFlight(int size) {
        if (flight.length < size) {
            flight = new byte[Math.max(size, Math.max(bufferSize, 1024))];
        }
        return ByteBuffer.wrap(flight, 0, size);
    }

    private void writeAsync(boolean last, ByteBuffer content) {
        synchronized (lock) {
            pending = true;
        }
        response.beforeCommit();
        core.write(last, content, Callback.from(InvocationType.NON_BLOCKING, () -> writeDone(last), this::writeFailed));
    }

    private void writeDone(boolean last) {
        boolean callOnWritePossible;
        synchronized (lock) {
            pending = false;
            callOnWritePossible = owed && !last && !closed;
            owed = false;
            lock.notifyAll();
        }
        if (callOnWritePossible) {
            WriteListener current = listener;
            exchange.execute(() -> callListener(current));
        }
    }

    private void writeFailed(Throwable cause) {
        synchronized (lock) {
            pending = false;
            owed = false;
            lock.notifyAll();
        }
        WriteListener current = listener;
        exchange.execute(() -> {
            try {
                exchange.runCallback(() -> current.onError(cause));
            } catch (Throwable ignored) {
                // The listener failed on its own error; the async timeout or the application completes the exchange.
            }
        });
    }

    private void callListener(WriteListener current) {
        try {
            exchange.runCallback(current::onWritePossible);
        } catch (Throwable x) {
            try {
                exchange.runCallback(() -> current.onError(x));
            } catch (Throwable ignored) {
                // As above.
            }
        }
    }

}
