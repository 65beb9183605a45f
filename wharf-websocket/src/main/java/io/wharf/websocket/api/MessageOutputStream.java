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

    private final FragmentBuffer fragments;

    MessageOutputStream(Session session, int fragmentSize) {
        byte[] buffer = new byte[fragmentSize];
        this.fragments = new FragmentBuffer(buffer, (count, last) -> {
            ByteBuffer fragment = ByteBuffer.wrap(buffer, 0, count);
            BlockingSend.await(session, "binary fragment of " + count + " bytes", done -> session.sendPartialBinary(fragment, last, done));
            return count;
        });
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        fragments.write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
        fragments.flush();
    }

    @Override
    public void close() throws IOException {
        fragments.close();
    }
}
