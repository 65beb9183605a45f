package io.wharf.http2.frames;

import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Test helper: feeds bytes to a {@link FrameParser} the way a connection does, each piece in
 * a buffer borrowed from the (leak-tracking) pool, released after the parse — so a DATA chunk
 * the listener forgot to release shows up as a leak.
 */
final class ParserDriver {

    /** An empty SETTINGS frame: the first frame every parser expects. */
    static final String SETTINGS = "000000 04 00 00000000";

    final RecordingListener listener = new RecordingListener();
    final FrameParser parser;
    private final ByteBufferPool pool;

    ParserDriver(ByteBufferPool pool, boolean server) {
        this(pool, server, new HpackDecoder());
    }

    ParserDriver(ByteBufferPool pool, boolean server, HpackDecoder decoder) {
        this.pool = pool;
        this.parser = server ? FrameParser.server(listener, decoder, pool) : FrameParser.client(listener, decoder, pool);
    }

    /** Parses {@code bytes} cut at each of {@code cuts} (increasing offsets), in direct or heap buffers. */
    boolean feed(byte[] bytes, boolean direct, int... cuts) {
        boolean good = true;
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : bytes.length;
            good = feed(bytes, from, to - from, direct);
            from = to;
        }
        return good;
    }

    /** Parses {@code bytes} one byte per buffer. */
    boolean feedByteByByte(byte[] bytes, boolean direct) {
        boolean good = true;
        for (int i = 0; i < bytes.length; i++) {
            good = feed(bytes, i, 1, direct);
        }
        return good;
    }

    private boolean feed(byte[] bytes, int offset, int length, boolean direct) {
        RetainableByteBuffer network = pool.acquire(length, direct);
        try {
            network.byteBuffer().limit(length).put(0, bytes, offset, length);
            boolean good = parser.parse(network);
            if (network.byteBuffer().hasRemaining()) {
                throw new AssertionError("the parser left " + network.remaining() + " bytes");
            }
            return good;
        } finally {
            network.release();
        }
    }
}
