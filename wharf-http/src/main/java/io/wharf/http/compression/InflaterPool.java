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
public final class InflaterPool extends CodecPool<Inflater> {

    /**
     * The default number of inflaters kept: four per core, at least eight. An inflater holds
     * about 40 KiB of native memory for as long as it is pooled.
     */
    public static final int DEFAULT_CAPACITY = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());

    private final boolean nowrap;

    /**
     * @param capacity the most inflaters kept for reuse, at least 1
     * @param nowrap true for raw deflate data (inside gzip), false for zlib framing (RFC 1950)
     * @throws IllegalArgumentException when {@code capacity} is less than 1
     */
    public InflaterPool(int capacity, boolean nowrap) {
        super(capacity, () -> new Inflater(nowrap), Inflater::reset, Inflater::end);
        this.nowrap = nowrap;
    }

    /** @return a pool for gzip: {@link #DEFAULT_CAPACITY}, raw deflate */
    public static InflaterPool forGzip() {
        return new InflaterPool(DEFAULT_CAPACITY, true);
    }

    /** @return a pool for the zlib format of the {@code deflate} content coding: {@link #DEFAULT_CAPACITY} */
    public static InflaterPool forZlib() {
        return new InflaterPool(DEFAULT_CAPACITY, false);
    }

    /** @return whether the inflaters read raw deflate data rather than zlib framing */
    public boolean isNowrap() {
        return nowrap;
    }

    @Override
    public String toString() {
        return "InflaterPool[" + (nowrap ? "raw" : "zlib") + " " + super.toString() + "]";
    }
}
