package io.wharf.util.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads acquire, retain, share and release buffers of random sizes and kinds from a
 * pool whose caps are small enough that every path runs: hits, misses, unpooled sizes,
 * full buckets, eviction and dropping.
 *
 * <p>Each acquisition is a {@link Lease} with a unique token. While a lease is out, its
 * memory is registered (by identity) and its first 8 bytes hold the token; every holder checks
 * the token before releasing. The pool handing the same memory to a second owner would show
 * as a failed registration, or as a token overwritten under a holder.
 */
class BucketedByteBufferPoolStressTest {

    private static final int THREADS = 16;
    private static final int ITERATIONS = 100_000;
    private static final int FACTOR = 1024;
    private static final int MAX_CAPACITY = 16 * 1024;
    private static final long MAX_HEAP = 64 * 1024;
    private static final long MAX_DIRECT = 40 * 1024;

    /** One acquisition, shared by its holders; the holder that drops it to 0 unregisters the memory. */
    private record Lease(RetainableByteBuffer buffer, long token, AtomicInteger holders) {
    }

    /** Identity of the memory, since {@link ByteBuffer#equals} compares contents. */
    private record Memory(ByteBuffer buffer) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Memory memory && memory.buffer == buffer;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(buffer);
        }
    }

    private final BucketedByteBufferPool pool = BucketedByteBufferPool.builder().factor(FACTOR).maxCapacity(MAX_CAPACITY)
        .maxBucketEntries(8).maxHeapMemory(MAX_HEAP).maxDirectMemory(MAX_DIRECT).build();
    private final Map<Memory, Lease> owned = new ConcurrentHashMap<>();
    private final Queue<String> failures = new ConcurrentLinkedQueue<>();
    private final AtomicInteger failureCount = new AtomicInteger();
    private final AtomicLong leases = new AtomicLong();
    private final AtomicLong lastReleases = new AtomicLong();
    private final AtomicLong shared = new AtomicLong();

    @Test
    @Timeout(120)
    void sixteenThreadsShareBuffersWithoutEverHandingOneToTwoOwners() throws Exception {
        List<Queue<Lease>> inboxes = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            inboxes.add(new ConcurrentLinkedQueue<>());
        }
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (running.get()) {
                checkCaps();
                LockSupport.parkNanos(50_000);
            }
        }, "cap-sampler");
        sampler.start();

        CyclicBarrier start = new CyclicBarrier(THREADS);
        CountDownLatch produced = new CountDownLatch(THREADS);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int self = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    work(self, inboxes);
                } catch (Throwable x) {
                    fail("thread " + self + ": " + x);
                } finally {
                    produced.countDown();
                }
                try {
                    if (produced.await(60, TimeUnit.SECONDS)) {
                        drain(inboxes.get(self));
                    }
                } catch (Throwable x) {
                    fail("thread " + self + ": " + x);
                }
            }, "stress-" + t);
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        running.set(false);
        sampler.join();
        for (Queue<Lease> inbox : inboxes) {
            drain(inbox);
        }

        assertTrue(failures.isEmpty(), failureCount.get() + " failures, the first: " + failures);
        assertEquals(leases.get(), lastReleases.get(), "each lease is freed by exactly one release");
        assertEquals(0, owned.size());
        assertEquals(0, pool.getInUseCount());
        checkCaps();
        for (boolean direct : new boolean[] {false, true}) {
            BucketedByteBufferPool.Statistics statistics = pool.statistics(direct);
            assertEquals(statistics.acquired(), statistics.released());
            assertTrue(statistics.hits() > 0, statistics.toString());
            assertTrue(statistics.evicted() > 0, statistics.toString());
            assertTrue(statistics.rejected() > 0, statistics.toString());
            // Quiet now: every pooled buffer is idle, and the accounting equals what the buckets hold.
            assertEquals(statistics.pooledMemory(), statistics.idleMemory());
            long held = 0;
            String[] lines = pool.dump().split(System.lineSeparator());
            for (String line : List.of(lines).subList(1, lines.length)) {
                String prefix = (direct ? "direct " : "heap ");
                int at = line.indexOf(prefix);
                if (at >= 0 && !line.contains("above")) {
                    String rest = line.substring(at + prefix.length());
                    int capacity = Integer.parseInt(rest.substring(0, rest.indexOf(':')));
                    int idle = Integer.parseInt(rest.substring(rest.indexOf("idle ") + 5, rest.indexOf(',')));
                    held += (long) capacity * idle;
                }
            }
            assertEquals(statistics.idleMemory(), held, pool.dump());
        }
        assertTrue(shared.get() > ITERATIONS, "buffers were shared between threads: " + shared.get());
    }

    private void work(int self, List<Queue<Lease>> inboxes) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<Lease> mine = new ArrayList<>();
        for (int i = 0; i < ITERATIONS; i++) {
            drain(inboxes.get(self));
            if (mine.size() < 4 && random.nextInt(3) != 0) {
                mine.add(acquire(self, i, random));
            } else if (!mine.isEmpty()) {
                Lease lease = mine.remove(random.nextInt(mine.size()));
                if (random.nextInt(4) == 0) {
                    // Share: one more holder, handed to another thread; both release.
                    lease.holders.incrementAndGet();
                    lease.buffer.retain();
                    int other = random.nextInt(THREADS);
                    inboxes.get(other).add(lease);
                    shared.incrementAndGet();
                }
                release(lease);
            }
        }
        for (Lease lease : mine) {
            release(lease);
        }
    }

    private Lease acquire(int self, int iteration, ThreadLocalRandom random) {
        int size = random.nextInt(50) == 0 ? MAX_CAPACITY + 1 + random.nextInt(FACTOR) : random.nextInt(MAX_CAPACITY + 1);
        boolean direct = random.nextBoolean();
        RetainableByteBuffer buffer = pool.acquire(size, direct);
        ByteBuffer memory = buffer.byteBuffer();
        if (memory.position() != 0 || memory.limit() != 0 || buffer.capacity() < size || memory.isDirect() != direct) {
            fail("bad buffer for size " + size + " direct " + direct + ": " + memory);
        }
        long token = ((long) self << 32) | iteration;
        Lease lease = new Lease(buffer, token, new AtomicInteger(1));
        Lease previous = owned.putIfAbsent(new Memory(memory), lease);
        if (previous != null) {
            fail("memory handed to a second owner: " + previous.token + " and " + token);
        }
        int position = ByteBuffers.flipToFill(memory);
        memory.putLong(token);
        ByteBuffers.flipToFlush(memory, position);
        leases.incrementAndGet();
        return lease;
    }

    private void release(Lease lease) {
        ByteBuffer memory = lease.buffer.byteBuffer();
        if (memory.remaining() != 8 || memory.getLong(memory.position()) != lease.token) {
            fail("token " + lease.token + " overwritten: another owner wrote into held memory");
        }
        if (lease.holders.decrementAndGet() == 0) {
            owned.remove(new Memory(memory));
        }
        if (lease.buffer.release()) {
            lastReleases.incrementAndGet();
        }
    }

    private void drain(Queue<Lease> inbox) {
        for (Lease lease = inbox.poll(); lease != null; lease = inbox.poll()) {
            release(lease);
        }
    }

    private void fail(String failure) {
        // Keep the first ones: a broken invariant tends to break a million times.
        if (failureCount.incrementAndGet() <= 20) {
            failures.add(failure);
        }
    }

    private void checkCaps() {
        long heap = pool.getPooledMemory(false);
        long direct = pool.getPooledMemory(true);
        if (heap > MAX_HEAP || heap < 0) {
            fail("pooled heap memory " + heap + " outside 0.." + MAX_HEAP);
        }
        if (direct > MAX_DIRECT || direct < 0) {
            fail("pooled direct memory " + direct + " outside 0.." + MAX_DIRECT);
        }
    }
}
