package io.wharf.util.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class BucketedByteBufferPoolTest {

    private static BucketedByteBufferPool pool(int factor, int maxCapacity) {
        return BucketedByteBufferPool.builder().factor(factor).maxCapacity(maxCapacity).build();
    }

    @Test
    void everySizeRoundsUpToTheNextMultipleOfTheFactor() {
        BucketedByteBufferPool pool = pool(8, 64);
        for (int size = 0; size <= 70; size++) {
            int expected = size == 0 ? 8 : size > 64 ? size : (size + 7) / 8 * 8;
            assertEquals(expected, pool.capacityFor(size), "size " + size);
            for (boolean direct : new boolean[] {false, true}) {
                RetainableByteBuffer buffer = pool.acquire(size, direct);
                assertEquals(expected, buffer.capacity(), "size " + size);
                assertTrue(buffer.release());
            }
        }
    }

    @Test
    void bucketBoundariesWithDefaultSettings() {
        BucketedByteBufferPool pool = new BucketedByteBufferPool();
        assertEquals(1024, pool.getFactor());
        assertEquals(65536, pool.getMaxCapacity());
        int[][] cases = {{0, 1024}, {1, 1024}, {1023, 1024}, {1024, 1024}, {1025, 2048}, {2048, 2048}, {2049, 3072},
            {16384 + 9, 17408}, {65535, 65536}, {65536, 65536}, {65537, 65537}, {1 << 20, 1 << 20}};
        for (int[] pair : cases) {
            assertEquals(pair[1], pool.capacityFor(pair[0]), "size " + pair[0]);
            RetainableByteBuffer buffer = pool.acquire(pair[0], false);
            assertEquals(pair[1], buffer.capacity(), "size " + pair[0]);
            buffer.release();
        }
    }

    @Test
    void rejectsNegativeSizesAndBadSettings() {
        BucketedByteBufferPool pool = new BucketedByteBufferPool();
        assertThrows(IllegalArgumentException.class, () -> pool.acquire(-1, false));
        assertThrows(IllegalArgumentException.class, () -> pool.capacityFor(-1));
        assertThrows(IllegalArgumentException.class, () -> BucketedByteBufferPool.builder().factor(0));
        assertThrows(IllegalArgumentException.class, () -> BucketedByteBufferPool.builder().maxCapacity(0));
        assertThrows(IllegalArgumentException.class, () -> BucketedByteBufferPool.builder().maxBucketEntries(-1));
        assertThrows(IllegalArgumentException.class, () -> BucketedByteBufferPool.builder().maxHeapMemory(-1));
        assertThrows(IllegalArgumentException.class, () -> BucketedByteBufferPool.builder().maxDirectMemory(-1));
        IllegalArgumentException notMultiple = assertThrows(IllegalArgumentException.class,
            () -> BucketedByteBufferPool.builder().factor(1000).maxCapacity(4096).build());
        assertTrue(notMultiple.getMessage().contains("multiple"), notMultiple.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BucketedByteBufferPool.builder().factor(4096).maxCapacity(1024).build());
    }

    @Test
    void heapAndDirectBuffersComeFromSeparateBuckets() {
        BucketedByteBufferPool pool = pool(1024, 4096);
        RetainableByteBuffer heap = pool.acquire(100, false);
        assertFalse(heap.isDirect());
        assertFalse(heap.byteBuffer().isDirect());
        ByteBuffer heapMemory = heap.byteBuffer();
        heap.release();

        RetainableByteBuffer direct = pool.acquire(100, true);
        assertTrue(direct.isDirect());
        assertTrue(direct.byteBuffer().isDirect());
        assertNotSame(heapMemory, direct.byteBuffer());
        direct.release();

        assertEquals(1, pool.getIdleCount(false));
        assertEquals(1, pool.getIdleCount(true));
        assertEquals(1, pool.statistics(false).misses());
        assertEquals(1, pool.statistics(true).misses());
        assertSame(heapMemory, pool.acquire(1000, false).byteBuffer());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void releasedBufferServesTheNextAcquireOfItsBucket(boolean direct) {
        BucketedByteBufferPool pool = pool(1024, 4096);
        RetainableByteBuffer first = pool.acquire(1500, direct);
        ByteBuffer memory = first.byteBuffer();
        assertTrue(first.release());

        RetainableByteBuffer other = pool.acquire(3000, direct);
        assertNotSame(memory, other.byteBuffer(), "another bucket must not serve it");
        RetainableByteBuffer again = pool.acquire(2048, direct);
        assertSame(memory, again.byteBuffer());
        assertEquals(1, pool.statistics(direct).hits());
        assertEquals(2, pool.statistics(direct).misses());
        other.release();
        again.release();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void acquiredBufferIsEmptyEvenWhenReleasedDirty(boolean direct) {
        BucketedByteBufferPool pool = pool(1024, 4096);
        RetainableByteBuffer buffer = pool.acquire(10, direct);
        assertEquals(0, buffer.byteBuffer().position());
        assertEquals(0, buffer.byteBuffer().limit());
        ByteBuffer memory = buffer.byteBuffer();
        ByteBuffers.append(memory, ByteBuffers.utf8("dirty bytes"));
        memory.position(3).order(ByteOrder.LITTLE_ENDIAN).mark();
        buffer.release();

        RetainableByteBuffer again = pool.acquire(10, direct);
        assertSame(memory, again.byteBuffer());
        assertEquals(0, again.byteBuffer().position());
        assertEquals(0, again.byteBuffer().limit());
        assertEquals(1024, again.capacity());
        assertEquals(ByteOrder.BIG_ENDIAN, again.byteBuffer().order());
        assertFalse(again.hasRemaining());
        again.release();
    }

    @Test
    void retainAndReleaseCountReferences() {
        BucketedByteBufferPool pool = pool(1024, 4096);
        RetainableByteBuffer buffer = pool.acquire(10, false);
        assertFalse(buffer.isRetained());
        buffer.retain();
        buffer.retain();
        assertTrue(buffer.isRetained());
        assertFalse(buffer.release());
        assertTrue(buffer.isRetained());
        assertFalse(buffer.release());
        assertFalse(buffer.isRetained());
        assertEquals(0, pool.getIdleCount(false), "still held once");
        assertEquals(1, pool.getInUseCount(false));
        assertTrue(buffer.release());
        assertEquals(1, pool.getIdleCount(false));
        assertEquals(0, pool.getInUseCount(false));
    }

    @Test
    void overReleaseThrowsAndNeverReturnsTheBufferTwice() {
        BucketedByteBufferPool pool = pool(1024, 4096);
        RetainableByteBuffer buffer = pool.acquire(10, false);
        assertTrue(buffer.release());
        IllegalStateException overRelease = assertThrows(IllegalStateException.class, buffer::release);
        assertTrue(overRelease.getMessage().contains("released"), overRelease.getMessage());
        assertThrows(IllegalStateException.class, buffer::retain);
        assertEquals(1, pool.getIdleCount(false));

        RetainableByteBuffer first = pool.acquire(10, false);
        RetainableByteBuffer second = pool.acquire(10, false);
        assertNotSame(first.byteBuffer(), second.byteBuffer());
        first.release();
        second.release();
        assertEquals(0, pool.getInUseCount());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void buffersAboveTheMaximumAreExactAndNotPooled(boolean direct) {
        BucketedByteBufferPool pool = pool(1024, 4096);
        RetainableByteBuffer big = pool.acquire(5000, direct);
        assertEquals(5000, big.capacity());
        assertEquals(direct, big.isDirect());
        assertEquals(0, big.byteBuffer().limit());
        big.retain();
        assertFalse(big.release());
        assertEquals(1, pool.getInUseCount(direct));
        ByteBuffer memory = big.byteBuffer();
        assertTrue(big.release());
        assertThrows(IllegalStateException.class, big::release);

        assertEquals(0, pool.getIdleCount(direct));
        assertEquals(0, pool.getIdleMemory(direct));
        RetainableByteBuffer again = pool.acquire(5000, direct);
        assertNotSame(memory, again.byteBuffer());
        again.release();
        BucketedByteBufferPool.Statistics statistics = pool.statistics(direct);
        assertEquals(2, statistics.unpooled());
        assertEquals(2, statistics.allocated());
        assertEquals(2, statistics.discarded());
        assertEquals(0, statistics.inUse());
    }

    @Test
    void idleMemoryStaysUnderTheCapOfItsKind() {
        BucketedByteBufferPool pool = BucketedByteBufferPool.builder().factor(1024).maxCapacity(4096)
            .maxHeapMemory(3 * 1024).maxDirectMemory(1024).build();
        List<RetainableByteBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            buffers.add(pool.acquire(1024, false));
            buffers.add(pool.acquire(1024, true));
        }
        assertEquals(3 * 1024, pool.getPooledMemory(false), "the buffers lent out count against the cap");
        assertEquals(1024, pool.getPooledMemory(true));
        for (RetainableByteBuffer buffer : buffers) {
            assertTrue(buffer.release());
            assertTrue(pool.getPooledMemory(false) <= 3 * 1024);
            assertTrue(pool.getPooledMemory(true) <= 1024);
        }
        BucketedByteBufferPool.Statistics heap = pool.statistics(false);
        assertEquals(3, heap.idleCount());
        assertEquals(3 * 1024, heap.idleMemory());
        assertEquals(3 * 1024, heap.pooledMemory());
        assertEquals(2, heap.rejected());
        assertEquals(3, heap.returned());
        assertEquals(2, heap.discarded());
        BucketedByteBufferPool.Statistics direct = pool.statistics(true);
        assertEquals(1, direct.idleCount());
        assertEquals(1024, direct.idleMemory());
        assertEquals(4, direct.discarded());
    }

    @Test
    void missEvictsIdleBuffersOfTheFullestOtherBucket() {
        BucketedByteBufferPool pool = BucketedByteBufferPool.builder().factor(1024).maxCapacity(4096)
            .maxHeapMemory(5 * 1024).build();
        List<RetainableByteBuffer> small = List.of(pool.acquire(1024, false), pool.acquire(1024, false), pool.acquire(1024, false));
        RetainableByteBuffer medium = pool.acquire(2048, false);
        small.forEach(RetainableByteBuffer::release);
        medium.release();
        assertEquals(5 * 1024, pool.getIdleMemory(false));
        assertEquals(5 * 1024, pool.getPooledMemory(false));

        // 4 KiB must come out of 5 KiB: the 1 KiB bucket (3 KiB idle) gives two, then the 2 KiB bucket is fullest.
        RetainableByteBuffer large = pool.acquire(4096, false);
        BucketedByteBufferPool.Statistics statistics = pool.statistics(false);
        assertEquals(3, statistics.evicted());
        assertEquals(0, statistics.rejected());
        assertEquals(5 * 1024, statistics.pooledMemory());
        assertEquals(1024, statistics.idleMemory());
        large.release();
        statistics = pool.statistics(false);
        assertEquals(5 * 1024, statistics.idleMemory());
        assertEquals(2, statistics.idleCount());
        assertEquals(0, statistics.discarded());
        String dump = pool.dump();
        assertTrue(dump.contains("heap 1024: idle 1, pooled 1/5"), dump);
        assertTrue(dump.contains("heap 2048: idle 0, pooled 0/2"), dump);
        assertTrue(dump.contains("heap 4096: idle 1, pooled 1/1"), dump);
    }

    @Test
    void missIsLentOnceWhenEvictionCannotMakeRoom() {
        BucketedByteBufferPool pool = BucketedByteBufferPool.builder().factor(1024).maxCapacity(4096)
            .maxHeapMemory(4 * 1024).build();
        RetainableByteBuffer held = pool.acquire(2048, false);
        pool.acquire(1024, false).release();
        assertEquals(3 * 1024, pool.getPooledMemory(false));
        // 3 KiB more would need 2 KiB freed, and only 1 KiB is idle: nothing is evicted.
        RetainableByteBuffer lent = pool.acquire(3072, false);
        assertEquals(3072, lent.capacity());
        ByteBuffer memory = lent.byteBuffer();
        assertTrue(lent.release());
        BucketedByteBufferPool.Statistics statistics = pool.statistics(false);
        assertEquals(0, statistics.evicted());
        assertEquals(1, statistics.rejected());
        assertEquals(1, statistics.discarded());
        assertEquals(1, statistics.idleCount());
        assertEquals(3 * 1024, statistics.pooledMemory());
        assertThrows(IllegalStateException.class, lent::release);
        assertNotSame(memory, pool.acquire(3072, false).byteBuffer());
        held.release();
    }

    @Test
    void aCapBelowTheBucketCapacityPoolsNothing() {
        BucketedByteBufferPool pool = BucketedByteBufferPool.builder().factor(1024).maxCapacity(4096)
            .maxHeapMemory(1000).maxDirectMemory(0).build();
        pool.acquire(10, false).release();
        pool.acquire(10, true).release();
        assertEquals(0, pool.getIdleCount(false));
        assertEquals(0, pool.getIdleCount(true));
        assertEquals(1, pool.statistics(false).discarded());
        assertEquals(1, pool.statistics(true).discarded());
    }

    @Test
    void eachBucketKeepsAtMostItsMaxEntries() {
        BucketedByteBufferPool pool = BucketedByteBufferPool.builder().factor(1024).maxCapacity(4096).maxBucketEntries(2).build();
        List<RetainableByteBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            buffers.add(pool.acquire(1024, false));
            buffers.add(pool.acquire(4096, false));
        }
        buffers.forEach(RetainableByteBuffer::release);
        BucketedByteBufferPool.Statistics statistics = pool.statistics(false);
        assertEquals(4, statistics.idleCount());
        assertEquals(2 * 1024 + 2 * 4096, statistics.idleMemory());
        assertEquals(2, statistics.rejected());
        assertEquals(2, statistics.discarded());
        assertEquals(2, pool.getMaxBucketEntries());
    }

    @Test
    void clearDropsIdleBuffersButNotThoseInUse() {
        BucketedByteBufferPool pool = pool(1024, 4096);
        RetainableByteBuffer kept = pool.acquire(100, true);
        pool.acquire(100, false).release();
        pool.acquire(3000, false).release();
        pool.acquire(100, true).retain();
        assertEquals(2, pool.getIdleCount(false));
        pool.clear();
        assertEquals(0, pool.getIdleCount(false));
        assertEquals(0, pool.getIdleMemory(false));
        assertEquals(0, pool.getPooledMemory(false));
        assertEquals(2, pool.getInUseCount(true));
        assertEquals(2 * 1024, pool.getPooledMemory(true), "buffers lent out stay accounted");

        ByteBuffer memory = kept.byteBuffer();
        kept.release();
        assertEquals(1, pool.getIdleCount(true));
        assertSame(memory, pool.acquire(1, true).byteBuffer());
    }

    @Test
    void statisticsCountEveryOutcome() {
        BucketedByteBufferPool pool = pool(1024, 4096);
        RetainableByteBuffer a = pool.acquire(10, false);
        RetainableByteBuffer b = pool.acquire(10, false);
        RetainableByteBuffer c = pool.acquire(9999, false);
        RetainableByteBuffer d = pool.acquire(10, true);
        assertEquals(3, pool.getInUseCount(false));
        assertEquals(1, pool.getInUseCount(true));
        assertEquals(4, pool.getInUseCount());
        a.release();
        c.release();
        RetainableByteBuffer e = pool.acquire(20, false);

        BucketedByteBufferPool.Statistics heap = pool.statistics(false);
        assertEquals(4, heap.acquired());
        assertEquals(1, heap.hits());
        assertEquals(2, heap.misses());
        assertEquals(1, heap.unpooled());
        assertEquals(3, heap.allocated());
        assertEquals(2, heap.released());
        assertEquals(1, heap.returned());
        assertEquals(1, heap.discarded());
        assertEquals(2, heap.inUse());
        assertEquals(0, heap.idleCount());

        b.release();
        d.release();
        e.release();
        assertEquals(0, pool.getInUseCount());
        assertEquals(2, pool.getIdleCount(false));
        assertEquals(2048, pool.getIdleMemory(false));
        assertEquals(1, pool.getIdleCount(true));
        assertEquals(1024, pool.getIdleMemory(true));
    }

    @Test
    void defaultCapsAreAnEighthOfTheHeapAnd64MiBDirect() {
        BucketedByteBufferPool pool = new BucketedByteBufferPool();
        assertEquals(Runtime.getRuntime().maxMemory() / 8, pool.getMaxMemory(false));
        assertEquals(64L * 1024 * 1024, pool.getMaxMemory(true));
        assertEquals(1024, pool.getMaxBucketEntries());
    }

    @Test
    void toStringIsOneLineAndDumpListsEachUsedBucket() {
        BucketedByteBufferPool pool = pool(1024, 4096);
        pool.acquire(10, false).release();
        pool.acquire(3000, true).release();
        RetainableByteBuffer big = pool.acquire(5000, true);

        String line = pool.toString();
        assertFalse(line.contains("\n"), line);
        assertTrue(line.contains("heap 0 in use, 1 idle"), line);
        assertTrue(line.contains("direct 1 in use, 1 idle"), line);

        String[] lines = pool.dump().split(System.lineSeparator());
        assertEquals(4, lines.length, pool.dump());
        assertEquals(line, lines[0]);
        assertTrue(lines[1].contains("heap 1024: idle 1, pooled 1/"), lines[1]);
        assertTrue(lines[2].contains("direct 3072: idle 1, pooled 1/"), lines[2]);
        assertTrue(lines[3].contains("direct above 4096: 1 unpooled"), lines[3]);
        big.release();
    }
}
