package io.wharf.http.internal;

import java.nio.ByteBuffer;

/**
 * The start of a line that did not fit in the buffer being parsed: the HTTP/1 parser copies
 * it here and finishes the line from the next buffer, so it can always consume every byte it
 * is given and the connection can release its network buffer between reads. The caller
 * bounds the length (by the header limits) before appending.
 *
 * <p>Owned by one parser and used on its thread. The array is kept while small and dropped
 * when a long line was assembled, and the buffer over it is made only when a pending line is
 * read and dropped with the line, so an idle connection holds little.
 */
public final class PendingLine {

    private static final int KEPT_CAPACITY = 256;
    private static final byte[] NONE = new byte[0];

    private byte[] bytes = NONE;
    private ByteBuffer view;
    private int length;

    /** @return whether no byte is pending */
    public boolean isEmpty() {
        return length == 0;
    }

    /** @return the number of pending bytes */
    public int length() {
        return length;
    }

    /** Appends the bytes at absolute indexes {@code [start, end)} of {@code source}; its position is not moved. */
    public void append(ByteBuffer source, int start, int end) {
        int count = end - start;
        if (length + count > bytes.length) {
            byte[] grown = new byte[Math.max(length + count, Math.max(64, bytes.length * 2))];
            System.arraycopy(bytes, 0, grown, 0, length);
            bytes = grown;
            view = null;
        }
        source.get(start, bytes, length, count);
        length += count;
    }

    /**
     * @return a heap buffer over the pending bytes, which lie at absolute indexes
     *     {@code [0, length())}; valid until the next {@link #append} or {@link #clear}
     */
    public ByteBuffer buffer() {
        if (view == null) {
            view = ByteBuffer.wrap(bytes);
        }
        return view;
    }

    /** Forgets the pending bytes and the buffer over them, dropping the array if a long line made it large. */
    public void clear() {
        length = 0;
        view = null;
        if (bytes.length > KEPT_CAPACITY) {
            bytes = NONE;
        }
    }
}
