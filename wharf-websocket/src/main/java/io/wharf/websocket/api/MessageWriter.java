package io.wharf.websocket.api;

import java.io.IOException;
import java.io.Writer;

/**
 * One text message sent as it is written ({@link Session#sendTextWriter()}), as
 * {@link MessageOutputStream} sends a binary one: each full array of characters, and each
 * {@link #flush()}, goes out as a fragment with {@link Session#sendPartialText}; a high
 * surrogate at a fragment's end waits for its pair in the next, so no character is split.
 *
 * <p><b>Threads.</b> One writing thread, which blocks until each fragment was written: never
 * a selector thread. <b>Buffers.</b> Its own array, no pooled buffer.
 */
final class MessageWriter extends Writer {

    private final Session session;
    private final char[] buffer;
    private int count;
    private boolean closed;

    MessageWriter(Session session, int fragmentSize) {
        this.session = session;
        this.buffer = new char[Math.max(2, fragmentSize)];
    }

    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, chars.length);
        ensureOpen();
        while (length > 0) {
            int chunk = Math.min(length, buffer.length - count);
            System.arraycopy(chars, offset, buffer, count, chunk);
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
        int length = count;
        if (!last && Character.isHighSurrogate(buffer[length - 1])) {
            length--;
        }
        String fragment = new String(buffer, 0, length);
        BlockingSend.await(session, "text fragment of " + length + " chars", done -> session.sendPartialText(fragment, last, done));
        System.arraycopy(buffer, length, buffer, 0, count - length);
        count -= length;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("the message was sent: its writer is closed");
        }
    }
}
