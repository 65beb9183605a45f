package io.wharf.server.http2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

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
import io.wharf.io.Content;
import io.wharf.server.LocalConnector;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Test client: writes HTTP/2 frames (and raw bytes) to a local connection and reads the
 * server's frames back as one line of text each, e.g. {@code HEADERS 1 :status=200 END_STREAM},
 * {@code DATA 1 hello END_STREAM}, {@code RST_STREAM 3 PROTOCOL_ERROR},
 * {@code GOAWAY 1 ENHANCE_YOUR_CALM}. One test thread uses it.
 */
final class RawHttp2Client implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** The client connection preface. */
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final LocalConnector.Client client;
    private final HpackEncoder encoder = new HpackEncoder();
    private final FrameGenerator generator = new FrameGenerator(encoder);
    private final FrameBuffers out = new FrameBuffers(ByteBufferPool.NON_POOLING, false);
    private final ArrayDeque<String> frames = new ArrayDeque<>();
    private final FrameParser parser = FrameParser.client(new Recorder(), new HpackDecoder(), ByteBufferPool.NON_POOLING);
    private boolean closed;

    RawHttp2Client(LocalConnector connector) {
        this.client = connector.connect();
    }

    /** Sends the preface and empty SETTINGS, and acknowledges the server's. */
    RawHttp2Client start() throws Exception {
        return start(Settings.EMPTY);
    }

    /** Sends the preface and empty SETTINGS, and acknowledges the server's. @return the server's SETTINGS frame as read */
    String startAndGetSettings() throws Exception {
        start(Settings.EMPTY);
        return history.stream().filter(frame -> frame.startsWith("SETTINGS Settings")).findFirst().orElseThrow();
    }

    /** @return the frames that come before the server is quiet for 200 ms */
    List<String> untilIdle() throws Exception {
        List<String> all = new ArrayList<>();
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < 200_000_000L) {
            String frame = poll();
            if (frame != null) {
                all.add(frame);
                quietSince = System.nanoTime();
            }
        }
        return all;
    }

    /** Sends the preface and {@code settings}, and acknowledges the server's. */
    RawHttp2Client start(Settings settings) throws Exception {
        generator.preface(out);
        generator.settings(out, settings);
        flush();
        await(frame -> frame.startsWith("SETTINGS {") || frame.startsWith("SETTINGS Settings"));
        generator.settingsAck(out);
        flush();
        return this;
    }

    /**
     * Starts by HTTP/1.1 Upgrade: sends {@code request}, reads the response head, then sends the
     * preface and empty SETTINGS; the frames after the head are read as the server's.
     *
     * @return the HTTP/1.1 response head
     */
    String upgrade(String request) throws Exception {
        client.send(request);
        StringBuilder head = new StringBuilder();
        while (true) {
            ByteBuffer bytes = client.readBytes(TIMEOUT);
            if (bytes == null) {
                throw new AssertionError("the server closed after " + head);
            }
            head.append(StandardCharsets.ISO_8859_1.decode(bytes));
            int end = head.indexOf("\r\n\r\n");
            if (end >= 0) {
                byte[] rest = head.substring(end + 4).getBytes(StandardCharsets.ISO_8859_1);
                parser.parse(RetainableByteBuffer.wrap(ByteBuffer.wrap(rest)));
                generator.preface(out);
                generator.settings(out, Settings.EMPTY);
                flush();
                return head.substring(0, end + 4);
            }
        }
    }

    RawHttp2Client settings(Settings settings) throws Exception {
        generator.settings(out, settings);
        return flush();
    }

    /** Applies the server's SETTINGS_HEADER_TABLE_SIZE to our encoder: its next block starts with the size update. */
    RawHttp2Client peerHeaderTableSize(int capacity) {
        encoder.setPeerMaxTableCapacity(capacity);
        return this;
    }

    RawHttp2Client get(int streamId, String path) throws Exception {
        return headers(streamId, request("GET", path), true);
    }

    static HttpFields.Mutable request(String method, String path) {
        return HttpFields.build().add(":method", method).add(":scheme", "http").add(":authority", "localhost").add(":path", path);
    }

    RawHttp2Client headers(int streamId, HttpFields fields, boolean endStream) throws Exception {
        generator.headers(out, streamId, fields, null, endStream, 0);
        return flush();
    }

    /**
     * Sends HEADERS with END_STREAM whose block is {@code fields} encoded, then a literal field
     * exactly as given, which the encoder would have made lower case: for names HTTP/2 forbids.
     */
    RawHttp2Client headersWithLiteral(int streamId, HttpFields fields, String name, String value) throws Exception {
        ByteBuffer block = ByteBuffer.allocate(encoder.maxEncodedLength(fields) + name.length() + value.length() + 4);
        encoder.encode(fields, block);
        block.put((byte) 0).put((byte) name.length()).put(name.getBytes(StandardCharsets.ISO_8859_1));
        block.put((byte) value.length()).put(value.getBytes(StandardCharsets.ISO_8859_1));
        block.flip();
        ByteBuffer frame = ByteBuffer.allocate(9 + block.remaining());
        int length = block.remaining();
        frame.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length).put((byte) 0x1).put((byte) 0x5).putInt(streamId);
        frame.put(block).flip();
        client.send(frame);
        return this;
    }

    RawHttp2Client data(int streamId, String text, boolean endStream) throws Exception {
        generator.data(out, streamId, ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1)), endStream, 0);
        return flush();
    }

    RawHttp2Client rst(int streamId, ErrorCode error) throws Exception {
        generator.rstStream(out, streamId, error);
        return flush();
    }

    RawHttp2Client ping(long payload) throws Exception {
        generator.ping(out, payload, false);
        return flush();
    }

    RawHttp2Client priority(int streamId) throws Exception {
        generator.priority(out, streamId, new Priority(0, false, 16));
        return flush();
    }

    RawHttp2Client windowUpdate(int streamId, int increment) throws Exception {
        generator.windowUpdate(out, streamId, increment);
        return flush();
    }

    /** Sends raw bytes: a frame of a type the generator does not make, or garbage. */
    RawHttp2Client raw(byte... bytes) throws Exception {
        client.send(ByteBuffer.wrap(bytes));
        return this;
    }

    /** @return a frame header and {@code length} zero octets: type, flags and stream as given */
    static byte[] frame(int type, int flags, int streamId, int length) {
        ByteBuffer frame = ByteBuffer.allocate(9 + length);
        frame.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length).put((byte) type).put((byte) flags).putInt(streamId);
        return frame.array();
    }

    private RawHttp2Client flush() throws Exception {
        for (ByteBuffer buffer : out.toArray()) {
            client.send(buffer);
        }
        out.release();
        return this;
    }

    /** @return the next frame that matches, skipping the others; fails when the server closes first */
    String await(Predicate<String> wanted) throws Exception {
        while (true) {
            String frame = next();
            if (frame == null) {
                throw new AssertionError("the server closed before a wanted frame came; frames so far: " + history);
            }
            if (wanted.test(frame)) {
                return frame;
            }
        }
    }

    /** @return the next frame starting with {@code prefix} */
    String await(String prefix) throws Exception {
        return await(frame -> frame.startsWith(prefix));
    }

    /** @return every frame until the server closed */
    List<String> untilClosed() throws Exception {
        List<String> all = new ArrayList<>();
        for (String frame = next(); frame != null; frame = next()) {
            all.add(frame);
        }
        return all;
    }

    /** @return the next frame, or null once the server closed */
    String next() throws Exception {
        while (frames.isEmpty()) {
            if (closed) {
                return null;
            }
            ByteBuffer bytes;
            try {
                bytes = client.readBytes(TIMEOUT);
            } catch (TimeoutException x) {
                throw new AssertionError("no frame from the server in " + TIMEOUT + "; frames so far: " + history, x);
            }
            if (bytes == null) {
                closed = true;
                return null;
            }
            parser.parse(RetainableByteBuffer.wrap(bytes));
        }
        String frame = frames.poll();
        history.add(frame);
        return frame;
    }

    /** @return the next frame if one came within a millisecond, else null (also once the server closed) */
    String poll() throws Exception {
        if (frames.isEmpty() && !closed) {
            ByteBuffer bytes;
            try {
                bytes = client.readBytes(Duration.ofMillis(1));
            } catch (TimeoutException x) {
                return null;
            }
            if (bytes == null) {
                closed = true;
            } else {
                parser.parse(RetainableByteBuffer.wrap(bytes));
            }
        }
        String frame = frames.poll();
        if (frame != null) {
            history.add(frame);
        }
        return frame;
    }

    /** Every frame read, for failure messages. */
    private final List<String> history = new ArrayList<>();

    boolean isServerClosed() {
        return client.isServerClosed();
    }

    @Override
    public void close() {
        client.close();
        parser.close();
    }

    private static String fields(HeaderBlock block) {
        StringBuilder text = new StringBuilder();
        for (HttpField field : block.pseudoHeaders()) {
            text.append(text.isEmpty() ? "" : " ").append(field.getName()).append('=').append(field.getValue());
        }
        for (HttpField field : block.fields()) {
            text.append(text.isEmpty() ? "" : " ").append(field.getName()).append('=').append(field.getValue());
        }
        return text.toString();
    }

    private static String error(long code) {
        ErrorCode error = ErrorCode.from(code);
        return error != null ? error.toString() : Long.toString(code);
    }

    /** Turns each frame into its line. */
    private final class Recorder implements FrameListener {
        @Override
        public void onData(int streamId, Content.Chunk data, int padding) {
            ByteBuffer bytes = data.getByteBuffer();
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(bytes.position(), copy);
            data.release();
            frames.add("DATA " + streamId + " " + new String(copy, StandardCharsets.ISO_8859_1) + (data.isLast() ? " END_STREAM" : ""));
        }

        @Override
        public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
            frames.add("HEADERS " + streamId + " " + fields(headers) + (endStream ? " END_STREAM" : ""));
        }

        @Override
        public void onPriority(int streamId, Priority priority) {
            frames.add("PRIORITY " + streamId);
        }

        @Override
        public void onRstStream(int streamId, long errorCode) {
            frames.add("RST_STREAM " + streamId + " " + error(errorCode));
        }

        @Override
        public void onSettings(Settings settings, boolean ack) {
            frames.add(ack ? "SETTINGS ACK" : "SETTINGS " + settings);
        }

        @Override
        public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock headers) {
            frames.add("PUSH_PROMISE " + streamId + " " + promisedStreamId + " " + fields(headers));
        }

        @Override
        public void onPing(long payload, boolean ack) {
            frames.add("PING " + payload + (ack ? " ACK" : ""));
        }

        @Override
        public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
            frames.add("GOAWAY " + lastStreamId + " " + error(errorCode) + " " + StandardCharsets.UTF_8.decode(debugData.duplicate()));
        }

        @Override
        public void onWindowUpdate(int streamId, int increment) {
            frames.add("WINDOW_UPDATE " + streamId + " " + increment);
        }

        @Override
        public void onStreamError(int streamId, ErrorCode error, String reason) {
            frames.add("CLIENT STREAM ERROR " + streamId + " " + error + " " + reason);
        }

        @Override
        public void onConnectionError(ErrorCode error, String reason) {
            frames.add("CLIENT CONNECTION ERROR " + error + " " + reason);
        }
    }
}
