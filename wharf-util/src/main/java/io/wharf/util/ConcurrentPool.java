package io.wharf.util;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.wharf.util.component.Dumpable;
import io.wharf.util.internal.RoundRobinCursor;

/**
 * The lock-free {@link Pool}: entries sit in an array of {@link #getMaxSize()} slots, filled
 * lowest first as entries are reserved, and each entry carries one atomic state word (holders,
 * usage, enabled, removed) that acquire, release and remove compare-and-set.
 *
 * <p><b>Threads.</b> Any thread may call any method. {@link #acquire()} reads the strategy's
 * start index, then tries the entries one after the other, wrapping around, up to the highest
 * slot ever reserved; it allocates nothing and takes no lock. With the thread-local cache on,
 * a release offers the entry to the releasing thread's few cached entries and that thread's
 * next acquire tries them first; the cache is only a hint, the state word still decides.
 *
 * <p><b>Ownership.</b> The pool holds references to its entries and their pooled objects; it
 * never closes a pooled object. See {@link Pool} for who closes what. A thread's cache keeps a
 * reference to an entry until it is overwritten or found removed.
 *
 * <pre>{@code
 * ConcurrentPool<Connection> pool = ConcurrentPool.<Connection>builder(64)
 *     .strategy(Pool.Strategy.ROUND_ROBIN)
 *     .maxMultiplex(Connection::maxConcurrentStreams)
 *     .maxUsage(1000)
 *     .build();
 * }</pre>
 *
 * @param <T> the type of the pooled objects
 */
public final class ConcurrentPool<T> implements Pool<T>, Dumpable {

    private static final Logger LOG = LoggerFactory.getLogger(ConcurrentPool.class);
    private static final VarHandle HIGH_WATER;

    static {
        try {
            HIGH_WATER = MethodHandles.lookup().findVarHandle(ConcurrentPool.class, "highWater", int.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final Strategy strategy;
    private final int maxSize;
    private final int maxMultiplex;
    private final ToIntFunction<? super T> maxMultiplexFunction;
    final int maxUsage;
    private final int cacheSize;
    private final AtomicReferenceArray<ConcurrentPoolEntry<T>> slots;
    /** The ROUND_ROBIN start positions, one cursor per stripe of threads; null for the other strategies. */
    private final RoundRobinCursor roundRobin;
    private final ThreadLocal<EntryCache<T>> cache;
    /** One past the highest slot ever reserved: acquire scans no further. Only grows. */
    private volatile int highWater;
    private volatile boolean terminated;

    private ConcurrentPool(Builder<T> builder) {
        this.strategy = builder.strategy;
        this.maxSize = builder.maxSize;
        this.maxMultiplex = builder.maxMultiplex;
        this.maxMultiplexFunction = builder.maxMultiplexFunction;
        this.maxUsage = builder.maxUsage;
        this.cacheSize = builder.cacheSize;
        this.slots = new AtomicReferenceArray<>(maxSize);
        this.roundRobin = strategy == Strategy.ROUND_ROBIN ? new RoundRobinCursor() : null;
        int size = builder.cacheSize;
        this.cache = size == 0 ? null : ThreadLocal.withInitial(() -> new EntryCache<>(size));
    }

    /**
     * @param maxSize the most entries the pool holds at once, at least 1
     * @return a builder of a pool with the FIRST strategy, one holder per entry, no usage limit
     *     and no thread-local cache until told otherwise
     * @throws IllegalArgumentException when {@code maxSize} is less than 1
     */
    public static <T> Builder<T> builder(int maxSize) {
        return new Builder<>(maxSize);
    }

    /** @return where acquire starts its scan */
    public Strategy getStrategy() {
        return strategy;
    }

    /** @return how many entries each thread's cache keeps; 0 when there is no cache */
    public int getThreadLocalCacheSize() {
        return cacheSize;
    }

    @Override
    public Pool.Entry<T> reserve() {
        if (terminated) {
            return null;
        }
        for (int index = 0; index < maxSize; index++) {
            if (slots.get(index) != null) {
                continue;
            }
            ConcurrentPoolEntry<T> entry = new ConcurrentPoolEntry<>(this, index);
            if (slots.compareAndSet(index, null, entry)) {
                raiseHighWater(index + 1);
                // terminate() sets its flag then scans the slots; we took the slot then check the
                // flag: at least one of us sees the other, so no entry outlives a termination.
                if (terminated) {
                    entry.remove();
                    return null;
                }
                return entry;
            }
        }
        return null;
    }

    private void raiseHighWater(int limit) {
        int current = highWater;
        while (current < limit && !HIGH_WATER.compareAndSet(this, current, limit)) {
            current = highWater;
        }
    }

    @Override
    public Pool.Entry<T> acquire() {
        if (terminated) {
            return null;
        }
        if (cache != null) {
            ConcurrentPoolEntry<T> cached = cache.get().acquire();
            if (cached != null) {
                return cached;
            }
        }
        int limit = highWater;
        if (limit == 0) {
            return null;
        }
        int index = startIndex(limit);
        for (int tried = 0; tried < limit; tried++) {
            ConcurrentPoolEntry<T> entry = slots.get(index);
            if (entry != null && entry.tryAcquire()) {
                return entry;
            }
            if (++index == limit) {
                index = 0;
            }
        }
        return null;
    }

    private int startIndex(int limit) {
        return switch (strategy) {
            case FIRST -> 0;
            case RANDOM -> ThreadLocalRandom.current().nextInt(limit);
            case THREAD_ID -> (int) ((Thread.currentThread().threadId() & Long.MAX_VALUE) % limit);
            case ROUND_ROBIN -> roundRobin.next(limit);
        };
    }

    @Override
    public Pool.Entry<T> acquire(Function<Pool.Entry<T>, T> creator) {
        Objects.requireNonNull(creator, "creator");
        Pool.Entry<T> entry = acquire();
        if (entry != null) {
            return entry;
        }
        entry = reserve();
        if (entry == null) {
            return null;
        }
        T pooled;
        try {
            pooled = creator.apply(entry);
        } catch (Throwable failure) {
            entry.remove();
            throw failure;
        }
        if (pooled == null) {
            entry.remove();
            return null;
        }
        if (entry.enable(pooled, true)) {
            return entry;
        }
        closeOrphan(pooled);
        return null;
    }

    private void closeOrphan(T pooled) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Pool terminated while creating {}, discarding it: {}", pooled, this);
        }
        if (pooled instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception failure) {
                if (LOG.isDebugEnabled()) {
                    LOG.debug("Could not close {}", pooled, failure);
                }
            }
        }
    }

    @Override
    public boolean release(Pool.Entry<T> entry) {
        ConcurrentPoolEntry<T> owned = own(entry, "release");
        boolean kept = owned.releaseHold();
        if (kept && cache != null) {
            cache.get().offer(owned);
        }
        return kept;
    }

    @Override
    public boolean remove(Pool.Entry<T> entry) {
        return own(entry, "remove").remove();
    }

    private ConcurrentPoolEntry<T> own(Pool.Entry<T> entry, String operation) {
        if (entry instanceof ConcurrentPoolEntry<T> owned && owned.pool() == this) {
            return owned;
        }
        throw new IllegalArgumentException("cannot " + operation + " an entry of another pool: " + entry + " in " + this);
    }

    /** Called once per entry, by the call that left it removed with no holder. */
    void freeSlot(ConcurrentPoolEntry<T> entry) {
        boolean freed = slots.compareAndSet(entry.slot(), entry, null);
        if (!freed) {
            throw new IllegalStateException("slot " + entry.slot() + " did not hold " + entry);
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("Removed {} from {}", entry, this);
        }
    }

    /** @return the multiplex limit of an entry that has no limit of its own */
    int maxMultiplexOf(T pooled) {
        if (maxMultiplexFunction == null || pooled == null) {
            return maxMultiplex;
        }
        int limit = maxMultiplexFunction.applyAsInt(pooled);
        if (limit < 0) {
            throw new IllegalStateException("maxMultiplex function returned " + limit + " for " + pooled);
        }
        return limit;
    }

    @Override
    public boolean isTerminated() {
        return terminated;
    }

    @Override
    public Collection<Pool.Entry<T>> terminate() {
        terminated = true;
        List<Pool.Entry<T>> removed = new ArrayList<>();
        for (int index = 0; index < maxSize; index++) {
            ConcurrentPoolEntry<T> entry = slots.get(index);
            if (entry != null && entry.remove()) {
                removed.add(entry);
            }
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("Terminated {}, removed {} entries", this, removed.size());
        }
        return removed;
    }

    @Override
    public int size() {
        int count = 0;
        for (int index = 0, limit = highWater; index < limit; index++) {
            if (slots.get(index) != null) {
                count++;
            }
        }
        return count;
    }

    @Override
    public int getMaxSize() {
        return maxSize;
    }

    @Override
    public int getMaxMultiplex() {
        return maxMultiplex;
    }

    @Override
    public int getMaxUsage() {
        return maxUsage;
    }

    @Override
    public int getReservedCount() {
        return count(Pool.Entry.State.RESERVED);
    }

    @Override
    public int getIdleCount() {
        return count(Pool.Entry.State.IDLE);
    }

    @Override
    public int getInUseCount() {
        return count(Pool.Entry.State.IN_USE);
    }

    @Override
    public int getRemovedCount() {
        return count(Pool.Entry.State.REMOVED);
    }

    private int count(Pool.Entry.State state) {
        int count = 0;
        for (int index = 0, limit = highWater; index < limit; index++) {
            ConcurrentPoolEntry<T> entry = slots.get(index);
            if (entry != null && entry.getState() == state) {
                count++;
            }
        }
        return count;
    }

    @Override
    public Stream<Pool.Entry<T>> stream() {
        return entries().stream();
    }

    private List<Pool.Entry<T>> entries() {
        List<Pool.Entry<T>> entries = new ArrayList<>();
        for (int index = 0, limit = highWater; index < limit; index++) {
            ConcurrentPoolEntry<T> entry = slots.get(index);
            if (entry != null) {
                entries.add(entry);
            }
        }
        return entries;
    }

    @Override
    public void dump(Appendable out, String indent) throws IOException {
        Dumpable.dumpObjects(out, indent, this, entries());
    }

    @Override
    public String toString() {
        int reserved = 0;
        int idle = 0;
        int inUse = 0;
        int removed = 0;
        for (int index = 0, limit = highWater; index < limit; index++) {
            ConcurrentPoolEntry<T> entry = slots.get(index);
            if (entry != null) {
                switch (entry.getState()) {
                    case RESERVED -> reserved++;
                    case IDLE -> idle++;
                    case IN_USE -> inUse++;
                    case REMOVED -> removed++;
                }
            }
        }
        return "ConcurrentPool@" + Integer.toHexString(hashCode())
            + "[" + strategy
            + " size=" + (reserved + idle + inUse + removed) + "/" + maxSize
            + " reserved=" + reserved
            + " idle=" + idle
            + " inUse=" + inUse
            + " removed=" + removed
            + " maxMultiplex=" + (maxMultiplexFunction == null ? String.valueOf(maxMultiplex) : "function")
            + " maxUsage=" + (maxUsage == 0 ? "unlimited" : String.valueOf(maxUsage))
            + " cache=" + cacheSize
            + (terminated ? " terminated" : "") + "]";
    }

    /**
     * A thread's few recently released entries, tried first by that thread's next acquire.
     * Only its own thread touches it, so it needs no synchronisation; an entry in it may have
     * been acquired or removed by others meanwhile, which its state word tells.
     */
    private static final class EntryCache<T> {
        private final ConcurrentPoolEntry<T>[] entries;
        private int next;

        @SuppressWarnings("unchecked")
        EntryCache(int size) {
            entries = (ConcurrentPoolEntry<T>[]) new ConcurrentPoolEntry<?>[size];
        }

        ConcurrentPoolEntry<T> acquire() {
            for (int index = 0; index < entries.length; index++) {
                ConcurrentPoolEntry<T> entry = entries[index];
                if (entry != null) {
                    if (entry.tryAcquire()) {
                        return entry;
                    }
                    if (entry.getState() == Pool.Entry.State.REMOVED) {
                        entries[index] = null;
                    }
                }
            }
            return null;
        }

        void offer(ConcurrentPoolEntry<T> entry) {
            for (ConcurrentPoolEntry<T> cached : entries) {
                if (cached == entry) {
                    return;
                }
            }
            entries[next] = entry;
            next = next + 1 == entries.length ? 0 : next + 1;
        }
    }

    /**
     * Configures a {@link ConcurrentPool}; every setter checks its argument at once.
     *
     * @param <T> the type of the pooled objects
     */
    public static final class Builder<T> {
        private final int maxSize;
        private Strategy strategy = Strategy.FIRST;
        private int maxMultiplex = 1;
        private ToIntFunction<? super T> maxMultiplexFunction;
        private int maxUsage;
        private int cacheSize;

        private Builder(int maxSize) {
            if (maxSize < 1) {
                throw new IllegalArgumentException("maxSize must be at least 1, was " + maxSize);
            }
            this.maxSize = maxSize;
        }

        /** Sets where acquire starts its scan; FIRST by default. */
        public Builder<T> strategy(Strategy strategy) {
            this.strategy = Objects.requireNonNull(strategy, "strategy");
            return this;
        }

        /**
         * Sets how many callers may hold one entry at once, 1 by default; an entry's own
         * {@link Pool.Entry#setMaxMultiplex(int)} wins over it.
         */
        public Builder<T> maxMultiplex(int maxMultiplex) {
            if (maxMultiplex < 1) {
                throw new IllegalArgumentException("maxMultiplex must be at least 1, was " + maxMultiplex);
            }
            this.maxMultiplex = maxMultiplex;
            return this;
        }

        /**
         * Sets a function that tells, on each acquire, how many callers may hold an entry whose
         * object is the argument (0 lets nobody new in); an entry's own
         * {@link Pool.Entry#setMaxMultiplex(int)} wins over it. It must be fast and must not block.
         */
        public Builder<T> maxMultiplex(ToIntFunction<? super T> maxMultiplexFunction) {
            this.maxMultiplexFunction = Objects.requireNonNull(maxMultiplexFunction, "maxMultiplexFunction");
            return this;
        }

        /** Sets how many times an entry may be acquired in total; 0 (the default) for no limit. */
        public Builder<T> maxUsage(int maxUsage) {
            if (maxUsage < 0) {
                throw new IllegalArgumentException("maxUsage must be 0 (unlimited) or more, was " + maxUsage);
            }
            this.maxUsage = maxUsage;
            return this;
        }

        /**
         * Gives each thread a cache of {@code size} recently released entries that its acquire
         * tries first; 0 (the default) for no cache.
         */
        public Builder<T> threadLocalCache(int size) {
            if (size < 0 || size > maxSize) {
                throw new IllegalArgumentException("threadLocalCache size must be between 0 and maxSize " + maxSize + ", was " + size);
            }
            this.cacheSize = size;
            return this;
        }

        /** @return a new pool with this configuration */
        public ConcurrentPool<T> build() {
            return new ConcurrentPool<>(this);
        }
    }
}
