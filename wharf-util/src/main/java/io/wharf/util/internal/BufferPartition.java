package io.wharf.util.internal;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The heap or the direct half of a {@code BucketedByteBufferPool}: its buckets, the cap on
 * the memory its idle buffers may take, and its counters.
 *
 * <p>Any thread calls {@link #acquire(int)}; buffers call back on their last release. The
 * buckets have capacities {@code factor, 2 * factor, ..., maxCapacity}; a request rounds up
 * to the first bucket that fits, and a request above {@code maxCapacity} gets a buffer of
 * exactly its size that is never pooled.
 *
 * <p>Memory cap: {@link #reserveMemory} adds a buffer's capacity to the idle-memory counter
 * before the buffer is pushed into its bucket, and a bucket subtracts it only after a buffer
 * has left its stack. The counter therefore never under-counts the idle memory, and since a
 * reservation that would pass the cap is refused, the idle memory never passes the cap
 * either. When a reservation does not fit, idle buffers of the other buckets are evicted,
 * those of the bucket holding the most idle memory first, up to the size asked for; when
 * that still does not make room the released buffer is dropped. Buffers that the pool keeps
 * from one workload thus give way to those of the next.
 */
public final class BufferPartition {

    private final boolean direct;
    private final int factor;
    private final int maxCapacity;
    private final long maxMemory;
    private final BufferBucket[] buckets;
    private final AtomicLong idleMemory = new AtomicLong();
    private final LongAdder unpooledAcquired = new LongAdder();
    private final LongAdder unpooledReleased = new LongAdder();

    /**
     * @param direct whether the buffers are off-heap
     * @param factor the capacity step between buckets, and the smallest capacity
     * @param maxCapacity the largest pooled capacity, a multiple of {@code factor}
     * @param maxBucketEntries the most idle buffers per bucket
     * @param maxMemory the most memory the idle buffers may take
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
            // No more slots than buffers that could fit under the cap.
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
            unpooledAcquired.increment();
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
     * Makes room for {@code capacity} more bytes of idle memory for a buffer of {@code bucket},
     * evicting idle buffers of the other buckets when needed.
     *
     * @return whether the room was reserved; if so the caller pushes the buffer or frees the room
     */
    boolean reserveMemory(int capacity, BufferBucket bucket) {
        if (tryReserve(capacity)) {
            return true;
        }
        long evictable = 0;
        for (BufferBucket other : buckets) {
            if (other != bucket) {
                evictable += other.idleMemory();
            }
        }
        if (maxMemory - idleMemory.get() + evictable < capacity) {
            // Even emptying the other buckets would not make room: keep what is there.
            return false;
        }
        long freed = 0;
        while (freed < capacity) {
            BufferBucket victim = largestOtherThan(bucket);
            if (victim == null) {
                break;
            }
            int evicted = victim.evictOne();
            if (evicted == 0) {
                break;
            }
            freed += evicted;
        }
        return tryReserve(capacity);
    }

    private boolean tryReserve(int capacity) {
        while (true) {
            long memory = idleMemory.get();
            if (memory + capacity > maxMemory) {
                return false;
            }
            if (idleMemory.compareAndSet(memory, memory + capacity)) {
                return true;
            }
        }
    }

    private BufferBucket largestOtherThan(BufferBucket bucket) {
        BufferBucket largest = null;
        long largestMemory = 0;
        for (BufferBucket other : buckets) {
            long memory = other.idleMemory();
            if (other != bucket && memory > largestMemory) {
                largest = other;
                largestMemory = memory;
            }
        }
        return largest;
    }

    void freeMemory(int capacity) {
        idleMemory.addAndGet(-capacity);
    }

    void releasedUnpooled() {
        unpooledReleased.increment();
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

    /** @return the most memory the idle buffers may take */
    public long maxMemory() {
        return maxMemory;
    }

    /** @return the memory reserved by idle buffers; never below the real figure, exact when quiet */
    public long idleMemory() {
        return idleMemory.get();
    }

    /** @return the buckets, smallest first */
    public List<BufferBucket> buckets() {
        return List.of(buckets);
    }

    /** @return how many buffers above the largest bucket were handed out */
    public long unpooledAcquired() {
        return unpooledAcquired.sum();
    }

    /** @return how many buffers above the largest bucket were released */
    public long unpooledReleased() {
        return unpooledReleased.sum();
    }

    @Override
    public String toString() {
        return (direct ? "direct" : "heap") + " partition " + factor + ".." + maxCapacity + " idle " + idleMemory() + "/" + maxMemory;
    }
}
