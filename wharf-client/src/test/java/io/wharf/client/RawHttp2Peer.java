package io.wharf.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameBuffers;
import io.wharf.http2.frames.FrameGenerator;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * Test fixture: the server side of an HTTP/2 connection played by hand on a
 * {@link ScriptedServer.Peer}, for what Wharf's server would not do on cue (GOAWAY below a
 * request, a stream reset). Reads the client's frames whole, without decoding their headers;
 * writes frames with Wharf's generator. One script thread uses it.
 */
final class RawHttp2Peer {

    /** A frame as read: its type, flags, stream and payload. */
    record Frame(int type, int flags, int streamId, byte[] payload) {
        static final int DATA = 0;
        static final int HEADERS = 1;
        static final int RST_STREAM = 3;

        boolean endStream() {
            return (flags & 0x1) != 0 && (type == DATA || type == HEADERS);
        }
    }

    private final ScriptedServer.Peer peer;
    private final FrameGenerator generator = new FrameGenerator(new HpackEncoder());
    /** The client's RST_STREAM frames {@link #awaitHeaders} passed, as {@code "RST_STREAM <stream> <code>"}. */
    private final java.util.List<String> resets = new java.util.concurrent.CopyOnWriteArrayList<>();

    RawHttp2Peer(ScriptedServer.Peer peer) {
        this.peer = peer;
    }

    /** Reads the client's preface and writes empty SETTINGS. */
    RawHttp2Peer start() throws IOException {
        byte[] preface = peer.readBytes(24);
        if (!new String(preface, StandardCharsets.ISO_8859_1).startsWith("PRI * HTTP/2.0")) {
            throw new IOException("not an HTTP/2 preface");
        }
        write(out -> generator.settings(out, Settings.EMPTY));
        return this;
    }

    /** @return the next frame, or null at the end of input */
    Frame next() throws IOException {
        byte[] head = peer.readBytes(9);
        if (head.length < 9) {
            return null;
        }
        int length = (head[0] & 0xFF) << 16 | (head[1] & 0xFF) << 8 | head[2] & 0xFF;
        int streamId = ByteBuffer.wrap(head, 5, 4).getInt() & 0x7FFF_FFFF;
        return new Frame(head[3] & 0xFF, head[4] & 0xFF, streamId, peer.readBytes(length));
    }

    /** @return the next HEADERS frame, answering SETTINGS on the way; null at the end of input */
    Frame awaitHeaders() throws IOException {
        while (true) {
            Frame frame = next();
            if (frame == null || frame.type() == Frame.HEADERS) {
                return frame;
            }
            if (frame.type() == 4 && (frame.flags() & 0x1) == 0) {
                write(generator::settingsAck);
            }
            if (frame.type() == Frame.RST_STREAM) {
                long code = ByteBuffer.wrap(frame.payload()).getInt() & 0xFFFF_FFFFL;
                resets.add("RST_STREAM " + frame.streamId() + " " + ErrorCode.describe(code));
            }
        }
    }

    /** @return the client's RST_STREAM frames read so far by {@link #awaitHeaders}; any thread */
    java.util.List<String> resets() {
        return resets;
    }

    /**
     * @return the frames the client sends within {@code millis} (SETTINGS answered on the way),
     *     up to the end of input
     */
    java.util.List<Frame> framesWithin(int millis) throws IOException {
        java.util.List<Frame> frames = new java.util.ArrayList<>();
        long end = System.nanoTime() + millis * 1_000_000L;
        try {
            for (long left = millis; left > 0; left = (end - System.nanoTime()) / 1_000_000L) {
                peer.readTimeout((int) Math.max(1, left));
                Frame frame = next();
                if (frame == null) {
                    break;
                }
                if (frame.type() == 4 && (frame.flags() & 0x1) == 0) {
                    write(generator::settingsAck);
                }
                frames.add(frame);
            }
        } catch (java.net.SocketTimeoutException quiet) {
            // Nothing more within the time.
        } finally {
            peer.readTimeout(0);
        }
        return frames;
    }

    /** Writes a header block with just {@code status} on {@code streamId}: an interim one, or a final one that ends the stream. */
    void status(int streamId, int status, boolean endStream) throws IOException {
        HttpFields.Mutable fields = HttpFields.build().add(":status", Integer.toString(status));
        write(out -> generator.headers(out, streamId, fields, null, endStream, 0));
    }

    void goAway(int lastStreamId, ErrorCode error) throws IOException {
        write(out -> generator.goAway(out, lastStreamId, error, "test"));
    }

    void reset(int streamId, ErrorCode error) throws IOException {
        write(out -> generator.rstStream(out, streamId, error));
    }

    /** Answers {@code streamId} with {@code status} and {@code body} in one DATA frame. */
    void respond(int streamId, int status, String body) throws IOException {
        HttpFields.Mutable fields = HttpFields.build().add(":status", Integer.toString(status));
        write(out -> {
            generator.headers(out, streamId, fields, null, false, 0);
            generator.data(out, streamId, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), true, 0);
        });
    }

    /**
     * Writes a frame of {@code type} (HEADERS with END_HEADERS, or DATA) with {@code payload} as
     * given: for header blocks Wharf's encoder would not make (it repairs what HTTP/2 forbids).
     */
    void raw(int type, int streamId, byte[] payload, boolean endStream) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
        int flags = (endStream ? 0x1 : 0) | (type == Frame.HEADERS ? 0x4 : 0);
        frame.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                .put((byte) type).put((byte) flags).putInt(streamId).put(payload);
        peer.write(frame.array());
    }

    private void write(java.util.function.Consumer<FrameBuffers> frames) throws IOException {
        FrameBuffers out = new FrameBuffers(ByteBufferPool.NON_POOLING, false);
        frames.accept(out);
        for (ByteBuffer buffer : out.toArray()) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            peer.write(bytes);
        }
        out.release();
    }
}
