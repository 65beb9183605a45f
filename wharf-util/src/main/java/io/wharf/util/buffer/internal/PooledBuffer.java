package io.wharf.util.buffer.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * A buffer of a {@code BucketedByteBufferPool}: a {@link ByteBuffer} with an atomic reference
 * count, handed out by its {@link BufferBucket} and given back to it on its last release.
 *
 * <p>Any thread may retain or release. The count is one {@code int}: a positive value is
 * the number of holders; 0 means free (idle in its bucket, or dropped for the garbage
 * collector). The release that takes the count from 1 to 0 empties the buffer (position =
 * limit = 0, big-endian) and hands it back; a release or retain at 0 throws.
 *
 * <p>The wrapper itself is reused: when its bucket hands it out again the count goes from
 * 0 back to 1. So a holder that keeps its reference after releasing and releases a second
 * time after the buffer was handed out again cannot be told apart from the new owner.
 * Acquire stays allocation-free in exchange; the leak-tracking pool used by the tests wraps
 * every acquisition in its own object and catches such stale releases.
 *
 * <p>A buffer above the pool's largest bucket, or one that its bucket did not admit (bucket or
 * memory cap full), has no bucket: its last release only counts it and lets the garbage
 * collector have it.
 */
public final class PooledBuffer implements RetainableByteBuffer {

    private static final VarHandle REFERENCES;

    static {
        try {
            REFERENCES = MethodHandles.lookup().findVarHandle(PooledBuffer.class, "references", int.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final ByteBuffer buffer;
    private final BufferPartition partition;
    private final BufferBucket bucket;
    @SuppressWarnings("unused") // through REFERENCES
    private volatile int references;

    /**
     * @param buffer an empty buffer
     * @param partition the heap or direct side of the pool
     * @param bucket where the buffer goes back, or null when it is lent once
     */
    PooledBuffer(ByteBuffer buffer, BufferPartition partition, BufferBucket bucket) {
        this.buffer = buffer;
        this.partition = partition;
        this.bucket = bucket;
        this.references = 1;
    }

    /**
     * Takes the first reference again; only for the bucket that just took this buffer out of
     * its idle stack. A release store is enough: the taking thread owns the buffer (the stack's
     * atomic exchange ordered the take after the last release), and any thread it hands the
     * buffer to later sees the count through that hand-off.
     */
    void rearm() {
        REFERENCES.setRelease(this, 1);
    }

    @Override
    public ByteBuffer byteBuffer() {
        return buffer;
    }

    @Override
    public boolean isDirect() {
        return partition.isDirect();
    }

    @Override
    public void retain() {
        while (true) {
            int count = (int) REFERENCES.getVolatile(this);
            if (count <= 0) {
                throw new IllegalStateException("Retain of a released buffer " + this);
            }
            if (REFERENCES.compareAndSet(this, count, count + 1)) {
                return;
            }
        }
    }

    @Override
    public boolean release() {
        while (true) {
            int count = (int) REFERENCES.getVolatile(this);
            if (count <= 0) {
                throw new IllegalStateException("Release of a released buffer " + this);
            }
            if (REFERENCES.compareAndSet(this, count, count - 1)) {
                if (count > 1) {
                    return false;
                }
                buffer.order(ByteOrder.BIG_ENDIAN).position(0).limit(0);
                if (bucket == null) {
                    partition.discarded();
                } else {
                    bucket.recycle(this);
                }
                return true;
            }
        }
    }

    @Override
    public boolean isRetained() {
        return (int) REFERENCES.getVolatile(this) > 1;
    }

    /** @return whether no one holds this buffer */
    public boolean isFree() {
        return (int) REFERENCES.getVolatile(this) <= 0;
    }

    @Override
    public String toString() {
        return "PooledBuffer@" + Integer.toHexString(System.identityHashCode(this))
            + "[r=" + (int) REFERENCES.getVolatile(this)
            + "," + (partition.isDirect() ? "direct" : "heap")
            + "," + (bucket == null ? "unpooled" : "bucket " + bucket.capacity())
            + "," + buffer.position() + "-" + buffer.limit() + "/" + buffer.capacity() + "]";
    }
}
