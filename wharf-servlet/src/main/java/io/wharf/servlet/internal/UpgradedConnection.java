package io.wharf.servlet.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;

import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The connection an {@link HttpUpgradeHandler} takes over after {@code HttpServletRequest.upgrade}
 * and the 101 (Servlet 6.1 section 2.3.3.5): its {@link WebConnection} gives the handler the
 * raw bytes as a {@link ServletInputStream} — blocking, or with a {@link ReadListener} — and a
 * blocking {@link ServletOutputStream}. {@code init} runs on the server's pool (a virtual
 * thread) with the context's class loader; {@code destroy} runs when the connection closes.
 *
 * <p><b>Threads and buffers.</b> The handler reads and writes from its own threads, one at a
 * time each way. The bytes the client sent after the request are copied out of the pooled
 * buffer handed over and that buffer is released at once; reads fill a heap buffer of its own.
 */
final class UpgradedConnection extends AbstractConnection implements Connection.UpgradeTo, WebConnection {

    private final HttpUpgradeHandler handler;
    private final ServletApiContext context;
    private final Executor executor;
    private final Input input = new Input();
    private final Output output = new Output();
    private final AtomicBoolean destroyed = new AtomicBoolean();

    UpgradedConnection(EndPoint endPoint, HttpUpgradeHandler handler, ServletApiContext context, Executor executor) {
        super(endPoint, executor);
        this.handler = handler;
        this.context = context;
        this.executor = executor;
    }

    @Override
    public void onUpgradeTo(RetainableByteBuffer prefilled) {
        if (prefilled != null) {
            ByteBuffer bytes = prefilled.byteBuffer();
            input.buffer = ByteBuffer.allocate(Math.max(8192, bytes.remaining())).limit(0);
            int count = bytes.remaining();
            input.buffer.limit(count);
            input.buffer.put(0, bytes, bytes.position(), count);
            prefilled.release();
        }
    }

    @Override
    public void onOpen() {
        super.onOpen();
        executor.execute(() -> {
            try {
                context.runInContext(() -> handler.init(this));
            } catch (Throwable x) {
                context.log("upgrade handler " + handler.getClass().getName() + " failed in init", x);
                getEndPoint().close(x);
            }
        });
    }

    /** Fill interest comes back: a blocked read wakes, or the read listener is told. */
    @Override
    public void onFillable() {
        input.onFillable();
    }

    @Override
    public void onClose(Throwable cause) {
        super.onClose(cause);
        input.available.release();
        if (destroyed.compareAndSet(false, true)) {
            executor.execute(() -> {
                try {
                    context.runInContext(handler::destroy);
                } catch (Throwable x) {
                    context.log("upgrade handler " + handler.getClass().getName() + " failed in destroy", x);
                }
            });
        }
    }

    @Override
    public ServletInputStream getInputStream() {
        return input;
    }

    @Override
    public ServletOutputStream getOutputStream() {
        return output;
    }

    /** Closes the connection: the handler's {@code destroy} follows. */
    @Override
    public void close() {
        getEndPoint().close();
    }

    /** The bytes from the client. */
    private final class Input extends ServletInputStream {
        private final Semaphore available = new Semaphore(0);
        private ByteBuffer buffer = ByteBuffer.allocate(8192).limit(0);
        private boolean ended;
        private volatile ReadListener listener;
        private boolean allDataReadSent;

        /** @return bytes buffered, or read now without waiting; -1 at the end; 0 when none are there */
        private int fillNow() throws IOException {
            if (buffer.hasRemaining()) {
                return buffer.remaining();
            }
            if (ended) {
                return -1;
            }
            buffer.clear().limit(0);
            int filled = getEndPoint().fill(buffer);
            if (filled < 0) {
                ended = true;
            }
            return filled;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            while (true) {
                int ready = fillNow();
                if (ready < 0) {
                    return -1;
                }
                if (ready > 0) {
                    int count = Math.min(length, buffer.remaining());
                    buffer.get(bytes, offset, count);
                    return count;
                }
                if (listener != null) {
                    throw new IllegalStateException("read while isReady() is false (Servlet 6.1 section 5.3)");
                }
                if (!getEndPoint().isOpen()) {
                    return -1;
                }
                fillInterested();
                try {
                    available.acquire();
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reading the upgraded connection");
                }
            }
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int read = read(one, 0, 1);
            return read < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public boolean isFinished() {
            return ended && !buffer.hasRemaining();
        }

        @Override
        public boolean isReady() {
            try {
                if (fillNow() != 0) {
                    return true;
                }
            } catch (IOException x) {
                return true;
            }
            if (!isFillInterested()) {
                fillInterested();
            }
            return false;
        }

        @Override
        public void setReadListener(ReadListener readListener) {
            if (listener != null) {
                throw new IllegalStateException("a ReadListener is already set on this connection");
            }
            listener = readListener;
            executor.execute(this::deliver);
        }

        private void onFillable() {
            if (listener == null) {
                available.release();
            } else {
                executor.execute(this::deliver);
            }
        }

        private void deliver() {
            ReadListener current = listener;
            try {
                context.runInContext(() -> {
                    if (isReady() && !isFinished()) {
                        current.onDataAvailable();
                    }
                    if (isFinished() && !allDataReadSent) {
                        allDataReadSent = true;
                        current.onAllDataRead();
                    }
                });
            } catch (Throwable x) {
                try {
                    context.runInContext(() -> current.onError(x));
                } catch (Throwable ignored) {
                    // The listener failed on its own error; the connection's idle timeout ends it.
                }
            }
        }
    }

    /** The bytes to the client: each write waits until the endpoint took them. */
    private final class Output extends ServletOutputStream {
        private volatile WriteListener listener;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            Callback.Completable done = new Callback.Completable();
            getEndPoint().write(done, ByteBuffer.wrap(bytes.clone(), offset, length));
            done.await("writing the upgraded connection");
        }

        @Override
        public boolean isReady() {
            return true;
        }

        /** Writes complete before they return, so the stream is always ready: the listener is told once. */
        @Override
        public void setWriteListener(WriteListener writeListener) {
            if (listener != null) {
                throw new IllegalStateException("a WriteListener is already set on this connection");
            }
            listener = writeListener;
            executor.execute(() -> {
                try {
                    context.runInContext(writeListener::onWritePossible);
                } catch (Throwable x) {
                    writeListener.onError(x);
                }
            });
        }

        @Override
        public void close() {
            getEndPoint().shutdownOutput();
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.BLOCKING;
    }
}
