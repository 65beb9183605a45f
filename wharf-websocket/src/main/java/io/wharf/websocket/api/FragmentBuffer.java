package io.wharf.websocket.api;

import java.io.IOException;
import java.lang.reflect.Array;
import java.util.Objects;

/**
 * What the message streams ({@link MessageOutputStream}, {@link MessageWriter}) share: an array
 * ({@code byte[]} or {@code char[]}) that writes fill, handed to a {@link Sender} as one
 * fragment whenever it is full, on {@link #flush()} and, as the last, on {@link #close()}.
 *
 * <p>One writing thread; the sender blocks until its fragment was written, so the array is
 * reused right after. No pooled buffer.
 */
final class FragmentBuffer {

    /** Sends the first {@code count} elements of the array as a fragment, and waits for it. */
    @FunctionalInterface
    interface Sender {
        /** @return how many elements it sent; the rest (a held-back half character) moves to the front */
        int send(int count, boolean last) throws IOException;
    }

    private final Object array;
    private final int capacity;
    private final Sender sender;
    private int count;
    private boolean closed;

    FragmentBuffer(Object array, Sender sender) {
        this.array = array;
        this.capacity = Array.getLength(array);
        this.sender = sender;
    }

    /** Copies {@code length} elements of {@code source} (an array of the same type), sending each full array. */
    void write(Object source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, Array.getLength(source));
        ensureOpen();
        while (length > 0) {
            int chunk = Math.min(length, capacity - count);
            System.arraycopy(source, offset, array, count, chunk);
            count += chunk;
            offset += chunk;
            length -= chunk;
            if (count == capacity) {
                send(false);
            }
        }
    }

    void flush() throws IOException {
        ensureOpen();
        if (count > 0) {
            send(false);
        }
    }

    /** Sends the last fragment (empty when nothing is left), once. */
    void close() throws IOException {
        if (!closed) {
            closed = true;
            send(true);
        }
    }

    private void send(boolean last) throws IOException {
        int sent = sender.send(count, last);
        System.arraycopy(array, sent, array, 0, count - sent);
        count -= sent;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("the message was sent: its stream is closed");
        }
    }
}
