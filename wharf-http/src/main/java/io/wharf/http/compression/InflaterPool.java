package io.wharf.http.compression;

import java.util.zip.Inflater;

/**
 * A bounded pool of {@link Inflater}s of one format: raw deflate ({@code nowrap}, what
 * {@link GzipDecoder} unwraps from gzip framing) or zlib (what {@link ZlibDecoder} reads).
 * A server or client keeps one per format for its whole life and closes it when it stops.
 *
 * <p><b>Threads.</b> Any thread may acquire, release and close at any time; see
 * {@link CodecPool}. <b>Ownership.</b> The holder of a lease owns its inflater until it
 * releases the lease; release resets the inflater for its next user, or ends it when the pool
 * is full or closed. No buffers are involved.
 */
public final class InflaterPool implements AutoCloseable {

    /**
     * The default number of inflaters kept: four per core, at least eight. An inflater holds
     * about 40 KiB of native memory for as long as it is pooled.
     */
    public static final int DEFAULT_CAPACITY = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());

    private final CodecPool<Inflater> pool;
    private final boolean nowrap;

    /**
     * @param capacity the most inflaters kept for reuse, at least 1
     * @param nowrap true for raw deflate data (inside gzip), false for zlib framing (RFC 1950)
     * @throws IllegalArgumentException when {@code capacity} is less than 1
     */
    public InflaterPool(int capacity, boolean nowrap) {
        this.nowrap = nowrap;
        this.pool = new CodecPool<>(capacity, () -> new Inflater(nowrap), Inflater::reset, Inflater::end);
    }

    /** @return a pool for gzip: {@link #DEFAULT_CAPACITY}, raw deflate */
    public static InflaterPool forGzip() {
        return new InflaterPool(DEFAULT_CAPACITY, true);
    }

    /** @return a pool for the zlib format of the {@code deflate} content coding: {@link #DEFAULT_CAPACITY} */
    public static InflaterPool forZlib() {
        return new InflaterPool(DEFAULT_CAPACITY, false);
    }

    /** @return a lease on an inflater ready for a new stream, owned by the caller; see {@link CodecPool#acquire()} */
    public CodecPool.Lease<Inflater> acquire() {
        return pool.acquire();
    }

    /** @return whether the inflaters read raw deflate data rather than zlib framing */
    public boolean isNowrap() {
        return nowrap;
    }

    /** @return the most inflaters kept for reuse */
    public int getCapacity() {
        return pool.getCapacity();
    }

    /** @return how many pooled inflaters nobody holds now */
    public int getIdleCount() {
        return pool.getIdleCount();
    }

    /** @return how many pooled inflaters are lent out now */
    public int getInUseCount() {
        return pool.getInUseCount();
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return pool.isClosed();
    }

    /** Ends every idle inflater and stops pooling; see {@link CodecPool#close()}. */
    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return "InflaterPool[" + (nowrap ? "raw" : "zlib") + " " + pool + "]";
    }
}
