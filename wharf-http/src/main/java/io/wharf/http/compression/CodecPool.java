package io.wharf.http.compression;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.wharf.util.ConcurrentPool;
import io.wharf.util.Pool;

/**
 * A bounded pool of codecs that hold native memory — {@link java.util.zip.Deflater}s and
 * {@link java.util.zip.Inflater}s — lent out as {@link Lease}s. {@link DeflaterPool} and
 * {@link InflaterPool} configure one; encoders and decoders borrow from those.
 *
 * <p><b>Threads.</b> Any thread may acquire, release and close, concurrently: the pool is an
 * {@link ConcurrentPool}, lock-free. A lease is used by one thread at a time, the one that
 * holds it.
 *
 * <p><b>Ownership.</b> The pool creates codecs and ends them; a lease's holder uses its codec
 * until it {@link Lease#release() releases} the lease, exactly once, and never touches the
 * codec again. Release resets the codec and puts it back. When every pooled slot is busy,
 * {@link #acquire()} still hands out a fresh codec, in a lease that ends it on release; after
 * {@link #close()} every lease is of that kind. So no codec is ever dropped without being
 * ended: native memory is freed by the release, not by the garbage collector.
 *
 * @param <T> the type of the codecs
 */
public class CodecPool<T> implements AutoCloseable {

    private final Pool<T> pool;
    private final Supplier<T> creator;
    private final Consumer<T> resetter;
    private final Consumer<T> ender;

    /**
     * @param capacity the most codecs kept for reuse, at least 1
     * @param creator makes a new codec
     * @param resetter makes a used codec as good as new
     * @param ender frees a codec's native memory; it must tolerate a second call
     * @throws IllegalArgumentException when {@code capacity} is less than 1
     */
    public CodecPool(int capacity, Supplier<T> creator, Consumer<T> resetter, Consumer<T> ender) {
        if (capacity < 1) {
            throw new IllegalArgumentException("codec pool capacity must be at least 1, was " + capacity);
        }
        this.pool = ConcurrentPool.<T>builder(capacity).build();
        this.creator = Objects.requireNonNull(creator, "creator");
        this.resetter = Objects.requireNonNull(resetter, "resetter");
        this.ender = Objects.requireNonNull(ender, "ender");
    }

    /**
     * Lends a codec: an idle pooled one, else a new one in a free slot, else (every slot busy,
     * or the pool closed) a new one that its release ends.
     *
     * @return a lease on a codec ready for a new stream, owned by the caller
     */
    public Lease<T> acquire() {
        Pool.Entry<T> entry = pool.acquire();
        if (entry != null) {
            return new Lease<>(this, entry, entry.getPooled());
        }
        entry = pool.reserve();
        T codec;
        try {
            codec = Objects.requireNonNull(creator.get(), "codec creator returned null");
        } catch (RuntimeException | Error failure) {
            if (entry != null) {
                entry.remove();
            }
            throw failure;
        }
        if (entry == null) {
            return new Lease<>(this, null, codec);
        }
        if (entry.enable(codec, true)) {
            return new Lease<>(this, entry, codec);
        }
        // Closed between the reserve and the enable: the codec is the caller's alone.
        return new Lease<>(this, null, codec);
    }

    /** @return the most codecs kept for reuse */
    public int getCapacity() {
        return pool.getMaxSize();
    }

    /** @return how many pooled codecs nobody holds now */
    public int getIdleCount() {
        return pool.getIdleCount();
    }

    /** @return how many pooled codecs are lent out now (codecs made beyond capacity are not counted) */
    public int getInUseCount() {
        return pool.getInUseCount();
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return pool.isTerminated();
    }

    /**
     * Ends every idle codec and stops pooling: codecs lent out now are ended when their leases
     * are released, and later acquires get codecs that their release ends. Calling it again
     * does nothing more.
     */
    @Override
    public void close() {
        for (Pool.Entry<T> entry : pool.terminate()) {
            T codec = entry.getPooled();
            // A held entry is ended by its holder's release, which finds it removed; an entry
            // released since the terminate may be ended twice, which the ender tolerates.
            if (codec != null && entry.getMultiplexCount() == 0) {
                ender.accept(codec);
            }
        }
    }

    @Override
    public String toString() {
        return "CodecPool@" + Integer.toHexString(hashCode()) + "[" + pool + "]";
    }

    private void giveBack(Pool.Entry<T> entry, T codec) {
        if (entry == null) {
            ender.accept(codec);
            return;
        }
        boolean reset = false;
        try {
            resetter.accept(codec);
            reset = true;
        } finally {
            if (!reset) {
                // A codec that cannot be reset is not lent again.
                entry.remove();
            }
            if (!entry.release()) {
                ender.accept(codec);
            }
        }
    }

    /**
     * One loan of a codec from a {@link CodecPool}. The thread that holds it uses
     * {@link #codec()} and then calls {@link #release()} once; after that the codec may already
     * serve another thread, or be ended.
     *
     * @param <T> the type of the codec
     */
    public static final class Lease<T> {
        private final CodecPool<T> owner;
        private final Pool.Entry<T> entry;
        private final T codec;
        private boolean released;

        private Lease(CodecPool<T> owner, Pool.Entry<T> entry, T codec) {
            this.owner = owner;
            this.entry = entry;
            this.codec = codec;
        }

        /**
         * @return the codec, ready for a new stream when the lease was acquired
         * @throws IllegalStateException when the lease was released
         */
        public T codec() {
            if (released) {
                throw new IllegalStateException("codec lease already released: " + this);
            }
            return codec;
        }

        /** @return whether the codec returns to the pool on release, rather than being ended */
        public boolean isPooled() {
            return entry != null;
        }

        /**
         * Resets the codec and gives it back to the pool, or ends it when it does not go back.
         *
         * @throws IllegalStateException when the lease was already released
         */
        public void release() {
            if (released) {
                throw new IllegalStateException("codec lease already released: " + this);
            }
            released = true;
            owner.giveBack(entry, codec);
        }

        @Override
        public String toString() {
            return "Lease@" + Integer.toHexString(hashCode()) + "[" + codec + (entry == null ? " unpooled" : " pooled")
                + (released ? " released" : "") + "]";
        }
    }
}
