package io.wharf.http.compression;

import java.util.function.Supplier;
import java.util.zip.Deflater;

/**
 * A bounded pool of {@link Deflater}s of one compression level and one format: raw deflate
 * ({@code nowrap}, what {@link GzipEncoder} wraps in gzip framing) or zlib. A server keeps one
 * per configuration for its whole life and closes it when it stops.
 *
 * <p><b>Threads.</b> Any thread may acquire, release and close at any time; see
 * {@link CodecPool}. <b>Ownership.</b> The holder of a lease owns its deflater until it
 * releases the lease; release resets the deflater for its next user, or ends it when the pool
 * is full or closed. No buffers are involved.
 */
public final class DeflaterPool extends CodecPool<Deflater> {

    /**
     * The default number of deflaters kept: four per core, at least eight. Each deflater holds
     * about 256 KiB of native memory for as long as it is pooled, so the default stays modest;
     * a response that finds every pooled deflater busy gets a fresh one, ended after use.
     */
    public static final int DEFAULT_CAPACITY = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());

    private final int level;
    private final boolean nowrap;

    /**
     * @param capacity the most deflaters kept for reuse, at least 1
     * @param level the compression level, 0 to 9, or {@link Deflater#DEFAULT_COMPRESSION} (-1, which zlib takes as 6)
     * @param nowrap true for raw deflate data (for gzip), false for zlib framing (RFC 1950)
     * @throws IllegalArgumentException when the capacity or the level is out of range
     */
    public DeflaterPool(int capacity, int level, boolean nowrap) {
        super(capacity, deflaters(level, nowrap), Deflater::reset, Deflater::end);
        this.level = level;
        this.nowrap = nowrap;
    }

    private static Supplier<Deflater> deflaters(int level, boolean nowrap) {
        if (level != Deflater.DEFAULT_COMPRESSION && (level < Deflater.NO_COMPRESSION || level > Deflater.BEST_COMPRESSION)) {
            throw new IllegalArgumentException("deflate level must be -1 (default) or 0 to 9, was " + level);
        }
        return () -> new Deflater(level, nowrap);
    }

    /** @return a pool for gzip: {@link #DEFAULT_CAPACITY}, the default level, raw deflate */
    public static DeflaterPool forGzip() {
        return new DeflaterPool(DEFAULT_CAPACITY, Deflater.DEFAULT_COMPRESSION, true);
    }

    /** @return the compression level of every deflater of this pool */
    public int getLevel() {
        return level;
    }

    /** @return whether the deflaters write raw deflate data rather than zlib framing */
    public boolean isNowrap() {
        return nowrap;
    }

    @Override
    public String toString() {
        return "DeflaterPool[level=" + level + (nowrap ? " raw" : " zlib") + " " + super.toString() + "]";
    }
}
