package io.wharf.util.buffer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.wharf.util.buffer.internal.BufferBucket;
import io.wharf.util.buffer.internal.BufferPartition;
import io.wharf.util.component.Dumpable;

/**
 * Wharf's {@link ByteBufferPool}: reference-counted buffers kept for reuse in size buckets,
 * heap and direct apart, with a cap on the memory the pool keeps.
 *
 * <p><b>Threads.</b> Any thread acquires; any thread releases. Acquire and release are
 * lock-free: each bucket keeps its idle buffers in arrays of slots claimed by
 * compare-and-set. An acquire that finds an idle buffer allocates nothing.
 *
 * <p><b>Buckets.</b> Capacities grow in equal steps of {@code factor} bytes, from
 * {@code factor} up to {@code maxCapacity} (defaults: 1 KiB steps up to 64 KiB, 64 buckets
 * per kind). A request rounds up to the next multiple of the factor (0 bytes gets the first
 * bucket), so a 16 KiB + 9 byte HTTP/2 frame wastes under 1 KiB instead of the 16 KiB a
 * power-of-two bucket would. A request above {@code maxCapacity} gets a buffer of exactly
 * its size with the same reference counting; its last release leaves it to the garbage
 * collector.
 *
 * <p><b>Ownership.</b> {@link #acquire} returns an empty buffer (position = limit = 0) with
 * one reference, owned by the caller. {@link Retainable#retain()} adds an owner; each owner
 * releases once. The last release empties the buffer (whatever it held, in whatever byte
 * order) and gives it back to its bucket; releasing or retaining a freed buffer throws
 * {@link IllegalStateException}, so a buffer never goes back twice. The wrapper object is
 * reused with its buffer, which keeps acquire allocation-free but means a stale reference
 * kept after release goes unnoticed once the buffer serves someone else: the tests run on
 * {@link LeakTrackingByteBufferPool}, which catches that.
 *
 * <p><b>Memory cap.</b> {@code maxHeapMemory} and {@code maxDirectMemory} bound, per kind,
 * the memory of the buffers that belong to the buckets, idle or lent out (defaults: an eighth
 * of the maximum heap, and 64 MiB direct), so the idle memory never passes them either.
 * Memory is accounted only when a buffer joins a bucket (on a miss) or leaves it (evicted,
 * cleared): hits and releases touch no shared counter. A miss that would pass the cap first
 * evicts idle buffers of other buckets, the fullest first; when that does not make room the
 * new buffer is lent without joining its bucket and dropped on release.
 * {@code maxBucketEntries} (default 1024) bounds the buffers of any one bucket the same way.
 * Each bucket spreads its idle buffers over a few stacks chosen by thread, so threads that
 * work on buffers of one size at the same time rarely meet.
 */
public final class BucketedByteBufferPool implements ByteBufferPool, Dumpable {

    /** The default capacity step between buckets: 1 KiB. */
    public static final int DEFAULT_FACTOR = 1024;
    /** The default largest pooled capacity: 64 KiB. */
    public static final int DEFAULT_MAX_CAPACITY = 64 * 1024;
    /** The default most buffers per bucket, idle or lent out. */
    public static final int DEFAULT_MAX_BUCKET_ENTRIES = 1024;
    /** The default cap on pooled direct memory: 64 MiB. */
    public static final long DEFAULT_MAX_DIRECT_MEMORY = 64L * 1024 * 1024;

    private final int factor;
    private final int maxCapacity;
    private final int maxBucketEntries;
    private final BufferPartition heap;
    private final BufferPartition direct;

    /** A pool with the default settings. */
    public BucketedByteBufferPool() {
        this(builder());
    }

    private BucketedByteBufferPool(Builder builder) {
        this.factor = builder.factor;
        this.maxCapacity = builder.maxCapacity;
        this.maxBucketEntries = builder.maxBucketEntries;
        long maxHeap = builder.maxHeapMemory >= 0 ? builder.maxHeapMemory : defaultMaxHeapMemory();
        this.heap = new BufferPartition(false, factor, maxCapacity, maxBucketEntries, maxHeap);
        this.direct = new BufferPartition(true, factor, maxCapacity, maxBucketEntries, builder.maxDirectMemory);
    }

    /** @return a builder with the default settings */
    public static Builder builder() {
        return new Builder();
    }

    private static long defaultMaxHeapMemory() {
        long max = Runtime.getRuntime().maxMemory();
        return max == Long.MAX_VALUE ? 256L * 1024 * 1024 : max / 8;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException when {@code size} is negative
     */
    @Override
    public RetainableByteBuffer acquire(int size, boolean direct) {
        return partition(direct).acquire(size);
    }

    /** Drops every idle buffer of both kinds; buffers in use come back as usual. */
    @Override
    public void clear() {
        heap.clear();
        direct.clear();
    }

    private BufferPartition partition(boolean direct) {
        return direct ? this.direct : heap;
    }

    /** @return the capacity of the buffer that {@code acquire(size, ...)} returns */
    public int capacityFor(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("Buffer size must not be negative: " + size);
        }
        return heap.capacityFor(size);
    }

    /** @return the capacity step between buckets, which is also the smallest capacity */
    public int getFactor() {
        return factor;
    }

    /** @return the largest pooled capacity */
    public int getMaxCapacity() {
        return maxCapacity;
    }

    /** @return the most buffers kept per bucket, idle or lent out */
    public int getMaxBucketEntries() {
        return maxBucketEntries;
    }

    /** @return the cap on the pooled memory of one kind */
    public long getMaxMemory(boolean direct) {
        return partition(direct).maxMemory();
    }

    /** @return the buffers of both kinds handed out and not yet released */
    public long getInUseCount() {
        return getInUseCount(false) + getInUseCount(true);
    }

    /** @return the buffers of one kind handed out and not yet released */
    public long getInUseCount(boolean direct) {
        return statistics(direct).inUse();
    }

    /** @return the idle buffers of one kind */
    public long getIdleCount(boolean direct) {
        return statistics(direct).idleCount();
    }

    /** @return the memory the idle buffers of one kind take; exact when the pool is quiet */
    public long getIdleMemory(boolean direct) {
        return statistics(direct).idleMemory();
    }

    /** @return the memory of the buffers of one kind that belong to the buckets, idle or lent out; at most the cap */
    public long getPooledMemory(boolean direct) {
        return partition(direct).pooledMemory();
    }

    /**
     * @return the counters of one kind; each is read atomically, the set is not, so under
     *     load they may disagree by the operations in flight
     */
    public Statistics statistics(boolean direct) {
        BufferPartition partition = partition(direct);
        List<BufferBucket> buckets = partition.buckets();
        // Releases are read before acquisitions so that "in use" is never negative.
        long discarded = partition.discardedCount();
        long returned = 0;
        for (BufferBucket bucket : buckets) {
            returned += bucket.returned();
        }
        long hits = 0;
        long misses = 0;
        long rejected = 0;
        long evicted = 0;
        long idleCount = 0;
        long idleMemory = 0;
        for (BufferBucket bucket : buckets) {
            hits += bucket.hits();
            misses += bucket.misses();
            rejected += bucket.rejected();
            evicted += bucket.evicted();
            int idle = bucket.idleCount();
            idleCount += idle;
            idleMemory += (long) idle * bucket.capacity();
        }
        return new Statistics(hits, misses, rejected, partition.unpooled(), returned, discarded, evicted, idleCount, idleMemory,
            partition.pooledMemory(), partition.maxMemory());
    }

    /**
     * The counters of one kind (heap or direct) of the pool.
     *
     * @param hits acquisitions served by an idle buffer
     * @param misses acquisitions that allocated a buffer of a bucket's capacity
     * @param rejected misses whose buffer could not join its bucket (bucket or memory cap full)
     * @param unpooled acquisitions above the largest bucket, allocated at their exact size
     * @param returned last releases that kept the buffer for reuse
     * @param discarded last releases that dropped the buffer (rejected or unpooled ones)
     * @param evicted idle buffers dropped to make room for buffers of other buckets
     * @param idleCount the buffers kept for reuse now
     * @param idleMemory the memory those buffers take
     * @param pooledMemory the memory of the buffers that belong to the buckets, idle or lent out
     * @param maxMemory the cap on {@code pooledMemory}
     */
    public record Statistics(long hits, long misses, long rejected, long unpooled, long returned, long discarded, long evicted,
                             long idleCount, long idleMemory, long pooledMemory, long maxMemory) {

        /** @return all acquisitions */
        public long acquired() {
            return hits + misses + unpooled;
        }

        /** @return all last releases */
        public long released() {
            return returned + discarded;
        }

        /** @return the buffers allocated */
        public long allocated() {
            return misses + unpooled;
        }

        /** @return the buffers handed out and not yet released */
        public long inUse() {
            return acquired() - released();
        }
    }

    /** @return one line: settings, then idle and in-use figures of each kind */
    @Override
    public String toString() {
        return "BucketedByteBufferPool@" + Integer.toHexString(System.identityHashCode(this))
            + "{buckets " + factor + ".." + maxCapacity + " step " + factor + ", max " + maxBucketEntries + " per bucket"
            + ", heap " + describe(statistics(false)) + ", direct " + describe(statistics(true)) + "}";
    }

    private static String describe(Statistics statistics) {
        return statistics.inUse() + " in use, " + statistics.idleCount() + " idle, pooled " + statistics.pooledMemory()
            + "/" + statistics.maxMemory() + " bytes, " + statistics.hits() + " hits, " + statistics.allocated() + " allocated";
    }

    /** Writes {@link #toString()}, then one line per bucket ever used, then the count of unpooled buffers per kind. */
    @Override
    public void dump(Appendable out, String indent) throws IOException {
        List<Object> lines = new ArrayList<>();
        for (BufferPartition partition : List.of(heap, direct)) {
            for (BufferBucket bucket : partition.buckets()) {
                if (bucket.pooledCount() > 0 || bucket.misses() > 0) {
                    lines.add(bucket);
                }
            }
            long unpooled = partition.unpooled();
            if (unpooled > 0) {
                lines.add((partition.isDirect() ? "direct" : "heap") + " above " + maxCapacity + ": " + unpooled + " unpooled");
            }
        }
        Dumpable.dumpObjects(out, indent, this, lines);
    }

    /** Settings of a {@link BucketedByteBufferPool}; every one has a default. */
    public static final class Builder {
        private int factor = DEFAULT_FACTOR;
        private int maxCapacity = DEFAULT_MAX_CAPACITY;
        private int maxBucketEntries = DEFAULT_MAX_BUCKET_ENTRIES;
        private long maxHeapMemory = -1;
        private long maxDirectMemory = DEFAULT_MAX_DIRECT_MEMORY;

        private Builder() {
        }

        /** @param factor the capacity step between buckets and the smallest capacity, at least 1 */
        public Builder factor(int factor) {
            if (factor < 1) {
                throw new IllegalArgumentException("Bucket factor must be at least 1: " + factor);
            }
            this.factor = factor;
            return this;
        }

        /** @param maxCapacity the largest pooled capacity; a multiple of the factor */
        public Builder maxCapacity(int maxCapacity) {
            if (maxCapacity < 1) {
                throw new IllegalArgumentException("Max capacity must be at least 1: " + maxCapacity);
            }
            this.maxCapacity = maxCapacity;
            return this;
        }

        /** @param maxBucketEntries the most buffers per bucket, idle or lent out; 0 pools nothing */
        public Builder maxBucketEntries(int maxBucketEntries) {
            if (maxBucketEntries < 0) {
                throw new IllegalArgumentException("Max bucket entries must not be negative: " + maxBucketEntries);
            }
            this.maxBucketEntries = maxBucketEntries;
            return this;
        }

        /** @param maxHeapMemory the cap on pooled heap memory in bytes; 0 pools no heap buffer */
        public Builder maxHeapMemory(long maxHeapMemory) {
            if (maxHeapMemory < 0) {
                throw new IllegalArgumentException("Max heap memory must not be negative: " + maxHeapMemory);
            }
            this.maxHeapMemory = maxHeapMemory;
            return this;
        }

        /** @param maxDirectMemory the cap on pooled direct memory in bytes; 0 pools no direct buffer */
        public Builder maxDirectMemory(long maxDirectMemory) {
            if (maxDirectMemory < 0) {
                throw new IllegalArgumentException("Max direct memory must not be negative: " + maxDirectMemory);
            }
            this.maxDirectMemory = maxDirectMemory;
            return this;
        }

        /**
         * @return the pool
         * @throws IllegalArgumentException when the max capacity is not a multiple of the factor
         */
        public BucketedByteBufferPool build() {
            if (maxCapacity % factor != 0 || maxCapacity < factor) {
                throw new IllegalArgumentException("Max capacity " + maxCapacity + " must be a multiple of the factor " + factor);
            }
            return new BucketedByteBufferPool(this);
        }
    }
}
