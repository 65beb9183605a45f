package io.wharf.http.compression;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;

/**
 * Decodes a gzip body (RFC 1952) incrementally and within {@link DecoderLimits}: reads each
 * member's header (the optional extra field, file name and comment skipped within
 * {@link DecoderLimits#maxHeaderFieldLength()}, the optional header CRC checked), inflates its
 * data, and checks its trailer's CRC-32 and length. A body may hold several members one after
 * the other, as RFC 1952 allows; their contents are concatenated. Anything after a member that
 * is not another member's header is an error, and so is an empty body.
 *
 * <p>Threads, buffers, native memory and hostile input: see {@link ContentDecoder}. The
 * inflater is borrowed for each member's data and given back at the end of it.
 */
public final class GzipDecoder extends InflatingDecoder {

    private enum State {
        /** Reading a member header. */
        HEADER,
        /** Inflating a member's data. */
        DATA,
        /** Reading a member's 8-byte trailer. */
        TRAILER,
        /** Between members: the body may end here, or another member start. */
        MEMBER_END
    }

    private static final int TRAILER_LENGTH = 8;

    private final GzipHeaderReader header;
    private final CRC32 checksum = new CRC32();
    private State state = State.HEADER;
    /** The inflated count when the current member's data started. */
    private long memberStart;
    private int trailerCount;
    private long trailer;

    /** A decoder with {@link DecoderLimits#DEFAULT}. */
    public GzipDecoder(InflaterPool pool) {
        this(pool, DecoderLimits.DEFAULT);
    }

    /**
     * @param pool where to borrow the inflater from; its inflaters must read raw deflate data
     * @param limits the limits to enforce
     * @throws IllegalArgumentException when the pool's inflaters expect zlib framing
     */
    public GzipDecoder(InflaterPool pool, DecoderLimits limits) {
        super(pool, limits, "gzip", true);
        this.header = new GzipHeaderReader(limits.maxHeaderFieldLength());
    }

    @Override
    protected Progress step(ByteBuffer input, boolean last, ByteBuffer output) {
        while (true) {
            switch (state) {
                case HEADER -> {
                    if (!header.read(input)) {
                        return needInput(last, header.isAtStart()
                            ? "gzip content is empty" : "gzip content truncated in a member header");
                    }
                    checksum.reset();
                    memberStart = inflater.inflated();
                    state = State.DATA;
                }
                case DATA -> {
                    switch (inflater.inflate(input, output, checksum)) {
                        case STREAM_END -> {
                            trailerCount = 0;
                            trailer = 0;
                            state = State.TRAILER;
                        }
                        case NEEDS_INPUT -> {
                            return needInput(last, "gzip content truncated in its deflate data");
                        }
                        case OUTPUT_FULL -> {
                            return Progress.OUTPUT_FULL;
                        }
                    }
                }
                case TRAILER -> {
                    if (!readTrailer(input)) {
                        return needInput(last, "gzip content truncated in a member trailer");
                    }
                    checkTrailer();
                    state = State.MEMBER_END;
                }
                case MEMBER_END -> {
                    if (!input.hasRemaining()) {
                        return last ? Progress.FINISHED : Progress.NEEDS_INPUT;
                    }
                    header.reset();
                    state = State.HEADER;
                }
            }
        }
    }

    private static Progress needInput(boolean last, String truncation) {
        if (last) {
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400, truncation);
        }
        return Progress.NEEDS_INPUT;
    }

    /** @return whether all 8 trailer bytes were read, little-endian, into {@link #trailer} */
    private boolean readTrailer(ByteBuffer input) {
        while (trailerCount < TRAILER_LENGTH) {
            if (!input.hasRemaining()) {
                return false;
            }
            trailer |= (input.get() & 0xFFL) << (8 * trailerCount);
            trailerCount++;
        }
        return true;
    }

    private void checkTrailer() {
        long crc = trailer & 0xFFFF_FFFFL;
        long size = trailer >>> 32;
        if (crc != checksum.getValue()) {
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "gzip CRC-32 mismatch: content is corrupt");
        }
        long inflatedSize = (inflater.inflated() - memberStart) & 0xFFFF_FFFFL;
        if (size != inflatedSize) {
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400,
                "gzip trailer length " + size + " differs from the inflated length " + inflatedSize);
        }
    }

    @Override
    protected String framingState() {
        return state.name();
    }
}
