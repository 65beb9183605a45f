package io.wharf.util.buffer.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.wharf.util.concurrent.StripedSlotStack;

/**
 * One size class of a {@code BucketedByteBufferPool}: every buffer it hands out has the
 * same capacity, and it keeps its released buffers in a {@link StripedSlotStack} for reuse.
 *
 * <p>Any thread calls {@link #acquire()}; the last release of a {@link PooledBuffer}, on
 * whichever thread, calls {@link #recycle}. A hit (an idle buffer found) and a recycle touch
 * only the stack and this bucket's counters. Memory is accounted when a buffer joins the
 * bucket, on a miss, and when it leaves it (evicted, cleared): a miss asks the
 * {@link BufferPartition} to admit a new buffer, within {@code maxEntries} buffers for this
 * bucket and the partition's memory cap; a buffer not admitted is lent once and dropped on
 * release. The idle stack is created on the first admission, so a bucket never used costs a
 * few counters and no slot array.
 *
 * <p>Ownership: idle buffers belong to the bucket; a buffer it hands out belongs to the
 * caller until its last release.
 */
public final class BufferBucket {

    private static final VarHandle IDLE;

    static {
        try {
            IDLE = MethodHandles.lookup().findVarHandle(BufferBucket.class, "idle", StripedSlotStack.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final BufferPartition partition;
    private final int capacity;
    private final int maxEntries;
    /** The buffers that belong to this bucket, idle or lent out. */
    private final AtomicInteger pooled = new AtomicInteger();
    private volatile StripedSlotStack<PooledBuffer> idle;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder returned = new LongAdder();
    private final LongAdder evicted = new LongAdder();

    /**
     * @param capacity the capacity of every buffer of this bucket
     * @param maxEntries the most buffers this bucket keeps, idle or lent out; 0 keeps none
     */
    BufferBucket(BufferPartition partition, int capacity, int maxEntries) {
        this.partition = partition;
        this.capacity = capacity;
        this.maxEntries = maxEntries;
    }

    /** @return an idle buffer re-armed with one reference, or a new one */
    PooledBuffer acquire() {
        StripedSlotStack<PooledBuffer> stack = idle;
        PooledBuffer buffer = stack == null ? null : stack.pop();
        if (buffer != null) {
            hits.increment();
            buffer.rearm();
            return buffer;
        }
        misses.increment();
        if (partition.admit(this)) {
            return new PooledBuffer(partition.allocate(capacity), partition, this);
        }
        rejected.increment();
        return new PooledBuffer(partition.allocate(capacity), partition, null);
    }

    /**
     * Reserves a place for one more buffer of this bucket; the memory is the partition's business.
     *
     * @return false when the bucket already holds {@code maxEntries} buffers
     */
    boolean reserveEntry() {
        while (true) {
            int count = pooled.get();
            if (count >= maxEntries) {
                return false;
            }
            if (pooled.compareAndSet(count, count + 1)) {
                return true;
            }
        }
    }

    /** Gives back a place reserved by {@link #reserveEntry()} or held by a buffer that left. */
    void releaseEntry() {
        pooled.decrementAndGet();
    }

    /** Takes back an emptied buffer of this bucket after its last release. */
    void recycle(PooledBuffer buffer) {
        // A place was reserved for every admitted buffer, so the stack has room for it.
        if (stack().push(buffer)) {
            returned.increment();
        } else {
            partition.drop(this);
            partition.discarded();
        }
    }

    /**
     * Drops one idle buffer to make room for a buffer of another bucket.
     *
     * @return the bytes freed, 0 when no idle buffer was found
     */
    int evictOne() {
        StripedSlotStack<PooledBuffer> stack = idle;
        PooledBuffer buffer = stack == null ? null : stack.pop();
        if (buffer == null) {
            return 0;
        }
        evicted.increment();
        partition.drop(this);
        return capacity;
    }

    /** Drops every idle buffer. */
    void clear() {
        StripedSlotStack<PooledBuffer> stack = idle;
        if (stack == null) {
            return;
        }
        while (stack.pop() != null) {
            partition.drop(this);
        }
    }

    private StripedSlotStack<PooledBuffer> stack() {
        StripedSlotStack<PooledBuffer> stack = idle;
        if (stack == null) {
            StripedSlotStack<PooledBuffer> created = new StripedSlotStack<>(maxEntries);
            // A racing thread may have installed one first: use that one.
            stack = IDLE.compareAndSet(this, null, created) ? created : idle;
        }
        return stack;
    }

    /** @return the capacity of this bucket's buffers */
    public int capacity() {
        return capacity;
    }

    /** @return the most buffers this bucket keeps, idle or lent out */
    public int maxEntries() {
        return maxEntries;
    }

    /** @return the buffers that belong to this bucket, idle or lent out */
    public int pooledCount() {
        return pooled.get();
    }

    /** @return the idle buffers; exact when the pool is quiet */
    public int idleCount() {
        StripedSlotStack<PooledBuffer> stack = idle;
        return stack == null ? 0 : stack.size();
    }

    /** @return the memory of the idle buffers; exact when the pool is quiet */
    public long idleMemory() {
        return (long) idleCount() * capacity;
    }

    /** @return acquisitions served from an idle buffer */
    public long hits() {
        return hits.sum();
    }

    /** @return acquisitions that had to allocate */
    public long misses() {
        return misses.sum();
    }

    /** @return misses whose buffer was not admitted (bucket or memory full), lent once and dropped on release */
    public long rejected() {
        return rejected.sum();
    }

    /** @return last releases that kept the buffer for reuse */
    public long returned() {
        return returned.sum();
    }

    /** @return idle buffers dropped to make room for a buffer of another bucket */
    public long evicted() {
        return evicted.sum();
    }

    @Override
    public String toString() {
        return (partition.isDirect() ? "direct " : "heap ") + capacity + ": idle " + idleCount() + ", pooled " + pooledCount()
            + "/" + maxEntries + ", hits " + hits() + ", misses " + misses() + ", rejected " + rejected()
            + ", evicted " + evicted();
    }
}
