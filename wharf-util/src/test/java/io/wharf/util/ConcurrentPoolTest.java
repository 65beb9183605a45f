package io.wharf.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.wharf.util.Pool.Entry;
import io.wharf.util.Pool.Entry.State;
import io.wharf.util.Pool.Strategy;

/** Single-threaded behaviour of {@link ConcurrentPool}, one rule per test; the races are in the stress tests. */
class ConcurrentPoolTest {

    /** Reserves and enables {@code count} idle entries, pooled "p0", "p1", ...; they take slots 0, 1, ... */
    static List<Entry<String>> fill(Pool<String> pool, int count) {
        List<Entry<String>> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Entry<String> entry = pool.reserve();
            assertNotNull(entry, "reserve " + i);
            assertTrue(entry.enable("p" + i, false));
            entries.add(entry);
        }
        return entries;
    }

    private static ConcurrentPool<String> pool(int maxSize) {
        return ConcurrentPool.<String>builder(maxSize).build();
    }

    // --- reserve and enable ---

    @Test
    void reserveTakesSlotsUntilThePoolIsFull() {
        ConcurrentPool<String> pool = pool(2);
        Entry<String> first = pool.reserve();
        Entry<String> second = pool.reserve();
        assertNotNull(first);
        assertNotNull(second);
        assertNull(pool.reserve());
        assertEquals(2, pool.size());
        assertEquals(2, pool.getReservedCount());
        assertEquals(State.RESERVED, first.getState());
        assertTrue(first.isReserved());
        assertNull(first.getPooled());
    }

    @Test
    void reservedEntryIsInvisibleToAcquireUntilEnabled() {
        ConcurrentPool<String> pool = pool(2);
        Entry<String> entry = pool.reserve();
        assertNull(pool.acquire());
        assertTrue(entry.enable("a", false));
        assertTrue(entry.isIdle());
        assertEquals("a", entry.getPooled());
        assertEquals(0, entry.getUsageCount());
        assertSame(entry, pool.acquire());
    }

    @Test
    void enableWithAcquireHoldsTheEntryAtOnce() {
        ConcurrentPool<String> pool = pool(2);
        Entry<String> entry = pool.reserve();
        assertTrue(entry.enable("a", true));
        assertTrue(entry.isInUse());
        assertEquals(1, entry.getMultiplexCount());
        assertEquals(1, entry.getUsageCount());
        assertNull(pool.acquire(), "multiplex 1: nobody else may hold it");
        assertTrue(entry.release());
        assertTrue(entry.isIdle());
    }

    @Test
    void secondEnableFails() {
        ConcurrentPool<String> pool = pool(2);
        Entry<String> entry = pool.reserve();
        assertTrue(entry.enable("a", false));
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> entry.enable("b", false));
        assertTrue(failure.getMessage().contains("not reserved"), failure.getMessage());
        assertEquals("a", entry.getPooled());
        assertTrue(entry.isIdle());
    }

    @Test
    void enableOfNullFails() {
        Entry<String> entry = pool(1).reserve();
        assertThrows(NullPointerException.class, () -> entry.enable(null, false));
        assertTrue(entry.isReserved());
    }

    @Test
    void enableOfRemovedEntryReturnsFalse() {
        ConcurrentPool<String> pool = pool(1);
        Entry<String> entry = pool.reserve();
        assertTrue(entry.remove());
        assertFalse(entry.enable("a", true));
        assertTrue(entry.isRemoved());
        assertEquals(0, entry.getMultiplexCount());
        assertNull(pool.acquire());
        assertEquals(0, pool.size());
    }

    @Test
    void removedReservationFreesItsSlotForANewEntry() {
        ConcurrentPool<String> pool = pool(1);
        Entry<String> failed = pool.reserve();
        assertNull(pool.reserve());
        assertTrue(failed.remove());
        Entry<String> retry = pool.reserve();
        assertNotNull(retry);
        assertNotSame(failed, retry);
        assertTrue(retry.enable("a", false));
        assertTrue(failed.isRemoved(), "a stale entry stays removed when its slot is reused");
        assertFalse(failed.remove());
    }

    // --- acquire and release ---

    @Test
    void acquireOfEmptyPoolReturnsNull() {
        assertNull(pool(4).acquire());
    }

    @Test
    void acquireAndReleaseCountUses() {
        ConcurrentPool<String> pool = pool(1);
        Entry<String> entry = fill(pool, 1).get(0);
        for (int i = 1; i <= 3; i++) {
            assertSame(entry, pool.acquire());
            assertTrue(entry.isInUse());
            assertEquals(1, pool.getInUseCount());
            assertEquals(i, entry.getUsageCount());
            assertTrue(pool.release(entry));
            assertTrue(entry.isIdle());
            assertEquals(1, pool.getIdleCount());
        }
    }

    @Test
    void acquireReturnsNullWhenEveryEntryIsHeld() {
        ConcurrentPool<String> pool = pool(2);
        fill(pool, 2);
        Entry<String> first = pool.acquire();
        Entry<String> second = pool.acquire();
        assertNotSame(first, second);
        assertNull(pool.acquire());
    }

    @Test
    void releaseOfAnEntryNobodyHoldsFails() {
        ConcurrentPool<String> pool = pool(1);
        Entry<String> entry = fill(pool, 1).get(0);
        IllegalStateException failure = assertThrows(IllegalStateException.class, entry::release);
        assertTrue(failure.getMessage().contains("nobody holds"), failure.getMessage());
        Entry<String> reserved = pool(1).reserve();
        assertThrows(IllegalStateException.class, reserved::release);
    }

    @Test
    void entryOfAnotherPoolIsRefused() {
        ConcurrentPool<String> pool = pool(1);
        ConcurrentPool<String> other = pool(1);
        Entry<String> foreign = fill(other, 1).get(0);
        assertSame(foreign, other.acquire());
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> pool.release(foreign));
        assertTrue(failure.getMessage().contains("another pool"), failure.getMessage());
        assertThrows(IllegalArgumentException.class, () -> pool.remove(foreign));
        assertThrows(IllegalArgumentException.class, () -> pool.release(null));
        assertTrue(foreign.isInUse(), "a refused release changes nothing");
    }

    @Test
    void acquireWithCreatorCreatesOnlyWhenNothingIsAvailable() {
        ConcurrentPool<String> pool = pool(2);
        AtomicInteger created = new AtomicInteger();
        AtomicReference<Entry<String>> seen = new AtomicReference<>();
        Entry<String> first = pool.acquire(entry -> {
            seen.set(entry);
            assertTrue(entry.isReserved(), "the creator gets the reserved entry");
            return "c" + created.incrementAndGet();
        });
        assertSame(seen.get(), first);
        assertEquals("c1", first.getPooled());
        assertTrue(first.isInUse());
        assertEquals(1, first.getUsageCount());
        assertTrue(first.release());
        assertSame(first, pool.acquire(entry -> "c" + created.incrementAndGet()), "an idle entry is reused");
        Entry<String> second = pool.acquire(entry -> "c" + created.incrementAndGet());
        assertEquals("c2", second.getPooled());
        assertNull(pool.acquire(entry -> "c" + created.incrementAndGet()), "full and all held");
        assertEquals(2, created.get());
    }

    @Test
    void acquireWithFailingCreatorRemovesTheReservation() {
        ConcurrentPool<String> pool = pool(1);
        IllegalStateException boom = new IllegalStateException("connect failed");
        assertSame(boom, assertThrows(IllegalStateException.class, () -> pool.acquire(entry -> {
            throw boom;
        })));
        assertEquals(0, pool.size());
        assertNull(pool.acquire(entry -> null), "a creator that makes nothing gets nothing");
        assertEquals(0, pool.size());
        assertNotNull(pool.acquire(entry -> "a"));
    }

    @Test
    void acquireWithCreatorClosesTheObjectWhenThePoolTerminatesMeanwhile() {
        ConcurrentPool<AutoCloseable> pool = ConcurrentPool.<AutoCloseable>builder(1).build();
        AtomicBoolean closed = new AtomicBoolean();
        assertNull(pool.acquire(entry -> {
            pool.terminate();
            return () -> closed.set(true);
        }));
        assertTrue(closed.get());
        assertEquals(0, pool.size());
    }

    // --- multiplex ---

    @Test
    void entryIsSharedUpToMaxMultiplex() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(1).maxMultiplex(3).build();
        Entry<String> entry = fill(pool, 1).get(0);
        assertEquals(3, pool.getMaxMultiplex());
        assertEquals(3, entry.getMaxMultiplex());
        for (int i = 1; i <= 3; i++) {
            assertSame(entry, pool.acquire());
            assertEquals(i, entry.getMultiplexCount());
        }
        assertNull(pool.acquire());
        assertTrue(entry.release());
        assertSame(entry, pool.acquire());
        assertEquals(4, entry.getUsageCount());
    }

    @Test
    void entryLimitWinsOverThePoolLimit() {
        ConcurrentPool<String> pool = pool(1);
        Entry<String> entry = fill(pool, 1).get(0);
        entry.setMaxMultiplex(2);
        assertSame(entry, pool.acquire());
        assertSame(entry, pool.acquire());
        assertNull(pool.acquire());

        entry.setMaxMultiplex(1);
        assertTrue(entry.release());
        assertNull(pool.acquire(), "still one holder, at the lowered limit");
        assertTrue(entry.release());
        assertSame(entry, pool.acquire());
        assertTrue(entry.release());

        entry.setMaxMultiplex(0);
        assertNull(pool.acquire(), "0 lets nobody in");
        assertTrue(entry.isIdle());
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> entry.setMaxMultiplex(-1));
        assertTrue(failure.getMessage().contains("maxMultiplex"), failure.getMessage());
    }

    /** A pooled object that learns its own limit, as an HTTP/2 connection learns SETTINGS_MAX_CONCURRENT_STREAMS. */
    record Streams(AtomicInteger limit) {
    }

    @Test
    void functionTellsTheLimitOfEachObjectOnEachAcquire() {
        ConcurrentPool<Streams> pool = ConcurrentPool.<Streams>builder(2).maxMultiplex(streams -> streams.limit().get()).build();
        Streams streams = new Streams(new AtomicInteger(2));
        Entry<Streams> entry = pool.reserve();
        assertTrue(entry.enable(streams, false));
        assertEquals(2, entry.getMaxMultiplex());
        assertSame(entry, pool.acquire());
        assertSame(entry, pool.acquire());
        assertNull(pool.acquire());
        streams.limit().set(3);
        assertSame(entry, pool.acquire());
        assertEquals(3, entry.getMultiplexCount());
        entry.setMaxMultiplex(4);
        assertSame(entry, pool.acquire(), "the entry's own limit wins over the function");

        streams.limit().set(-1);
        Entry<Streams> broken = pool.reserve();
        assertTrue(broken.enable(streams, false));
        IllegalStateException failure = assertThrows(IllegalStateException.class, pool::acquire);
        assertTrue(failure.getMessage().contains("returned -1"), failure.getMessage());
    }

    // --- max usage ---

    @Test
    void wornOutEntryIsRemovedByItsLastRelease() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(1).maxUsage(2).build();
        assertEquals(2, pool.getMaxUsage());
        Entry<String> entry = fill(pool, 1).get(0);
        assertSame(entry, pool.acquire());
        assertTrue(entry.release());
        assertSame(entry, pool.acquire());
        assertFalse(entry.release(), "the second use was the last one");
        assertTrue(entry.isRemoved());
        assertEquals(2, entry.getUsageCount());
        assertEquals(0, pool.size());
        assertNull(pool.acquire());
        assertNotNull(pool.reserve(), "the slot is free again");
    }

    @Test
    void wornOutSharedEntryIsNotHandedOutAndOnlyTheLastHolderIsTold() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(1).maxMultiplex(4).maxUsage(3).build();
        Entry<String> entry = fill(pool, 1).get(0);
        assertSame(entry, pool.acquire());
        assertSame(entry, pool.acquire());
        assertTrue(entry.release());
        assertSame(entry, pool.acquire());
        assertEquals(3, entry.getUsageCount());
        assertNull(pool.acquire(), "worn out, though two holders are below the multiplex limit");
        assertTrue(entry.isInUse());
        assertTrue(entry.release(), "not the last holder");
        assertFalse(entry.release(), "the last holder retires it");
        assertTrue(entry.isRemoved());
        assertEquals(0, pool.size());
    }

    @Test
    void enableWithAcquireCountsAsAUse() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(1).maxUsage(1).build();
        Entry<String> entry = pool.reserve();
        assertTrue(entry.enable("a", true));
        assertFalse(entry.release());
        assertEquals(0, pool.size());
    }

    // --- remove ---

    @Test
    void removeOfIdleEntryFreesItsSlot() {
        ConcurrentPool<String> pool = pool(1);
        Entry<String> entry = fill(pool, 1).get(0);
        assertTrue(pool.remove(entry));
        assertFalse(entry.remove(), "only one call removes it");
        assertFalse(pool.remove(entry));
        assertTrue(entry.isRemoved());
        assertEquals(0, pool.size());
        assertNull(pool.acquire());
    }

    @Test
    void entryRemovedWhileInUseLeavesWhenItsHoldersRelease() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(2).maxMultiplex(2).build();
        Entry<String> entry = fill(pool, 1).get(0);
        assertSame(entry, pool.acquire());
        assertSame(entry, pool.acquire());
        assertTrue(entry.remove());
        assertTrue(entry.isRemoved());
        assertFalse(entry.isInUse());
        assertEquals(2, entry.getMultiplexCount());
        assertEquals(1, pool.size());
        assertEquals(1, pool.getRemovedCount());
        assertEquals(0, pool.getInUseCount());
        assertNull(pool.acquire(), "a removed entry is never handed out");
        assertFalse(entry.release());
        assertEquals(1, pool.size());
        assertFalse(entry.release());
        assertEquals(0, pool.size());
        assertEquals(0, pool.getRemovedCount());
        assertThrows(IllegalStateException.class, entry::release);
    }

    // --- terminate ---

    @Test
    void terminateRemovesEveryEntryAndStopsTheRest() {
        ConcurrentPool<String> pool = pool(4);
        List<Entry<String>> entries = fill(pool, 2);
        Entry<String> held = pool.acquire();
        Entry<String> reserved = pool.reserve();
        Entry<String> gone = pool.reserve();
        assertTrue(gone.remove());

        Set<Entry<String>> terminated = new HashSet<>(pool.terminate());
        assertEquals(Set.of(entries.get(0), entries.get(1), reserved), terminated);
        assertTrue(pool.isTerminated());
        terminated.forEach(entry -> assertTrue(entry.isRemoved()));

        assertNull(pool.acquire());
        assertNull(pool.reserve());
        assertNull(pool.acquire(entry -> {
            throw new AssertionError("no creation after terminate");
        }));
        assertFalse(reserved.enable("late", false));
        assertEquals(1, pool.size(), "the held entry waits for its holder");
        assertFalse(held.release());
        assertEquals(0, pool.size());
        assertTrue(pool.terminate().isEmpty());
    }

    // --- strategies ---

    @Test
    void firstStrategyReusesTheFirstFreeEntry() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(4).strategy(Strategy.FIRST).build();
        List<Entry<String>> entries = fill(pool, 4);
        for (int i = 0; i < 3; i++) {
            Entry<String> entry = pool.acquire();
            assertSame(entries.get(0), entry);
            entry.release();
        }
        Entry<String> first = pool.acquire();
        assertSame(entries.get(1), pool.acquire());
        first.release();
        assertSame(entries.get(0), pool.acquire());
    }

    @Test
    void roundRobinStrategyTakesTheEntriesInTurn() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(4).strategy(Strategy.ROUND_ROBIN).build();
        List<Entry<String>> entries = fill(pool, 4);
        // The rotation starts where the thread's cursor puts it, then goes round in order.
        int start = entries.indexOf(pool.acquire());
        entries.get(start).release();
        for (int i = 1; i < 9; i++) {
            Entry<String> entry = pool.acquire();
            assertSame(entries.get((start + i) % 4), entry, "acquire " + i + " after starting at " + start);
            entry.release();
        }
    }

    @Test
    void roundRobinRotationCoversEntriesAddedLater() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(6).strategy(Strategy.ROUND_ROBIN).build();
        List<Entry<String>> entries = fill(pool, 3);
        for (int i = 0; i < 3; i++) {
            pool.acquire().release();
        }
        entries.addAll(fill(pool, 3));
        Set<Entry<String>> seen = new HashSet<>();
        int previous = entries.indexOf(pool.acquire());
        entries.get(previous).release();
        seen.add(entries.get(previous));
        for (int i = 1; i < 6; i++) {
            Entry<String> entry = pool.acquire();
            int index = entries.indexOf(entry);
            assertEquals((previous + 1) % 6, index, "acquire " + i);
            seen.add(entry);
            entry.release();
            previous = index;
        }
        assertEquals(6, seen.size());
    }

    @Test
    void threadIdStrategyGivesEachThreadItsEntry() throws Exception {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(4).strategy(Strategy.THREAD_ID).build();
        List<Entry<String>> entries = fill(pool, 4);
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int t = 0; t < 6; t++) {
            threads.add(new Thread(() -> {
                try {
                    Entry<String> expected = entries.get((int) (Thread.currentThread().threadId() % 4));
                    for (int i = 0; i < 3; i++) {
                        Entry<String> entry = pool.acquire();
                        assertSame(expected, entry);
                        entry.release();
                    }
                } catch (Throwable x) {
                    failure.compareAndSet(null, x);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.start();
            thread.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Test
    void randomStrategyReachesEveryEntry() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(4).strategy(Strategy.RANDOM).build();
        fill(pool, 4);
        Set<Entry<String>> reached = new HashSet<>();
        for (int i = 0; i < 400; i++) {
            Entry<String> entry = pool.acquire();
            reached.add(entry);
            entry.release();
        }
        assertEquals(4, reached.size());
    }

    @Test
    void everyStrategyWrapsAroundToFindTheOneFreeEntry() {
        for (Strategy strategy : Strategy.values()) {
            ConcurrentPool<String> pool = ConcurrentPool.<String>builder(5).strategy(strategy).build();
            List<Entry<String>> entries = fill(pool, 5);
            for (int free = 0; free < 5; free++) {
                for (Entry<String> entry : entries) {
                    if (entry != entries.get(free)) {
                        entry.setMaxMultiplex(0);
                    }
                }
                for (int i = 0; i < 5; i++) {
                    Entry<String> entry = pool.acquire();
                    assertSame(entries.get(free), entry, strategy + " free slot " + free + " try " + i);
                    entry.release();
                }
                entries.forEach(entry -> entry.setMaxMultiplex(1));
            }
        }
    }

    @Test
    void acquireFindsEntriesInHighSlotsAfterLowSlotsEmpty() {
        ConcurrentPool<String> pool = pool(8);
        List<Entry<String>> entries = fill(pool, 3);
        entries.get(0).remove();
        entries.get(1).remove();
        assertSame(entries.get(2), pool.acquire());
        assertEquals(1, pool.size());
    }

    // --- thread-local cache ---

    @Test
    void cacheIsOffByDefault() {
        assertEquals(0, pool(4).getThreadLocalCacheSize());
    }

    @Test
    void cachedEntryIsTriedFirstByTheReleasingThread() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(4).strategy(Strategy.ROUND_ROBIN).threadLocalCache(1).build();
        List<Entry<String>> entries = fill(pool, 4);
        Entry<String> entry = pool.acquire();
        assertTrue(entries.contains(entry));
        entry.release();
        for (int i = 0; i < 5; i++) {
            Entry<String> again = pool.acquire();
            assertSame(entry, again, "round robin alone would move on");
            again.release();
        }
    }

    @Test
    void cachedEntryHeldByAnotherThreadIsNotHandedOut() throws Exception {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(2).threadLocalCache(1).build();
        List<Entry<String>> entries = fill(pool, 2);
        Entry<String> cached = pool.acquire();
        cached.release();
        AtomicReference<Entry<String>> other = new AtomicReference<>();
        Thread thief = new Thread(() -> other.set(pool.acquire()));
        thief.start();
        thief.join();
        assertSame(cached, other.get());
        Entry<String> mine = pool.acquire();
        assertSame(entries.get(1), mine);
        assertEquals(1, cached.getMultiplexCount());
    }

    @Test
    void cachedEntryThatWasRemovedIsNotHandedOut() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(2).threadLocalCache(2).build();
        Entry<String> cached = fill(pool, 1).get(0);
        pool.acquire().release();
        assertTrue(cached.remove());
        assertNull(pool.acquire());
        Entry<String> fresh = pool.reserve();
        fresh.enable("fresh", false);
        assertSame(fresh, pool.acquire());
    }

    @Test
    void cachedEntryThatWoreOutIsNotHandedOut() throws Exception {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(2).maxMultiplex(2).maxUsage(2).threadLocalCache(1).build();
        Entry<String> entry = fill(pool, 1).get(0);
        assertSame(entry, pool.acquire());
        AtomicReference<Entry<String>> other = new AtomicReference<>();
        Thread thread = new Thread(() -> other.set(pool.acquire()));
        thread.start();
        thread.join();
        assertSame(entry, other.get());
        assertEquals(2, entry.getUsageCount());
        assertTrue(entry.release(), "not the last holder: kept, and cached by this thread");
        assertNull(pool.acquire(), "worn out: the cache must not hand it out");
        assertFalse(entry.release());
        assertTrue(entry.isRemoved());
    }

    // --- introspection and dump ---

    @Test
    void countsAndStreamDescribeThePool() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(8).strategy(Strategy.RANDOM).maxUsage(5).build();
        fill(pool, 3);
        pool.reserve();
        Entry<String> held = pool.acquire();
        Entry<String> removed = pool.acquire();
        removed.remove();
        assertEquals(4, pool.size());
        assertEquals(8, pool.getMaxSize());
        assertEquals(1, pool.getReservedCount());
        assertEquals(1, pool.getIdleCount());
        assertEquals(1, pool.getInUseCount());
        assertEquals(1, pool.getRemovedCount());
        assertEquals(4, pool.stream().count());
        assertTrue(pool.stream().anyMatch(entry -> entry == held));
        assertFalse(pool.isTerminated());
        assertEquals(Strategy.RANDOM, pool.getStrategy());
    }

    @Test
    void toStringIsOneLineAndDumpHasOneLinePerEntry() {
        ConcurrentPool<String> pool = ConcurrentPool.<String>builder(8).strategy(Strategy.ROUND_ROBIN).maxUsage(9).build();
        fill(pool, 2);
        pool.reserve();
        pool.acquire();
        String line = pool.toString();
        assertFalse(line.contains("\n"), line);
        for (String part : List.of("ROUND_ROBIN", "size=3/8", "reserved=1", "idle=1", "inUse=1", "maxUsage=9")) {
            assertTrue(line.contains(part), part + " in " + line);
        }

        String[] lines = pool.dump().split(System.lineSeparator());
        assertEquals(4, lines.length, pool.dump());
        assertEquals(line, lines[0]);
        assertTrue(lines[1].contains("slot=0 IN_USE multiplex=1/1 usage=1/9 pooled=p0"), lines[1]);
        assertTrue(lines[2].contains("slot=1 IDLE multiplex=0/1 usage=0/9 pooled=p1"), lines[2]);
        assertTrue(lines[3].contains("slot=2 RESERVED"), lines[3]);
        assertTrue(lines[3].startsWith("+= "), lines[3]);
    }

    // --- argument errors ---

    @Test
    void badConfigurationIsRefusedWithItsName() {
        assertMessage("maxSize", assertThrows(IllegalArgumentException.class, () -> ConcurrentPool.builder(0)));
        ConcurrentPool.Builder<String> builder = ConcurrentPool.builder(4);
        assertMessage("maxMultiplex", assertThrows(IllegalArgumentException.class, () -> builder.maxMultiplex(0)));
        assertMessage("maxUsage", assertThrows(IllegalArgumentException.class, () -> builder.maxUsage(-1)));
        assertMessage("threadLocalCache", assertThrows(IllegalArgumentException.class, () -> builder.threadLocalCache(-1)));
        assertMessage("threadLocalCache", assertThrows(IllegalArgumentException.class, () -> builder.threadLocalCache(5)));
        assertThrows(NullPointerException.class, () -> builder.strategy(null));
        assertThrows(NullPointerException.class, () -> builder.maxMultiplex(null));
        assertThrows(NullPointerException.class, () -> builder.build().acquire(null));
    }

    private static void assertMessage(String expected, Exception failure) {
        assertTrue(failure.getMessage().contains(expected), failure.getMessage());
    }
}
