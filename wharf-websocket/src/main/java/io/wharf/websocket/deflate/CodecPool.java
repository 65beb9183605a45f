package io.wharf.websocket.deflate;

import java.util.function.Consumer;
import java.util.function.Supplier;

import io.wharf.util.ConcurrentPool;
import io.wharf.util.Pool;

/**
 * A bounded pool of zlib codecs ({@link java.util.zip.Inflater} or {@link java.util.zip.Deflater})
 * over wharf-util's {@link Pool}: each holds native memory (a deflater some 256 KiB), so
 * sessions borrow one for as long as its context must live and give it back reset. When every
 * pooled codec is lent, a caller gets a codec of its own, ended when given back: the pool
 * bounds what is kept, never how many sessions may compress.
 *
 * <p><b>Threads.</b> Any thread may lend and give back; a {@link Lease} is used by one
 * thread at a time.
 *
 * @param <T> the codec type
 */
final class CodecPool<T> {

    /** One codec lent: give it back with {@link CodecPool#giveBack(Lease)} exactly once. */
    static final class Lease<T> {
        private final T codec;
        private final Pool.Entry<T> entry;

        private Lease(T codec, Pool.Entry<T> entry) {
            this.codec = codec;
            this.entry = entry;
        }

        T codec() {
            return codec;
        }
    }

    private final Pool<T> pool;
    private final Supplier<T> creator;
    private final Consumer<T> reset;
    private final Consumer<T> end;

    /**
     * @param maxSize the most codecs kept
     * @param reset makes a codec given back as new
     * @param end frees a codec's native memory
     */
    CodecPool(int maxSize, Supplier<T> creator, Consumer<T> reset, Consumer<T> end) {
        this.pool = ConcurrentPool.<T>builder(maxSize).strategy(Pool.Strategy.THREAD_ID).build();
        this.creator = creator;
        this.reset = reset;
        this.end = end;
    }

    Lease<T> lend() {
        Pool.Entry<T> entry = pool.acquire(reserved -> creator.get());
        return entry != null ? new Lease<>(entry.getPooled(), entry) : new Lease<>(creator.get(), null);
    }

    void giveBack(Lease<T> lease) {
        reset.accept(lease.codec);
        if (lease.entry == null || !lease.entry.release()) {
            end.accept(lease.codec);
        }
    }

    /** @return how many codecs are lent out of the pool now (not counting those of their own) */
    int lent() {
        return pool.getInUseCount();
    }
}
