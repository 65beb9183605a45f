package io.wharf.util.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * One size class of a {@code BucketedByteBufferPool}: every buffer it hands out has the
 * same capacity, and it keeps the released ones in a {@link SlotStack} for reuse.
 *
 * <p>Any thread calls {@link #acquire()}; the last release of a {@link PooledBuffer}, on
 * whichever thread, calls {@link #recycle}. The idle stack is created on the first recycle,
 * so buckets that are never used cost a few counters and no slot array. The memory the idle
 * buffers take is accounted in the {@link BufferPartition}, which may refuse a recycle (the
 * buffer is then dropped) or evict idle buffers from other buckets to make room.
 *
 * <p>Ownership: idle buffers belong to the bucket; a buffer it hands out belongs to the
 * caller until its last release.
 */
public final class BufferBucket {

    private static final VarHandle IDLE;

    static {
        try {
            IDLE = MethodHandles.lookup().findVarHandle(BufferBucket.class, "idle", SlotStack.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final BufferPartition partition;
    private final int capacity;
    private final int maxEntries;
    private volatile SlotStack<PooledBuffer> idle;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder returned = new LongAdder();
    private final LongAdder discarded = new LongAdder();
    private final LongAdder evicted = new LongAdder();

    /**
     * @param capacity the capacity of every buffer of this bucket
     * @param maxEntries the most idle buffers kept; 0 keeps none
     */
    BufferBucket(BufferPartition partition, int capacity, int maxEntries) {
        this.partition = partition;
        this.capacity = capacity;
        this.maxEntries = maxEntries;
    }

    /** @return an idle buffer re-armed with one reference, or a new one */
    PooledBuffer acquire() {
        SlotStack<PooledBuffer> stack = idle;
        PooledBuffer buffer = stack == null ? null : stack.pop();
        if (buffer != null) {
            partition.freeMemory(capacity);
            hits.increment();
            buffer.rearm();
            return buffer;
        }
        misses.increment();
        return new PooledBuffer(partition.allocate(capacity), partition, this);
    }

    /** Takes back an emptied buffer after its last release, or drops it when the pool is full. */
    void recycle(PooledBuffer buffer) {
        if (maxEntries == 0 || !partition.reserveMemory(capacity, this)) {
            discarded.increment();
            return;
        }
        if (!stack().push(buffer)) {
            partition.freeMemory(capacity);
            discarded.increment();
            return;
        }
        returned.increment();
    }

    /**
     * Drops one idle buffer to make room for others.
     *
     * @return the bytes freed, 0 when no idle buffer was found
     */
    int evictOne() {
        SlotStack<PooledBuffer> stack = idle;
        PooledBuffer buffer = stack == null ? null : stack.pop();
        if (buffer == null) {
            return 0;
        }
        partition.freeMemory(capacity);
        evicted.increment();
        return capacity;
    }

    /** Drops every idle buffer. */
    void clear() {
        SlotStack<PooledBuffer> stack = idle;
        if (stack == null) {
            return;
        }
        while (stack.pop() != null) {
            partition.freeMemory(capacity);
        }
    }

    private SlotStack<PooledBuffer> stack() {
        SlotStack<PooledBuffer> stack = idle;
        if (stack == null) {
            SlotStack<PooledBuffer> created = new SlotStack<>(maxEntries);
            // A racing thread may have installed one first: use that one.
            stack = IDLE.compareAndSet(this, null, created) ? created : idle;
        }
        return stack;
    }

    /** @return the capacity of this bucket's buffers */
    public int capacity() {
        return capacity;
    }

    /** @return the most idle buffers kept */
    public int maxEntries() {
        return maxEntries;
    }

    /** @return the idle buffers; exact when the pool is quiet */
    public int idleCount() {
        SlotStack<PooledBuffer> stack = idle;
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

    /** @return last releases that kept the buffer for reuse */
    public long returned() {
        return returned.sum();
    }

    /** @return last releases that dropped the buffer: memory cap reached or bucket full */
    public long discarded() {
        return discarded.sum();
    }

    /** @return idle buffers dropped to make room for a buffer of another bucket */
    public long evicted() {
        return evicted.sum();
    }

    @Override
    public String toString() {
        return (partition.isDirect() ? "direct " : "heap ") + capacity + ": idle " + idleCount() + "/" + maxEntries
            + ", hits " + hits() + ", misses " + misses() + ", returned " + returned()
            + ", discarded " + discarded() + ", evicted " + evicted();
    }
}
