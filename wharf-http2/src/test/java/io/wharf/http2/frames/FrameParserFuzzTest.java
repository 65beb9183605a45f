package io.wharf.http2.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import io.wharf.http.HttpFields;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.io.Content;
import io.wharf.util.buffer.LeakTrackingByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target for the HTTP/2 frame parser with its HPACK decoder (docs/fuzzing.md). An
 * input's first octet picks the side (even: a server's parser, reading a client's preface and
 * frames; odd: a client's, which also takes PUSH_PROMISE); the rest is what the peer sends,
 * each piece in a buffer from a leak-tracking pool as a connection reads it. What each input
 * must keep:
 * <ul>
 * <li>no exception escapes {@code parse}: a bad frame is a stream or connection error told to
 *     the listener, at most one connection error, and nothing after it;</li>
 * <li>no pooled buffer leaked once the parser is closed (DATA chunks are released by the
 *     listener, as a session does; a frame cut short is given back by {@code close()});</li>
 * <li>the same events whether the bytes come whole or one byte at a time;</li>
 * <li>bounded: a header list kept is within the decoder's limit;</li>
 * <li>round trip: when the input holds no error, the events given to a {@link FrameGenerator}
 *     make bytes that a fresh parser reads back as the same events.</li>
 * </ul>
 * Seeds: {@code src/test/resources/io/wharf/http2/frames/FrameParserFuzzTestInputs/frames/}.
 */
class FrameParserFuzzTest {

    private final LeakTrackingByteBufferPool pool = new LeakTrackingByteBufferPool();

    @FuzzTest
    void frames(byte[] input) {
        if (input.length == 0) {
            return;
        }
        boolean server = (input[0] & 1) == 0;
        byte[] bytes = Arrays.copyOfRange(input, 1, input.length);
        try {
            Regenerating whole = new Regenerating(pool, server);
            boolean good = feed(whole, bytes);
            RecordingListener byByte = new RecordingListener();
            feedByteByByte(server ? FrameParser.server(byByte, new HpackDecoder(), pool) : FrameParser.client(byByte, new HpackDecoder(), pool), bytes);
            assertEquals(whole.events(), byByte.events(), "the events depend on how the bytes were split");
            assertTrue(whole.connectionErrors <= 1, "more than one connection error");
            List<String> events = whole.events();
            if (whole.connectionErrors == 1) {
                assertTrue(events.get(events.size() - 1).startsWith("CONNECTION_ERROR"), "events after the connection error");
            }
            assertEquals(good, whole.connectionErrors == 0);
            if (whole.regenerable) {
                byte[] again = whole.regenerated();
                ParserDriver reparsed = new ParserDriver(pool, server);
                reparsed.feed(again, false);
                reparsed.parser.close();
                assertEquals(withoutPadding(events), withoutPadding(reparsed.listener.events()), "the regenerated frames read differently");
            }
            whole.release();
            pool.assertNoLeaks();
        } finally {
            pool.reset();
        }
    }

    /** Feeds {@code bytes} whole to a parser that tells {@code listener}, then closes it. */
    private boolean feed(Regenerating listener, byte[] bytes) {
        FrameParser parser = listener.parser;
        RetainableByteBuffer network = pool.acquire(Math.max(1, bytes.length), false);
        try {
            network.byteBuffer().limit(bytes.length).put(0, bytes, 0, bytes.length);
            boolean good = parser.parse(network);
            assertEquals(0, network.byteBuffer().remaining(), "the parser left bytes");
            return good;
        } finally {
            network.release();
            parser.close();
        }
    }

    /**
     * Feeds {@code bytes} to a parser one byte per call, from one pooled direct buffer whose
     * limit grows a byte at a time (as a connection that reads a byte at a time into the same
     * buffer): the parser sees every split, and the pool tracks one buffer instead of one per byte.
     */
    private void feedByteByByte(FrameParser parser, byte[] bytes) {
        RetainableByteBuffer network = pool.acquire(Math.max(1, bytes.length), true);
        try {
            ByteBuffer buffer = network.byteBuffer();
            buffer.limit(bytes.length).put(0, bytes, 0, bytes.length).limit(0);
            for (int i = 0; i < bytes.length; i++) {
                buffer.limit(i + 1);
                parser.parse(network);
                assertEquals(i + 1, buffer.position(), "the parser left bytes");
            }
        } finally {
            network.release();
            parser.close();
        }
    }

    /** DATA padding does not round-trip exactly: a PADDED frame with no padding octet is sent unpadded. */
    private static List<String> withoutPadding(List<String> events) {
        return events.stream().map(event -> event.startsWith("DATA ") ? event.replaceFirst(" padding \\d+", "") : event).toList();
    }

    /**
     * Records the events as {@link RecordingListener} does and writes each again with a
     * {@link FrameGenerator}, as long as each can be written again: not after an error, a
     * malformed or too-large header block, or an error code HTTP/2 does not define.
     */
    private static final class Regenerating extends RecordingListener {
        final HpackDecoder decoder = new HpackDecoder();
        final FrameParser parser;
        private final FrameGenerator generator = new FrameGenerator(new HpackEncoder());
        private final FrameBuffers out;
        boolean regenerable = true;

        Regenerating(LeakTrackingByteBufferPool pool, boolean server) {
            this.parser = server ? FrameParser.server(this, decoder, pool) : FrameParser.client(this, decoder, pool);
            this.out = new FrameBuffers(pool, false);
            if (server) {
                generator.preface(out);
            }
        }

        byte[] regenerated() {
            return FrameRoundTripTest.bytes(out);
        }

        void release() {
            out.release();
        }

        @Override
        public void onData(int streamId, Content.Chunk data, int padding) {
            ByteBuffer bytes = data.getByteBuffer();
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(bytes.position(), copy);
            boolean last = data.isLast();
            super.onData(streamId, data, padding);
            if (regenerable) {
                generator.data(out, streamId, ByteBuffer.wrap(copy), last, Math.max(0, padding - 1));
            }
        }

        @Override
        public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
            super.onHeaders(streamId, headers, priority, endStream);
            if (writable(headers)) {
                generator.headers(out, streamId, fields(headers), priority, endStream, 0);
            }
        }

        @Override
        public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock headers) {
            super.onPushPromise(streamId, promisedStreamId, headers);
            // Which streams may be promised is the session's rule (it answers 0, odd or old ones with
            // PROTOCOL_ERROR); the generator refuses to send 0 at all.
            regenerable &= promisedStreamId != 0;
            if (writable(headers)) {
                generator.pushPromise(out, streamId, promisedStreamId, fields(headers), 0);
            }
        }

        private boolean writable(HeaderBlock headers) {
            if (headers.tooLarge()) {
                assertTrue(headers.size() > decoder.getMaxHeaderListSize(), "a block marked too large is not");
            } else {
                assertTrue(headers.size() <= decoder.getMaxHeaderListSize(), "kept a list past the limit");
            }
            regenerable &= !headers.tooLarge() && headers.problem() == null;
            return regenerable;
        }

        private static HttpFields fields(HeaderBlock headers) {
            return HttpFields.build().add(headers.pseudoHeaders()).add(headers.fields());
        }

        @Override
        public void onPriority(int streamId, Priority priority) {
            super.onPriority(streamId, priority);
            if (regenerable) {
                generator.priority(out, streamId, priority);
            }
        }

        @Override
        public void onRstStream(int streamId, long errorCode) {
            super.onRstStream(streamId, errorCode);
            ErrorCode error = ErrorCode.from(errorCode);
            regenerable &= error != null;
            if (regenerable) {
                generator.rstStream(out, streamId, error);
            }
        }

        @Override
        public void onSettings(Settings settings, boolean ack) {
            super.onSettings(settings, ack);
            if (regenerable && ack) {
                generator.settingsAck(out);
            } else if (regenerable) {
                generator.settings(out, settings);
            }
        }

        @Override
        public void onPing(long payload, boolean ack) {
            super.onPing(payload, ack);
            if (regenerable) {
                generator.ping(out, payload, ack);
            }
        }

        @Override
        public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
            byte[] debug = new byte[debugData.remaining()];
            debugData.get(debugData.position(), debug);
            super.onGoAway(lastStreamId, errorCode, debugData);
            ErrorCode error = ErrorCode.from(errorCode);
            regenerable &= error != null;
            if (regenerable) {
                generator.goAway(out, lastStreamId, error, new String(debug, StandardCharsets.UTF_8));
            }
        }

        @Override
        public void onWindowUpdate(int streamId, int increment) {
            super.onWindowUpdate(streamId, increment);
            if (regenerable) {
                generator.windowUpdate(out, streamId, increment);
            }
        }

        @Override
        public void onStreamError(int streamId, ErrorCode error, String reason) {
            super.onStreamError(streamId, error, reason);
            regenerable = false;
        }

        @Override
        public void onConnectionError(ErrorCode error, String reason) {
            super.onConnectionError(error, reason);
            regenerable = false;
        }
    }
}
