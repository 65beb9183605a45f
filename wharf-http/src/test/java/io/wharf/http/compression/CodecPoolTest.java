package io.wharf.http.compression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CodecPoolTest {

    /** A stand-in codec that records what the pool does to it and catches two users at once. */
    static final class FakeCodec {
        final AtomicBoolean busy = new AtomicBoolean();
        final AtomicInteger resets = new AtomicInteger();
        final AtomicInteger ends = new AtomicInteger();
        volatile int uses;

        void use() {
            if (!busy.compareAndSet(false, true)) {
                throw new AssertionError("codec used by two threads at once");
            }
            if (ends.get() > 0) {
                throw new AssertionError("codec used after it was ended");
            }
            uses++;
            busy.set(false);
        }
    }

    private final Queue<FakeCodec> created = new ConcurrentLinkedQueue<>();

    private CodecPool<FakeCodec> pool(int capacity) {
        return new CodecPool<>(capacity, () -> {
            FakeCodec codec = new FakeCodec();
            created.add(codec);
            return codec;
        }, codec -> codec.resets.incrementAndGet(), codec -> codec.ends.incrementAndGet());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void rejectsACapacityBelowOne(int capacity) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> pool(capacity));
        assertTrue(failure.getMessage().contains("capacity"), failure.getMessage());
    }

    @Test
    void reusesAReleasedCodecAfterResettingIt() {
        CodecPool<FakeCodec> pool = pool(4);
        CodecPool.Lease<FakeCodec> first = pool.acquire();
        FakeCodec codec = first.codec();
        assertTrue(first.isPooled());
        assertEquals(1, pool.getInUseCount());
        first.release();
        assertEquals(1, codec.resets.get());
        assertEquals(0, codec.ends.get());
        assertEquals(1, pool.getIdleCount());

        CodecPool.Lease<FakeCodec> second = pool.acquire();
        assertSame(codec, second.codec());
        second.release();
        assertEquals(1, created.size());
        assertEquals(2, codec.resets.get());
    }

    @Test
    void beyondCapacityLendsCodecsThatReleaseEnds() {
        CodecPool<FakeCodec> pool = pool(2);
        CodecPool.Lease<FakeCodec> one = pool.acquire();
        CodecPool.Lease<FakeCodec> two = pool.acquire();
        CodecPool.Lease<FakeCodec> three = pool.acquire();
        assertTrue(one.isPooled());
        assertTrue(two.isPooled());
        assertFalse(three.isPooled());
        assertEquals(3, created.size());
        assertEquals(2, pool.getInUseCount());

        FakeCodec extra = three.codec();
        three.release();
        assertEquals(1, extra.ends.get());
        one.release();
        two.release();
        assertEquals(2, pool.getIdleCount());
        for (FakeCodec codec : created) {
            assertEquals(codec == extra ? 1 : 0, codec.ends.get());
        }
    }

    @Test
    void aLeaseIsReleasedOnce() {
        CodecPool<FakeCodec> pool = pool(1);
        CodecPool.Lease<FakeCodec> lease = pool.acquire();
        lease.release();
        assertThrows(IllegalStateException.class, lease::release);
        assertThrows(IllegalStateException.class, lease::codec);
        assertEquals(1, pool.getIdleCount());
        assertEquals(1, created.peek().resets.get());
    }

    @Test
    void closeEndsIdleCodecsAndLeasedOnesAtTheirRelease() {
        CodecPool<FakeCodec> pool = pool(4);
        CodecPool.Lease<FakeCodec> idle = pool.acquire();
        CodecPool.Lease<FakeCodec> held = pool.acquire();
        FakeCodec idleCodec = idle.codec();
        FakeCodec heldCodec = held.codec();
        idle.release();

        pool.close();
        assertTrue(pool.isClosed());
        assertEquals(1, idleCodec.ends.get());
        assertEquals(0, heldCodec.ends.get(), "a codec in use is not ended under its user");
        heldCodec.use();
        held.release();
        assertEquals(1, heldCodec.ends.get());

        CodecPool.Lease<FakeCodec> late = pool.acquire();
        FakeCodec lateCodec = late.codec();
        assertFalse(late.isPooled());
        assertNotSame(idleCodec, lateCodec);
        late.release();
        assertEquals(1, lateCodec.ends.get());
        assertEquals(0, lateCodec.resets.get());

        pool.close();
        for (FakeCodec codec : created) {
            assertEquals(1, codec.ends.get());
        }
    }

    @Test
    void aFailingCreatorLeavesNoReservedSlot() {
        AtomicBoolean fail = new AtomicBoolean(true);
        CodecPool<FakeCodec> pool = new CodecPool<>(1, () -> {
            if (fail.get()) {
                throw new IllegalStateException("no native memory");
            }
            return new FakeCodec();
        }, codec -> { }, codec -> codec.ends.incrementAndGet());
        assertThrows(IllegalStateException.class, pool::acquire);
        fail.set(false);
        CodecPool.Lease<FakeCodec> lease = pool.acquire();
        assertTrue(lease.isPooled(), "the failed creation freed its slot");
        lease.release();
    }

    @Test
    void aCodecThatCannotBeResetIsEndedAndDropped() {
        CodecPool<FakeCodec> pool = new CodecPool<>(1, FakeCodec::new, codec -> {
            throw new IllegalStateException("reset failed");
        }, codec -> codec.ends.incrementAndGet());
        CodecPool.Lease<FakeCodec> lease = pool.acquire();
        FakeCodec codec = lease.codec();
        assertThrows(IllegalStateException.class, lease::release);
        assertEquals(1, codec.ends.get());
        assertEquals(0, pool.getIdleCount());
        CodecPool.Lease<FakeCodec> next = pool.acquire();
        assertNotSame(codec, next.codec());
        assertTrue(next.isPooled(), "the dropped codec freed its slot");
    }

    @Test
    void manyThreadsNeverShareACodecAndNothingLeaks() throws Exception {
        int threads = 8;
        int iterations = 10_000;
        CodecPool<FakeCodec> pool = pool(4);
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                results.add(executor.submit(() -> {
                    start.await();
                    int unpooled = 0;
                    for (int iteration = 0; iteration < iterations; iteration++) {
                        CodecPool.Lease<FakeCodec> lease = pool.acquire();
                        lease.codec().use();
                        if (!lease.isPooled()) {
                            unpooled++;
                        }
                        lease.release();
                    }
                    return unpooled;
                }));
            }
            int unpooled = 0;
            for (Future<Integer> result : results) {
                unpooled += result.get(60, TimeUnit.SECONDS);
            }
            int uses = created.stream().mapToInt(codec -> codec.uses).sum();
            assertEquals(threads * iterations, uses);
            assertEquals(0, pool.getInUseCount());
            assertTrue(pool.getIdleCount() <= 4, "idle " + pool.getIdleCount());
            long ended = created.stream().filter(codec -> codec.ends.get() > 0).count();
            assertEquals(unpooled, ended, "every codec made beyond capacity is ended, and only those");
            assertEquals(created.size() - unpooled, pool.getIdleCount());
        } finally {
            executor.shutdownNow();
        }
        pool.close();
        for (FakeCodec codec : created) {
            assertEquals(1, codec.ends.get(), "ended exactly once after close");
        }
    }
}
