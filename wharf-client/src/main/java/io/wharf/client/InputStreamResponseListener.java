package io.wharf.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.wharf.io.Content;

/**
 * A response listener that lets a blocking thread read the content as an {@link InputStream},
 * with back-pressure: it keeps one chunk at a time and demands the next only when the reader
 * has consumed it, so nothing more is read from the connection meanwhile and memory stays at
 * one network buffer whatever the size of the content.
 *
 * <pre>{@code
 * InputStreamResponseListener listener = new InputStreamResponseListener();
 * client.newRequest(uri).send(listener);
 * Response response = listener.get(5, TimeUnit.SECONDS);   // waits for the headers
 * try (InputStream in = listener.getInputStream()) {
 *     in.transferTo(out);
 * }
 * }</pre>
 *
 * <p><b>Threads.</b> Events come on the reading thread and never block; the stream is read
 * by one application thread, which blocks until content comes (never read it on a selector
 * thread, nor in another listener). <b>Buffers.</b> The chunk kept is retained until consumed;
 * {@link InputStream#close()} releases it and, before the end of the content, aborts the
 * exchange.
 */
public final class InputStreamResponseListener implements Response.Listener {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final CountDownLatch headers = new CountDownLatch(1);
    private final Stream stream = new Stream();
    private volatile Response response;
    private Content.Chunk chunk;
    private Runnable demand;
    private boolean ended;
    private Throwable failure;
    private boolean closed;

    @Override
    public void onHeaders(Response headed) {
        response = headed;
        headers.countDown();
    }

    @Override
    public void onContent(Response current, Content.Chunk next, Runnable nextDemand) {
        lock.lock();
        try {
            if (closed || failure != null) {
                return;
            }
            next.retain();
            chunk = next;
            demand = nextDemand;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onSuccess(Response done) {
        lock.lock();
        try {
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onFailure(Response failed, Throwable cause) {
        fail(cause);
    }

    @Override
    public void onComplete(Result result) {
        if (result.isFailed()) {
            fail(result.getFailure());
        }
        if (response == null) {
            response = result.response();
        }
        headers.countDown();
    }

    private void fail(Throwable cause) {
        Content.Chunk dropped;
        lock.lock();
        try {
            if (failure == null) {
                failure = cause;
            }
            dropped = chunk;
            chunk = null;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (dropped != null) {
            dropped.release();
        }
        headers.countDown();
    }

    /**
     * Waits for the response headers.
     *
     * @throws TimeoutException when they did not come in time
     * @throws ExecutionException when the exchange failed before them
     */
    public Response get(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException, ExecutionException {
        if (!headers.await(timeout, unit)) {
            throw new TimeoutException("no response headers within " + unit.toMillis(timeout) + " ms");
        }
        lock.lock();
        try {
            if (failure != null && (response == null || response.getStatus() == 0)) {
                throw new ExecutionException(failure);
            }
        } finally {
            lock.unlock();
        }
        return response;
    }

    /** @return the content as a blocking stream; the same stream each time */
    public InputStream getInputStream() {
        return stream;
    }

    /** The blocking view; read by one thread. */
    private final class Stream extends InputStream {
        private final byte[] one = new byte[1];

        @Override
        public int read() throws IOException {
            int count = read(one, 0, 1);
            return count < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            Runnable next = null;
            int count;
            lock.lock();
            try {
                while (true) {
                    if (closed) {
                        throw new IOException("stream closed");
                    }
                    if (failure != null) {
                        throw failure instanceof IOException io ? new IOException(io.getMessage(), io) : new IOException(failure);
                    }
                    if (chunk != null) {
                        break;
                    }
                    if (ended) {
                        return -1;
                    }
                    changed.await();
                }
                count = Math.min(length, chunk.remaining());
                chunk.getByteBuffer().get(bytes, offset, count);
                if (!chunk.hasRemaining()) {
                    chunk.release();
                    chunk = null;
                    next = demand;
                    demand = null;
                }
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for response content");
            } finally {
                lock.unlock();
            }
            if (next != null) {
                // Outside the lock: the demand may read and deliver the next chunk on this thread.
                next.run();
            }
            return count;
        }

        @Override
        public void close() {
            Content.Chunk dropped;
            boolean early;
            lock.lock();
            try {
                if (closed) {
                    return;
                }
                closed = true;
                early = !ended && failure == null;
                dropped = chunk;
                chunk = null;
                demand = null;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            if (dropped != null) {
                dropped.release();
            }
            Response current = response;
            if (early && current != null) {
                current.abort(new IOException("the InputStream of the response was closed before the end of its content"));
            }
        }
    }
}
