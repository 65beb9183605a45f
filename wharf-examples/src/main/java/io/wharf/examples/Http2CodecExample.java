package io.wharf.examples;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameBuffers;
import io.wharf.http2.frames.FrameGenerator;
import io.wharf.http2.frames.FrameListener;
import io.wharf.http2.frames.FrameParser;
import io.wharf.http2.frames.Priority;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.http2.hpack.NeverIndexedHttpField;
import io.wharf.io.Content;
import io.wharf.util.buffer.BucketedByteBufferPool;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The HTTP/2 codecs on their own: a request's header block encoded with HPACK and decoded
 * back twice (the second time from the dynamic table), then the same request framed by a
 * client's {@link FrameGenerator} and read by a server's {@link FrameParser}.
 */
public final class Http2CodecExample {

    private Http2CodecExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, printing what it finds to {@code out}. */
    public static void run(PrintStream out) {
        HttpFields request = HttpFields.build()
            .add(":method", "GET").add(":scheme", "https").add(":authority", "example.com").add(":path", "/")
            .add("user-agent", "wharf-example/1.0")
            .add("authorization", "Bearer s3cr3t");

        // HPACK: one encoder and one decoder, as on the two ends of a connection.
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder decoder = new HpackDecoder();
        for (int round = 1; round <= 2; round++) {
            ByteBuffer block = ByteBuffer.allocate(encoder.maxEncodedLength(request));
            encoder.encode(request, block);
            block.flip();
            int octets = block.remaining();
            HeaderBlock decoded = decoder.decode(block);
            out.println("block " + round + ": " + octets + " octets, " + decoded.pseudoHeader(":method") + " "
                + decoded.pseudoHeader(":path") + ", table " + decoder.getTableSize() + " octets");
            for (HttpField field : decoded.fields()) {
                out.println("  " + field + (field instanceof NeverIndexedHttpField ? "  (never indexed)" : ""));
            }
        }

        // Frames: the client writes the preface, SETTINGS, HEADERS and DATA; the server parses them.
        ByteBufferPool pool = new BucketedByteBufferPool();
        FrameGenerator generator = new FrameGenerator(new HpackEncoder());
        FrameBuffers frames = new FrameBuffers(pool, false);
        generator.preface(frames);
        generator.settings(frames, Settings.EMPTY);
        generator.headers(frames, 1, request, null, false, 0);
        generator.data(frames, 1, ByteBuffer.wrap("hello".getBytes(StandardCharsets.US_ASCII)), true, 0);

        RetainableByteBuffer network = pool.acquire((int) frames.remaining(), false);
        for (ByteBuffer bytes : frames.toArray()) {
            ByteBuffer target = network.byteBuffer();
            int end = target.limit();
            target.limit(end + bytes.remaining()).put(end, bytes, bytes.position(), bytes.remaining());
        }
        frames.release();
        FrameParser parser = FrameParser.server(new Printer(out), new HpackDecoder(), pool);
        parser.parse(network);
        network.release();
        parser.close();
    }

    /** Prints the events the example's frames make. */
    private record Printer(PrintStream out) implements FrameListener {
        @Override
        public void onSettings(Settings settings, boolean ack) {
            out.println("SETTINGS " + settings);
        }

        @Override
        public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
            out.println("HEADERS stream " + streamId + ": " + headers.pseudoHeaders().size() + " pseudo-headers, "
                + headers.fields().size() + " fields");
        }

        @Override
        public void onData(int streamId, Content.Chunk data, int padding) {
            out.println("DATA stream " + streamId + ": " + StandardCharsets.US_ASCII.decode(data.getByteBuffer())
                + (data.isLast() ? " (end of stream)" : ""));
            data.release();
        }

        @Override
        public void onPriority(int streamId, Priority priority) {
        }

        @Override
        public void onRstStream(int streamId, long errorCode) {
        }

        @Override
        public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock headers) {
        }

        @Override
        public void onPing(long payload, boolean ack) {
        }

        @Override
        public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
        }

        @Override
        public void onWindowUpdate(int streamId, int increment) {
        }

        @Override
        public void onStreamError(int streamId, ErrorCode error, String reason) {
            out.println("stream error " + error + ": " + reason);
        }

        @Override
        public void onConnectionError(ErrorCode error, String reason) {
            out.println("connection error " + error + ": " + reason);
        }
    }
}
