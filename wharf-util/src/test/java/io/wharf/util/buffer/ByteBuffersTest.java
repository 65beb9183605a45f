package io.wharf.util.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ByteBuffersTest {

    /** A buffer of {@code capacity} bytes holding {@code text} at {@code offset}, in flush mode. */
    private static ByteBuffer holding(int capacity, int offset, String text) {
        ByteBuffer buffer = ByteBuffer.allocate(capacity);
        buffer.position(offset);
        buffer.put(text.getBytes(StandardCharsets.US_ASCII));
        buffer.limit(buffer.position()).position(offset);
        return buffer;
    }

    @Test
    void flipToFillOfAnEmptyBufferStartsAtZero() {
        ByteBuffer buffer = holding(8, 3, "");
        assertEquals(0, ByteBuffers.flipToFill(buffer));
        assertEquals(0, buffer.position());
        assertEquals(8, buffer.limit());
    }

    @Test
    void flipToFillAppendsAfterTheHeldBytesWhenThereIsSpace() {
        ByteBuffer buffer = holding(8, 2, "abc");
        int position = ByteBuffers.flipToFill(buffer);
        assertEquals(2, position, "no compaction while there is space at the end");
        assertEquals(5, buffer.position());
        assertEquals(8, buffer.limit());

        buffer.put((byte) 'd');
        ByteBuffers.flipToFlush(buffer, position);
        assertEquals("abcd", ByteBuffers.toUtf8(buffer));
        assertEquals(2, buffer.position());
        assertEquals(6, buffer.limit());
    }

    @Test
    void flipToFillCompactsWhenTheHeldBytesReachTheEnd() {
        ByteBuffer buffer = holding(8, 5, "xyz");
        int position = ByteBuffers.flipToFill(buffer);
        assertEquals(0, position);
        assertEquals(3, buffer.position());
        assertEquals(8, buffer.limit());

        buffer.put("1234".getBytes(StandardCharsets.US_ASCII));
        ByteBuffers.flipToFlush(buffer, position);
        assertEquals("xyz1234", ByteBuffers.toUtf8(buffer));
    }

    @Test
    void flipToFillOfAFullBufferLeavesNoSpace() {
        ByteBuffer buffer = holding(4, 0, "full");
        int position = ByteBuffers.flipToFill(buffer);
        assertFalse(buffer.hasRemaining());
        ByteBuffers.flipToFlush(buffer, position);
        assertEquals("full", ByteBuffers.toUtf8(buffer));
    }

    @Test
    void appendMovesWhatFits() {
        ByteBuffer to = holding(6, 0, "ab");
        ByteBuffer from = ByteBuffers.utf8("cdefgh");
        assertEquals(4, ByteBuffers.append(to, from));
        assertEquals("abcdef", ByteBuffers.toUtf8(to));
        assertEquals("gh", ByteBuffers.toUtf8(from));

        assertEquals(0, ByteBuffers.append(to, from), "nothing fits in a full buffer");
        assertEquals("gh", ByteBuffers.toUtf8(from));
    }

    @Test
    void appendMovesEverythingWhenItFits() {
        ByteBuffer to = holding(16, 1, "head ");
        ByteBuffer from = ByteBuffers.utf8("tail");
        assertEquals(4, ByteBuffers.append(to, from));
        assertFalse(from.hasRemaining());
        assertEquals("head tail", ByteBuffers.toUtf8(to));
        assertEquals(1, to.position(), "the held bytes did not move");
    }

    @Test
    void appendCompactsAConsumedBuffer() {
        ByteBuffer to = holding(6, 4, "ef");
        ByteBuffer from = ByteBuffers.utf8("ghij");
        assertEquals(4, ByteBuffers.append(to, from));
        assertEquals("efghij", ByteBuffers.toUtf8(to));
        assertEquals(0, to.position());
    }

    @Test
    void appendWorksFromDirectAndIntoDirectBuffers() {
        ByteBuffer to = ByteBuffer.allocateDirect(8).limit(0);
        ByteBuffer from = ByteBuffer.allocateDirect(3).put("xyz".getBytes(StandardCharsets.US_ASCII)).flip();
        assertEquals(3, ByteBuffers.append(to, from));
        assertEquals(0, ByteBuffers.append(to, ByteBuffers.EMPTY));
        assertEquals("xyz", ByteBuffers.toUtf8(to));
    }

    @Test
    void remainingCountsAllBuffers() {
        ByteBuffer a = ByteBuffers.utf8("abc");
        ByteBuffer b = ByteBuffers.utf8("");
        assertEquals(3, ByteBuffers.remaining(a, b));
        assertTrue(ByteBuffers.hasRemaining(b, a));
        assertFalse(ByteBuffers.hasRemaining(b, ByteBuffers.EMPTY));
        assertEquals(0, ByteBuffers.remaining());
    }

    @Test
    void utf8RoundTripsWithoutMovingThePosition() {
        String text = "h\u00e9llo \u20ac \uD83D\uDE00";
        ByteBuffer buffer = ByteBuffers.utf8(text);
        assertEquals(text.getBytes(StandardCharsets.UTF_8).length, buffer.remaining());
        assertEquals(text, ByteBuffers.toUtf8(buffer));
        assertEquals(0, buffer.position());
        assertEquals(text, ByteBuffers.toUtf8(buffer));
    }

    @Test
    void emptyIsEmptyAndReadOnly() {
        assertEquals(0, ByteBuffers.EMPTY.remaining());
        assertTrue(ByteBuffers.EMPTY.isReadOnly());
    }

    @Test
    void describeShowsPositionsAndTheFirstBytes() {
        ByteBuffer buffer = holding(16, 1, "GET /\r\n");
        assertEquals("Heap[1-8/16]{GET /\\x0d\\x0a}", ByteBuffers.describe(buffer));
        assertEquals(1, buffer.position(), "describe() moved the position");

        ByteBuffer direct = ByteBuffer.allocateDirect(40);
        direct.put("0123456789012345678901234567890123456789".getBytes(StandardCharsets.US_ASCII)).flip();
        assertEquals("Direct[0-40/40]{01234567890123456789012345678901...}", ByteBuffers.describe(direct));

        assertEquals("Heap[0-1/1]{\\xff}", ByteBuffers.describe(ByteBuffer.wrap(new byte[] {(byte) 0xFF})));
        assertEquals("null", ByteBuffers.describe(null));
    }
}
