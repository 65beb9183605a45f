package io.wharf.util.buffer;

import io.wharf.testing.LeakTracking;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link LeakTracking} used as {@code @ExtendWith}: the pool arrives as a test parameter. */
@ExtendWith(LeakTracking.class)
class LeakTrackingParameterTest {

    @Test
    void resolvesTheTrackingPool(LeakTrackingByteBufferPool pool, ByteBufferPool same) {
        assertSame(pool, same);
        RetainableByteBuffer buffer = pool.acquire(10, false);
        assertEquals(1, pool.outstanding());
        buffer.release();
    }

    @Test
    void everyTestOfTheClassGetsTheSamePoolStartingClean(LeakTrackingByteBufferPool pool) {
        assertEquals(0, pool.outstanding());
        assertEquals(pool.getAcquireCount(), pool.getFreeCount());
        pool.acquire(20, true).release();
    }
}
