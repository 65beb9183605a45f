package io.wharf.util.buffer.internal;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The heap or the direct half of a {@code BucketedByteBufferPool}: its buckets, the cap on
 * the memory of the buffers it keeps, and its counters.
 *
 * <p>Any thread calls {@link #acquire(int)}; buffers call back on their last release. The
 * buckets have capacities {@code factor, 2 * factor, ..., maxCapacity}; a request rounds up
 * to the first bucket that fits, and a request above {@code maxCapacity} gets a buffer of
 * exactly its size that is never pooled.
 *
 * <p>Memory cap: the partition counts the memory of every buffer that belongs to a bucket,
 * idle or lent out ("pooled memory"). A buffer joins a bucket only on a miss, through
 * {@link #admit}, which reserves its capacity first and refuses when that would pass the cap;
 * it leaves only when evicted or cleared. So the pooled memory, and the idle memory within it,
 * never pass the cap, and hits and releases, the hot path, touch no shared counter. When an
 * admission does not fit, idle buffers of the other buckets are evicted, those of the bucket
 * holding the most idle memory first, up to the size asked for; when that still does not make
 * room the new buffer is lent without joining its bucket and dropped on release. Buffers that
 * the pool keeps from one workload thus give way to those of the next. A buffer that leaks
 * keeps its place: leaks shrink the pool, which is why the tests track them.
 */
public final class BufferPartition {

    private final boolean direct;
    private final int factor;
    private final int maxCapacity;
    private final long maxMemory;
    private final BufferBucket[] buckets;
    private final AtomicLong pooledMemory = new AtomicLong();
    private final LongAdder unpooled = new LongAdder();
    private final LongAdder discarded = new LongAdder();

    /**
     * @param direct whether the buffers are off-heap
     * @param factor the capacity step between buckets, and the smallest capacity
     * @param maxCapacity the largest pooled capacity, a multiple of {@code factor}
     * @param maxBucketEntries the most buffers per bucket
     * @param maxMemory the most memory the pooled buffers may take
     */
    public BufferPartition(boolean direct, int factor, int maxCapacity, int maxBucketEntries, long maxMemory) {
        if (factor < 1 || maxCapacity < factor || maxCapacity % factor != 0) {
            throw new IllegalArgumentException("Bucket sizes need factor >= 1 and a max capacity that is a multiple of it: factor "
                + factor + ", max capacity " + maxCapacity);
        }
        if (maxBucketEntries < 0 || maxMemory < 0) {
            throw new IllegalArgumentException("Bucket entries and memory must not be negative: " + maxBucketEntries + ", " + maxMemory);
        }
        this.direct = direct;
        this.factor = factor;
        this.maxCapacity = maxCapacity;
        this.maxMemory = maxMemory;
        this.buckets = new BufferBucket[maxCapacity / factor];
        for (int i = 0; i < buckets.length; i++) {
            int capacity = (i + 1) * factor;
            // No more entries than buffers that could fit under the cap.
            int entries = (int) Math.min(maxBucketEntries, maxMemory / capacity);
            buckets[i] = new BufferBucket(this, capacity, entries);
        }
    }

    /** @return an empty buffer of at least {@code size} bytes with one reference */
    public PooledBuffer acquire(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("Buffer size must not be negative: " + size);
        }
        if (size > maxCapacity) {
            unpooled.increment();
            return new PooledBuffer(allocate(size), this, null);
        }
        return buckets[bucketIndex(size)].acquire();
    }

    /** @return the capacity a request of {@code size} bytes gets */
    public int capacityFor(int size) {
        return size > maxCapacity ? size : (bucketIndex(size) + 1) * factor;
    }

    private int bucketIndex(int size) {
        return size == 0 ? 0 : (size - 1) / factor;
    }

    ByteBuffer allocate(int capacity) {
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
        return buffer.limit(0);
    }

    /**
     * Lets a new buffer join {@code bucket}, evicting idle buffers of the other buckets when
     * the memory cap requires it.
     *
     * @return whether the buffer joins; if not, it is lent once and dropped on release
     */
    boolean admit(BufferBucket bucket) {
        if (!bucket.reserveEntry()) {
            return false;
        }
        int capacity = bucket.capacity();
        if (tryReserve(capacity) || evictFor(capacity, bucket) && tryReserve(capacity)) {
            return true;
        }
        bucket.releaseEntry();
        return false;
    }

    /** @return whether idle buffers of buckets other than {@code bucket} were evicted to free {@code capacity} bytes */
    private boolean evictFor(int capacity, BufferBucket bucket) {
        long evictable = 0;
        for (BufferBucket other : buckets) {
            if (other != bucket) {
                evictable += other.idleMemory();
            }
        }
        if (maxMemory - pooledMemory.get() + evictable < capacity) {
            // Even emptying the other buckets would not make room: keep what is there.
            return false;
        }
        long freed = 0;
        while (freed < capacity) {
            BufferBucket victim = fullestOtherThan(bucket);
            if (victim == null) {
                return false;
            }
            int evicted = victim.evictOne();
            if (evicted == 0) {
                return false;
            }
            freed += evicted;
        }
        return true;
    }

    private boolean tryReserve(int capacity) {
        while (true) {
            long memory = pooledMemory.get();
            if (memory + capacity > maxMemory) {
                return false;
            }
            if (pooledMemory.compareAndSet(memory, memory + capacity)) {
                return true;
            }
        }
    }

    private BufferBucket fullestOtherThan(BufferBucket bucket) {
        BufferBucket fullest = null;
        long fullestMemory = 0;
        for (BufferBucket other : buckets) {
            long memory = other.idleMemory();
            if (other != bucket && memory > fullestMemory) {
                fullest = other;
                fullestMemory = memory;
            }
        }
        return fullest;
    }

    /** A buffer of {@code bucket} leaves it for good: its place and memory are free again. */
    void drop(BufferBucket bucket) {
        bucket.releaseEntry();
        pooledMemory.addAndGet(-bucket.capacity());
    }

    /** A released buffer was not kept: it was never admitted, or above the largest bucket. */
    void discarded() {
        discarded.increment();
    }

    /** Drops every idle buffer. */
    public void clear() {
        for (BufferBucket bucket : buckets) {
            bucket.clear();
        }
    }

    /** @return whether the buffers are off-heap */
    public boolean isDirect() {
        return direct;
    }

    /** @return the most memory the pooled buffers may take */
    public long maxMemory() {
        return maxMemory;
    }

    /** @return the memory of the buffers that belong to a bucket, idle or lent out */
    public long pooledMemory() {
        return pooledMemory.get();
    }

    /** @return the buckets, smallest first */
    public List<BufferBucket> buckets() {
        return List.of(buckets);
    }

    /** @return how many buffers above the largest bucket were handed out */
    public long unpooled() {
        return unpooled.sum();
    }

    /** @return how many released buffers were not kept */
    public long discardedCount() {
        return discarded.sum();
    }

    @Override
    public String toString() {
        return (direct ? "direct" : "heap") + " partition " + factor + ".." + maxCapacity + " pooled " + pooledMemory() + "/" + maxMemory;
    }
}
