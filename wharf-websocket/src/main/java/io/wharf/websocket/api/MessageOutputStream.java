package io.wharf.websocket.api;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * One binary message sent as it is written ({@link Session#sendBinaryStream()}): bytes gather
 * in an array of one fragment's size; each full array, and each {@link #flush()}, goes out as
 * a fragment with {@link Session#sendPartialBinary}, and {@link #close()} sends the last.
 *
 * <p><b>Threads.</b> One writing thread, which blocks until each fragment was written (so the
 * array can be reused): never a selector thread. <b>Buffers.</b> Its own array, no pooled buffer.
 */
final class MessageOutputStream extends OutputStream {

    /** Bytes (or chars, for the writer) per fragment unless flushed earlier. */
    static final int DEFAULT_FRAGMENT = 4096;

    private final Session session;
    private final byte[] buffer;
    private int count;
    private boolean closed;

    MessageOutputStream(Session session, int fragmentSize) {
        this.session = session;
        this.buffer = new byte[fragmentSize];
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
        ensureOpen();
        while (length > 0) {
            int chunk = Math.min(length, buffer.length - count);
            System.arraycopy(bytes, offset, buffer, count, chunk);
            count += chunk;
            offset += chunk;
            length -= chunk;
            if (count == buffer.length) {
                send(false);
            }
        }
    }

    @Override
    public void flush() throws IOException {
        ensureOpen();
        if (count > 0) {
            send(false);
        }
    }

    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            send(true);
        }
    }

    private void send(boolean last) throws IOException {
        ByteBuffer fragment = ByteBuffer.wrap(buffer, 0, count);
        BlockingSend.await(session, "binary fragment of " + count + " bytes", done -> session.sendPartialBinary(fragment, last, done));
        count = 0;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("the message was sent: its stream is closed");
        }
    }
}
