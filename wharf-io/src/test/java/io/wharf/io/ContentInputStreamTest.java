package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The blocking stream over a content source: every chunk released, the last one with bytes too. */
class ContentInputStreamTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    /** A source that hands out the chunks it was given, then nothing (a read would wait). */
    private static final class Chunks implements Content.Source {
        final Deque<Content.Chunk> chunks = new ArrayDeque<>();

        @Override
        public Content.Chunk read() {
            return chunks.poll();
        }

        @Override
        public void demand(Runnable onContentAvailable) {
            throw new AssertionError("the test gave every chunk up front");
        }

        @Override
        public void fail(Throwable cause) {
        }

        @Override
        public long getLength() {
            return -1;
        }
    }

    private Content.Chunk pooled(String text, boolean last) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        RetainableByteBuffer buffer = leaks.pool().acquire(bytes.length, false);
        buffer.byteBuffer().clear().put(bytes).flip();
        return Content.Chunk.from(buffer.byteBuffer(), last, buffer);
    }

    @Test
    void aLastChunkWithBytesIsReleasedOnceRead() throws IOException {
        Chunks source = new Chunks();
        source.chunks.add(pooled("hello ", false));
        source.chunks.add(pooled("world", true));
        try (ContentInputStream in = new ContentInputStream(source)) {
            assertArrayEquals("hello world".getBytes(StandardCharsets.US_ASCII), in.readAllBytes());
            assertEquals(-1, in.read());
            assertEquals(-1, in.read(new byte[4], 0, 4));
        }
        // LeakTracking fails the test if either pooled buffer was not released.
    }

    @Test
    void closingMidwayReleasesWhatIsHeldAndWhatIsReady() throws IOException {
        Chunks source = new Chunks();
        source.chunks.add(pooled("abc", false));
        source.chunks.add(pooled("def", false));
        source.chunks.add(pooled("ghi", true));
        ContentInputStream in = new ContentInputStream(source);
        assertEquals('a', in.read());
        in.close();
        assertEquals(0, source.chunks.size(), "the rest was read and released");
    }

    @Test
    void aFailureIsThrownByEveryReadAfterIt() throws IOException {
        Chunks source = new Chunks();
        source.chunks.add(pooled("ab", false));
        source.chunks.add(Content.Chunk.from(new IOException("reset by peer")));
        try (ContentInputStream in = new ContentInputStream(source)) {
            assertEquals('a', in.read());
            assertEquals('b', in.read());
            assertEquals("reset by peer", assertThrows(IOException.class, in::read).getMessage());
            assertEquals("reset by peer", assertThrows(IOException.class, in::read).getMessage());
        }
    }
}
