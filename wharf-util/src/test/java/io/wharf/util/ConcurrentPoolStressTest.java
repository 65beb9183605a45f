package io.wharf.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.wharf.util.Pool.Entry;
import io.wharf.util.Pool.Strategy;

/**
 * Many threads against one {@link ConcurrentPool}. Each holder marks the pooled {@link Resource}
 * while it holds it, so the test sees what the pool promises: never more holders than the
 * multiplex limit, never more uses than the usage limit, never a removed or retired entry handed
 * out, and every pooled object either still in the pool or told to its owner to close.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConcurrentPoolStressTest {

    private static final int THREADS = 32;
    private static final int CYCLES = 100_000;

    /** A pooled object that counts its holders and uses, as a test-side witness. */
    static final class Resource {
        final AtomicInteger holders = new AtomicInteger();
        final AtomicInteger uses = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();
        volatile Entry<Resource> entry;
        /** The entry's usage count read just after the one remove() that returned true; -1 if none. */
        volatile int usageAtRemoval = -1;

        @Override
        public String toString() {
            return "Resource@" + Integer.toHexString(hashCode()) + "[holders=" + holders + " uses=" + uses + " closes=" + closes + "]";
        }
    }

    /** Failures seen on worker threads, reported together at the end. */
    static final class Failures {
        private final Queue<String> seen = new ConcurrentLinkedQueue<>();

        void check(boolean condition, String what, Object subject) {
            if (!condition && seen.size() < 20) {
                seen.add(what + ": " + subject);
            }
        }

        void assertNone() {
            assertTrue(seen.isEmpty(), () -> seen.size() + " failures, first: " + String.join("\n", seen));
        }
    }

    /** Runs {@code body} on {@code count} threads started together; rethrows the first failure. */
    static void runThreads(int count, ThreadBody body) throws Exception {
        CyclicBarrier start = new CyclicBarrier(count);
        Queue<Throwable> thrown = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await(10, TimeUnit.SECONDS);
                    body.run(index);
                } catch (Throwable x) {
                    thrown.add(x);
                }
            }, "pool-stress-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(50));
            assertFalse(thread.isAlive(), thread + " did not finish");
        }
        if (!thrown.isEmpty()) {
            AssertionError failure = new AssertionError("a stress thread failed", thrown.peek());
            thrown.forEach(failure::addSuppressed);
            throw failure;
        }
    }

    @FunctionalInterface
    interface ThreadBody {
        void run(int thread) throws Exception;
    }

    static Stream<Arguments> acquireReleaseConfigurations() {
        List<Arguments> configurations = new ArrayList<>();
        for (Strategy strategy : Strategy.values()) {
            // cache size, max multiplex, max usage
            configurations.add(Arguments.of(strategy, 0, 1, 0));
            configurations.add(Arguments.of(strategy, 2, 1, 0));
            configurations.add(Arguments.of(strategy, 0, 4, 0));
            configurations.add(Arguments.of(strategy, 2, 4, 0));
            configurations.add(Arguments.of(strategy, 0, 1, 50));
            configurations.add(Arguments.of(strategy, 2, 4, 50));
        }
        return configurations.stream();
    }

    /**
     * 32 threads each complete 100,000 acquire/release cycles on a pool with fewer slots than
     * threads; worn-out entries are replaced through acquire(creator).
     */
    @ParameterizedTest(name = "{0} cache={1} maxMultiplex={2} maxUsage={3}")
    @MethodSource("acquireReleaseConfigurations")
    void acquireAndReleaseKeepTheLimits(Strategy strategy, int cacheSize, int maxMultiplex, int maxUsage) throws Exception {
        int maxSize = maxMultiplex == 1 ? 8 : 4;
        ConcurrentPool<Resource> pool = ConcurrentPool.<Resource>builder(maxSize)
            .strategy(strategy)
            .threadLocalCache(cacheSize)
            .maxMultiplex(maxMultiplex)
            .maxUsage(maxUsage)
            .build();
        Queue<Resource> created = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < maxSize; i++) {
            Resource resource = new Resource();
            Entry<Resource> entry = pool.reserve();
            resource.entry = entry;
            created.add(resource);
            assertTrue(entry.enable(resource, false));
        }
        Failures failures = new Failures();
        AtomicLong retired = new AtomicLong();

        runThreads(THREADS, thread -> {
            int done = 0;
            while (done < CYCLES) {
                Entry<Resource> entry = pool.acquire(reserved -> {
                    Resource resource = new Resource();
                    resource.entry = reserved;
                    created.add(resource);
                    return resource;
                });
                if (entry == null) {
                    Thread.yield();
                    continue;
                }
                Resource resource = entry.getPooled();
                failures.check(resource.closes.get() == 0, "handed out a retired resource", resource);
                failures.check(!entry.isRemoved(), "handed out a removed entry", entry);
                int holders = resource.holders.incrementAndGet();
                failures.check(holders <= maxMultiplex, "more holders than maxMultiplex " + maxMultiplex, resource);
                int uses = resource.uses.incrementAndGet();
                failures.check(maxUsage == 0 || uses <= maxUsage, "more uses than maxUsage " + maxUsage, resource);
                if ((done & 31) == 0) {
                    Thread.yield();
                }
                resource.holders.decrementAndGet();
                if (!entry.release()) {
                    failures.check(maxUsage > 0, "release returned false without a usage limit", entry);
                    failures.check(entry.getUsageCount() == maxUsage, "retired before maxUsage", entry);
                    failures.check(entry.isRemoved(), "release returned false but entry not removed", entry);
                    failures.check(resource.closes.incrementAndGet() == 1, "retired twice", resource);
                    retired.incrementAndGet();
                }
                done++;
            }
        });

        failures.assertNone();
        assertEquals(0, pool.getInUseCount(), pool::dump);
        assertEquals(0, pool.getReservedCount(), pool::dump);
        assertEquals(0, pool.getRemovedCount(), pool::dump);
        assertEquals(pool.size(), pool.getIdleCount(), pool::dump);
        assertTrue(pool.size() <= maxSize);
        Set<Entry<Resource>> present = Collections.newSetFromMap(new IdentityHashMap<>());
        pool.stream().forEach(present::add);
        long totalUses = 0;
        long liveUses = 0;
        for (Resource resource : created) {
            totalUses += resource.uses.get();
            Entry<Resource> entry = resource.entry;
            assertEquals(0, resource.holders.get(), resource::toString);
            assertEquals(0, entry.getMultiplexCount(), entry::toString);
            assertEquals(resource.uses.get(), entry.getUsageCount(), "every acquire counted once: " + entry);
            if (present.contains(entry)) {
                assertEquals(0, resource.closes.get(), resource::toString);
                assertTrue(maxUsage == 0 || entry.getUsageCount() < maxUsage, entry::toString);
                liveUses += resource.uses.get();
            } else {
                assertEquals(1, resource.closes.get(), "left the pool without its owner being told: " + resource);
            }
        }
        assertEquals((long) THREADS * CYCLES, totalUses);
        if (maxUsage == 0) {
            assertEquals(0, retired.get());
            assertEquals(maxSize, created.size());
        } else {
            assertEquals(totalUses - liveUses, retired.get() * maxUsage, "each retired entry was used exactly maxUsage times");
        }
    }

    /**
     * Threads reserve and enable (or abandon) entries, acquire, remove entries they hold and
     * entries they do not, and release, all at once; every resource is then either in the pool
     * or was told to its owner to close, and no removed entry was acquired after its removal.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Strategy.class)
    void reserveEnableRemoveAndAcquireRaceSafely(Strategy strategy) throws Exception {
        int maxMultiplex = 2;
        ConcurrentPool<Resource> pool = ConcurrentPool.<Resource>builder(8)
            .strategy(strategy)
            .maxMultiplex(maxMultiplex)
            .maxUsage(40)
            .threadLocalCache(strategy == Strategy.RANDOM || strategy == Strategy.FIRST ? 1 : 0)
            .build();
        Queue<Resource> created = new ConcurrentLinkedQueue<>();
        Failures failures = new Failures();

        runThreads(THREADS, thread -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < 20_000; i++) {
                int dice = random.nextInt(100);
                if (dice < 5) {
                    removeAny(pool, random, failures);
                    continue;
                }
                Entry<Resource> entry = pool.acquire();
                if (entry == null) {
                    entry = reserve(pool, created, random, failures);
                    if (entry == null) {
                        Thread.yield();
                        continue;
                    }
                }
                hold(entry, maxMultiplex, random, failures);
            }
        });

        failures.assertNone();
        assertEquals(0, pool.getInUseCount(), pool::dump);
        assertEquals(0, pool.getReservedCount(), pool::dump);
        assertEquals(0, pool.getRemovedCount(), pool::dump);
        assertEquals(pool.size(), pool.getIdleCount(), pool::dump);
        checkOwnership(pool, created);

        for (Entry<Resource> entry : pool.terminate()) {
            entry.getPooled().closes.incrementAndGet();
        }
        assertEquals(0, pool.size());
        for (Resource resource : created) {
            assertTrue(resource.closes.get() > 0, "never closed: " + resource);
        }
    }

    private static Entry<Resource> reserve(Pool<Resource> pool, Queue<Resource> created, ThreadLocalRandom random, Failures failures) {
        Entry<Resource> entry = pool.reserve();
        if (entry == null) {
            return null;
        }
        Resource resource = new Resource();
        resource.entry = entry;
        created.add(resource);
        if (random.nextInt(10) == 0) {
            // The object could not be created: give the slot back. Someone may have removed it first.
            entry.remove();
            resource.closes.incrementAndGet();
            return null;
        }
        boolean acquire = random.nextBoolean();
        if (!entry.enable(resource, acquire)) {
            failures.check(entry.isRemoved(), "enable refused but entry not removed", entry);
            resource.closes.incrementAndGet();
            return null;
        }
        if (acquire) {
            return entry;
        }
        return pool.acquire();
    }

    private static void hold(Entry<Resource> entry, int maxMultiplex, ThreadLocalRandom random, Failures failures) {
        Resource resource = entry.getPooled();
        failures.check(resource != null, "acquired an entry without object", entry);
        int holders = resource.holders.incrementAndGet();
        failures.check(holders <= maxMultiplex, "more holders than maxMultiplex", resource);
        resource.uses.incrementAndGet();
        if (random.nextInt(4) == 0) {
            Thread.yield();
        }
        if (random.nextInt(50) == 0 && entry.remove()) {
            resource.usageAtRemoval = entry.getUsageCount();
            resource.closes.incrementAndGet();
        }
        resource.holders.decrementAndGet();
        if (!entry.release()) {
            failures.check(entry.isRemoved(), "release returned false but entry not removed", entry);
            resource.closes.incrementAndGet();
        }
    }

    private static void removeAny(Pool<Resource> pool, ThreadLocalRandom random, Failures failures) {
        List<Entry<Resource>> entries = pool.stream().toList();
        if (entries.isEmpty()) {
            return;
        }
        Entry<Resource> entry = entries.get(random.nextInt(entries.size()));
        if (entry.remove()) {
            Resource resource = entry.getPooled();
            if (resource != null) {
                resource.usageAtRemoval = entry.getUsageCount();
                resource.closes.incrementAndGet();
            }
            // A reserved entry has no object yet: its creator learns from enable() returning false.
        }
    }

    /** Every resource is in the pool and open, or out of it and closed; removed ones were not used after removal. */
    private static void checkOwnership(Pool<Resource> pool, Queue<Resource> created) {
        Set<Entry<Resource>> present = Collections.newSetFromMap(new IdentityHashMap<>());
        pool.stream().forEach(present::add);
        int removed = 0;
        for (Resource resource : created) {
            Entry<Resource> entry = resource.entry;
            assertEquals(0, resource.holders.get(), resource::toString);
            assertEquals(resource.uses.get(), entry.getUsageCount(), "every acquire counted once: " + entry);
            if (present.contains(entry)) {
                assertEquals(0, resource.closes.get(), "closed while still pooled: " + resource);
                assertFalse(entry.isRemoved());
            } else {
                assertTrue(entry.isRemoved(), entry::toString);
                assertTrue(resource.closes.get() > 0, "left the pool without its owner being told: " + resource);
            }
            if (resource.usageAtRemoval >= 0) {
                removed++;
                assertEquals(resource.usageAtRemoval, resource.uses.get(), "acquired after its removal: " + entry);
            }
        }
        assertTrue(removed > 0, "the race removed nothing");
    }

    /**
     * One thread fills a large pool with reservations while another terminates it, many times
     * over: a reservation that slips in as terminate() scans must still be removed, so that
     * nothing outlives the termination.
     */
    @Test
    void reserveRacingTerminateNeverLeavesAnEntry() throws Exception {
        for (int i = 0; i < 3_000; i++) {
            ConcurrentPool<Resource> pool = ConcurrentPool.<Resource>builder(64).build();
            Queue<Entry<Resource>> reserved = new ConcurrentLinkedQueue<>();
            AtomicBoolean go = new AtomicBoolean();
            Thread reserver = new Thread(() -> {
                while (!go.get()) {
                    Thread.onSpinWait();
                }
                Entry<Resource> entry;
                while ((entry = pool.reserve()) != null) {
                    reserved.add(entry);
                }
            });
            reserver.start();
            int delay = ThreadLocalRandom.current().nextInt(2_000);
            go.set(true);
            for (int spin = 0; spin < delay; spin++) {
                Thread.onSpinWait();
            }
            Collection<Entry<Resource>> terminated = pool.terminate();
            reserver.join();
            assertEquals(0, pool.size(), () -> "entries outlived terminate(): " + pool.dump());
            for (Entry<Resource> entry : reserved) {
                assertTrue(entry.isRemoved(), entry::toString);
                assertTrue(terminated.contains(entry), "removed but not returned by terminate(): " + entry);
            }
        }
    }

    /**
     * Threads keep reserving, enabling, acquiring and releasing while the pool is terminated:
     * afterwards the pool is empty and every object was handed back to its owner to close.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Strategy.class)
    void terminateWhileBusyLeavesNothingBehind(Strategy strategy) throws Exception {
        ConcurrentPool<Resource> pool = ConcurrentPool.<Resource>builder(6)
            .strategy(strategy)
            .maxMultiplex(3)
            .threadLocalCache(1)
            .build();
        Queue<Resource> created = new ConcurrentLinkedQueue<>();
        Failures failures = new Failures();
        AtomicInteger cycles = new AtomicInteger();
        AtomicBoolean stopped = new AtomicBoolean();
        Queue<Entry<Resource>> terminated = new ConcurrentLinkedQueue<>();

        runThreads(THREADS + 1, thread -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            if (thread == THREADS) {
                while (cycles.get() < 50_000) {
                    Thread.yield();
                }
                terminated.addAll(pool.terminate());
                stopped.set(true);
                return;
            }
            while (true) {
                boolean afterTermination = stopped.get();
                if (afterTermination && random.nextInt(1000) == 0) {
                    return;
                }
                Entry<Resource> entry = pool.acquire();
                if (entry == null) {
                    entry = reserve(pool, created, random, failures);
                }
                if (entry == null) {
                    Thread.yield();
                    continue;
                }
                failures.check(!afterTermination, "handed out an entry after terminate()", entry);
                hold(entry, 3, random, failures);
                cycles.incrementAndGet();
            }
        });

        failures.assertNone();
        for (Entry<Resource> entry : terminated) {
            if (entry.getPooled() != null) {
                entry.getPooled().closes.incrementAndGet();
            }
        }
        assertEquals(0, pool.size(), pool::dump);
        assertTrue(pool.stream().findAny().isEmpty());
        for (Resource resource : created) {
            assertTrue(resource.entry.isRemoved(), resource.entry::toString);
            assertTrue(resource.closes.get() > 0, "never closed: " + resource);
            assertEquals(0, resource.holders.get());
        }
    }
}
