package io.wharf.util.buffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Operations on {@link ByteBuffer}s kept in flush mode (the bytes held lie between position
 * and limit), the convention throughout Wharf.
 */
public final class ByteBuffers {

    /** An empty, read-only buffer. */
    public static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private ByteBuffers() {
    }

    /**
     * Turns a flush-mode buffer into fill mode so that bytes can be written after its limit,
     * compacting first when the held bytes do not start at 0 and there is no space at the end.
     *
     * @return the position to hand back to {@link #flipToFlush(ByteBuffer, int)}
     */
    public static int flipToFill(ByteBuffer buffer) {
        int position = buffer.position();
        int limit = buffer.limit();
        if (position == limit) {
            buffer.position(0).limit(buffer.capacity());
            return 0;
        }
        if (limit == buffer.capacity()) {
            buffer.compact();
            return 0;
        }
        buffer.position(limit).limit(buffer.capacity());
        return position;
    }

    /** Turns a fill-mode buffer back into flush mode: the bytes held start at {@code position}. */
    public static void flipToFlush(ByteBuffer buffer, int position) {
        buffer.limit(buffer.position()).position(position);
    }

    /**
     * Moves as many bytes as fit from {@code from} to the end of {@code to}; both in flush mode.
     *
     * @return the number of bytes moved
     */
    public static int append(ByteBuffer to, ByteBuffer from) {
        int position = flipToFill(to);
        try {
            int length = Math.min(from.remaining(), to.remaining());
            to.put(to.position(), from, from.position(), length);
            to.position(to.position() + length);
            from.position(from.position() + length);
            return length;
        } finally {
            flipToFlush(to, position);
        }
    }

    /** @return the total number of bytes held by {@code buffers} */
    public static long remaining(ByteBuffer... buffers) {
        long total = 0;
        for (ByteBuffer buffer : buffers) {
            total += buffer.remaining();
        }
        return total;
    }

    /** @return whether any of {@code buffers} holds bytes */
    public static boolean hasRemaining(ByteBuffer... buffers) {
        for (ByteBuffer buffer : buffers) {
            if (buffer.hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    /** @return a heap buffer in flush mode holding the UTF-8 bytes of {@code text} */
    public static ByteBuffer utf8(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the held bytes decoded as UTF-8, without moving the position */
    public static String toUtf8(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(buffer.position(), bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** @return a short description for logs: position, limit, capacity and the first bytes */
    public static String describe(ByteBuffer buffer) {
        if (buffer == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder();
        out.append(buffer.isDirect() ? "Direct" : "Heap").append('[')
            .append(buffer.position()).append('-').append(buffer.limit()).append('/').append(buffer.capacity()).append("]{");
        int end = Math.min(buffer.limit(), buffer.position() + 32);
        for (int i = buffer.position(); i < end; i++) {
            int b = buffer.get(i) & 0xFF;
            if (b >= 0x20 && b < 0x7F) {
                out.append((char) b);
            } else {
                out.append('\\').append('x').append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 0xF, 16));
            }
        }
        if (end < buffer.limit()) {
            out.append("...");
        }
        return out.append('}').toString();
    }
}
