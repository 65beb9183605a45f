package io.wharf.util.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class RetainableByteBufferTest {

    @Test
    void startsWithOneReferenceAndTheLastReleaseFreesIt() {
        RetainableByteBuffer buffer = RetainableByteBuffer.wrap(ByteBuffer.allocate(8));
        assertTrue(buffer.canRetain());
        assertFalse(buffer.isRetained());

        buffer.retain();
        assertTrue(buffer.isRetained());
        buffer.retain();
        assertFalse(buffer.release());
        assertFalse(buffer.release());
        assertFalse(buffer.isRetained());
        assertTrue(buffer.release(), "the last release");
    }

    @Test
    void overReleaseAndRetainAfterTheLastReleaseThrow() {
        RetainableByteBuffer buffer = RetainableByteBuffer.wrap(ByteBuffer.allocate(8));
        assertTrue(buffer.release());

        IllegalStateException overRelease = assertThrows(IllegalStateException.class, buffer::release);
        assertTrue(overRelease.getMessage().contains("Release of a released buffer"), overRelease.getMessage());
        // The failed release left the count alone: it still fails the same way.
        assertThrows(IllegalStateException.class, buffer::release);
        IllegalStateException retain = assertThrows(IllegalStateException.class, buffer::retain);
        assertTrue(retain.getMessage().contains("Retain of a released buffer"), retain.getMessage());
    }

    @Test
    void viewsOfTheBufferFollowFlushMode() {
        ByteBuffer bytes = ByteBuffer.allocate(10);
        bytes.put("abcd".getBytes()).flip();
        RetainableByteBuffer buffer = RetainableByteBuffer.wrap(bytes);
        assertEquals(4, buffer.remaining());
        assertTrue(buffer.hasRemaining());
        assertEquals(10, buffer.capacity());
        assertEquals(6, buffer.space());
        assertFalse(buffer.isDirect());

        buffer.clear();
        assertEquals(0, buffer.byteBuffer().position());
        assertEquals(0, buffer.byteBuffer().limit());
        assertFalse(buffer.hasRemaining());
        assertEquals(10, buffer.space());
    }

    @Test
    void nonPoolingPoolHandsOutEmptyBuffers() {
        RetainableByteBuffer heap = ByteBufferPool.NON_POOLING.acquire(100, false);
        RetainableByteBuffer direct = ByteBufferPool.NON_POOLING.acquire(50, true);
        assertFalse(heap.isDirect());
        assertTrue(direct.isDirect());
        assertTrue(heap.capacity() >= 100);
        assertEquals(0, heap.remaining());
        assertEquals(0, heap.byteBuffer().position());
        assertEquals(heap.capacity(), heap.space());
        assertTrue(heap.release());
        assertTrue(direct.release());
        ByteBufferPool.NON_POOLING.clear();
    }

    @Test
    void concurrentRetainsAndReleasesBalance() throws Exception {
        int threads = 8;
        int rounds = 20_000;
        RetainableByteBuffer buffer = RetainableByteBuffer.wrap(ByteBuffer.allocate(1));
        AtomicInteger lastReleases = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException x) {
                    return;
                }
                for (int i = 0; i < rounds; i++) {
                    buffer.retain();
                    if (buffer.release()) {
                        lastReleases.incrementAndGet();
                    }
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals(0, lastReleases.get(), "a release freed the buffer while the first reference was held");
        assertFalse(buffer.isRetained());
        assertTrue(buffer.release());
    }
}
