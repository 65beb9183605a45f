package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.util.Index;

/**
 * Test helper: looks a key up through every entry point of an {@link Index} — strings with
 * and without offsets, byte arrays, heap, direct, sliced and read-only buffers at non-zero
 * positions — asserts that all answer the same and that no buffer moved, and returns the
 * answer. The bytes around the looked-up range repeat the input, so a lookup that read past
 * its range would find a longer match and disagree.
 */
public final class IndexLookups {

    private IndexLookups() {
    }

    /** @return {@code index.get(key)}, after checking every form of exact lookup agrees */
    public static <V> V get(Index<V> index, String key) {
        V expected = index.get(key);
        String around = "\r\n" + key + key;
        assertSame(expected, index.get(around, 2, key.length()), () -> "get(String, offset, length) of " + key);
        if (!isOctets(key)) {
            return expected;
        }
        for (ByteBuffer buffer : buffersAround(key)) {
            int position = buffer.position();
            int limit = buffer.limit();
            assertSame(expected, index.get(buffer), () -> "get(ByteBuffer) of " + key + " in " + buffer);
            buffer.position(0);
            assertSame(expected, index.get(buffer, position, key.length()),
                () -> "get(ByteBuffer, offset, length) of " + key + " in " + buffer);
            buffer.position(position);
            assertEquals(position, buffer.position(), "position moved");
            assertEquals(limit, buffer.limit(), "limit moved");
        }
        return expected;
    }

    /** @return {@code index.getBest(input)}, after checking every form of best lookup agrees */
    public static <V> V getBest(Index<V> index, String input) {
        V expected = index.getBest(input);
        String around = "\r\n" + input + input;
        assertSame(expected, index.getBest(around, 2, input.length()), () -> "getBest(String, offset, length) of " + input);
        if (!isOctets(input)) {
            return expected;
        }
        byte[] bytes = around.getBytes(StandardCharsets.ISO_8859_1);
        assertSame(expected, index.getBest(bytes, 2, input.length()), () -> "getBest(byte[], offset, length) of " + input);
        for (ByteBuffer buffer : buffersAround(input)) {
            int position = buffer.position();
            int limit = buffer.limit();
            assertSame(expected, index.getBest(buffer), () -> "getBest(ByteBuffer) of " + input + " in " + buffer);
            buffer.position(0);
            assertSame(expected, index.getBest(buffer, position, input.length()),
                () -> "getBest(ByteBuffer, offset, length) of " + input + " in " + buffer);
            buffer.position(position);
            assertEquals(position, buffer.position(), "position moved");
            assertEquals(limit, buffer.limit(), "limit moved");
        }
        return expected;
    }

    /**
     * @return buffers holding {@code text} between position and limit, with other bytes
     *     before and after: heap, a heap slice (non-zero array offset), read-only heap,
     *     direct and a direct slice
     */
    public static ByteBuffer[] buffersAround(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        byte[] around = ("xx\r\n" + text + text + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer heap = ByteBuffer.wrap(around);
        ByteBuffer direct = directBuffer(around.length).put(around).flip();
        return new ByteBuffer[] {
            window(heap, 4, bytes.length),
            window(heap.duplicate().position(2).slice(), 2, bytes.length),
            window(heap.asReadOnlyBuffer(), 4, bytes.length),
            window(direct, 4, bytes.length),
            window(direct.duplicate().position(1).slice(), 3, bytes.length),
        };
    }

    /** Direct buffers are slow to allocate: each thread reuses one, grown as needed. */
    private static final ThreadLocal<ByteBuffer[]> DIRECT = ThreadLocal.withInitial(() -> new ByteBuffer[1]);

    private static ByteBuffer directBuffer(int capacity) {
        ByteBuffer[] holder = DIRECT.get();
        if (holder[0] == null || holder[0].capacity() < capacity) {
            holder[0] = ByteBuffer.allocateDirect(Math.max(capacity, 4096));
        }
        return holder[0].clear().limit(capacity);
    }

    private static ByteBuffer window(ByteBuffer buffer, int position, int length) {
        return buffer.duplicate().limit(position + length).position(position);
    }

    private static boolean isOctets(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0xFF) {
                return false;
            }
        }
        return true;
    }
}
