package io.wharf.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

import io.wharf.util.Callback;

/**
 * A blocking {@link OutputStream} over a {@link Content.Sink}: each write waits until the
 * sink has taken the bytes. Small writes are gathered in an aggregation buffer of
 * {@code bufferSize} bytes; {@link #flush()} writes it; {@link #close()} writes the last
 * bytes with {@code last=true}. For BLOCKING code only — never on a selector thread.
 * Used by one thread at a time; the buffers are its own.
 */
public final class ContentOutputStream extends OutputStream {

    private final Content.Sink sink;
    private final ByteBuffer aggregate;
    private boolean closed;

    public ContentOutputStream(Content.Sink sink) {
        this(sink, 8192);
    }

    public ContentOutputStream(Content.Sink sink, int bufferSize) {
        this.sink = sink;
        this.aggregate = ByteBuffer.allocate(bufferSize);
    }

    @Override
    public void write(int b) throws IOException {
        checkOpen();
        if (!aggregate.hasRemaining()) {
            flushAggregate(false);
        }
        aggregate.put((byte) b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        checkOpen();
        if (length <= aggregate.remaining()) {
            aggregate.put(bytes, offset, length);
            return;
        }
        flushAggregate(false);
        if (length <= aggregate.remaining()) {
            aggregate.put(bytes, offset, length);
        } else {
            writeAndWait(false, ByteBuffer.wrap(bytes, offset, length));
        }
    }

    /** Writes what is aggregated; with nothing aggregated, still asks the sink to flush (an empty write). */
    @Override
    public void flush() throws IOException {
        checkOpen();
        if (aggregate.position() == 0) {
            writeAndWait(false, ByteBuffer.allocate(0));
        } else {
            flushAggregate(false);
        }
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            flushAggregate(true);
        }
    }

    private void flushAggregate(boolean last) throws IOException {
        if (aggregate.position() == 0 && !last) {
            return;
        }
        aggregate.flip();
        try {
            writeAndWait(last, aggregate);
        } finally {
            aggregate.clear();
        }
    }

    private void writeAndWait(boolean last, ByteBuffer buffer) throws IOException {
        Callback.Completable done = new Callback.Completable();
        sink.write(last, buffer, done);
        done.await("writing content");
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
    }
}
