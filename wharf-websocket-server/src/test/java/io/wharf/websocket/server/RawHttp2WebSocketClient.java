package io.wharf.websocket.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameBuffers;
import io.wharf.http2.frames.FrameListener;
import io.wharf.http2.frames.Priority;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.io.Content;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.FrameGenerator;
import io.wharf.websocket.core.FrameParser;
import io.wharf.websocket.core.OpCode;

/**
 * A blocking HTTP/2 client on a plain socket (h2c, prior knowledge) for tests only: it writes
 * frames with wharf-http2's generator and reads the server's as one line each, for example
 * {@code HEADERS 1 :status=200}, {@code RST_STREAM 3 PROTOCOL_ERROR}, {@code DATA 5 hello END_STREAM}.
 * On the streams it opened as WebSockets ({@link #connect}) the DATA is read as WebSocket
 * frames instead: {@code WS 1 TEXT hello}, {@code WS 1 CLOSE 1000}, and {@code END 1} for
 * the END_STREAM. It credits every DATA frame back at once. One test thread uses it.
 */
final class RawHttp2WebSocketClient implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final io.wharf.http2.frames.FrameGenerator generator = new io.wharf.http2.frames.FrameGenerator(new HpackEncoder());
    private final FrameBuffers frames = new FrameBuffers(ByteBufferPool.NON_POOLING, false);
    private final io.wharf.http2.frames.FrameParser parser =
            io.wharf.http2.frames.FrameParser.client(new Recorder(), new HpackDecoder(), ByteBufferPool.NON_POOLING);
    private final FrameGenerator webSocketGenerator = new FrameGenerator(true);
    /** The WebSocket streams, each with its parser and the bytes not yet parsed. */
    private final Map<Integer, ByteBuffer> webSocketBytes = new HashMap<>();
    private final Map<Integer, FrameParser> webSocketParsers = new HashMap<>();
    private final ArrayDeque<String> lines = new ArrayDeque<>();
    /** Lines of other streams met while awaiting one stream's, in order. */
    private final List<String> deferred = new ArrayList<>();
    private final List<String> history = new ArrayList<>();
    private final List<Runnable> credits = new ArrayList<>();
    private boolean closed;

    RawHttp2WebSocketClient(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** Sends the preface and empty SETTINGS, and acknowledges the server's. @return the server's SETTINGS line */
    String start() throws IOException {
        generator.preface(frames);
        generator.settings(frames, Settings.EMPTY);
        flush();
        String settings = await("SETTINGS Settings");
        generator.settingsAck(frames);
        flush();
        return settings;
    }

    /** @return the fields of an extended CONNECT of {@code :protocol websocket} to {@code path} */
    static HttpFields.Mutable extendedConnect(String path) {
        return HttpFields.build().add(":method", "CONNECT").add(":protocol", "websocket").add(":scheme", "http")
                .add(":authority", "localhost").add(":path", path).add("sec-websocket-version", "13");
    }

    /** Opens stream {@code streamId} with {@code fields}, its DATA read as WebSocket frames. */
    RawHttp2WebSocketClient connect(int streamId, HttpFields fields) throws IOException {
        webSocketBytes.put(streamId, ByteBuffer.allocate(4 * 1024 * 1024).limit(0));
        webSocketParsers.put(streamId, new FrameParser(false, 4 * 1024 * 1024));
        return headers(streamId, fields, false);
    }

    RawHttp2WebSocketClient headers(int streamId, HttpFields fields, boolean endStream) throws IOException {
        generator.headers(frames, streamId, fields, null, endStream, 0);
        return flush();
    }

    RawHttp2WebSocketClient get(int streamId, String path) throws IOException {
        return headers(streamId, HttpFields.build().add(":method", "GET").add(":scheme", "http").add(":authority", "localhost")
                .add(":path", path), true);
    }

    /** Sends a WebSocket frame (masked) in a DATA frame of {@code streamId}. */
    RawHttp2WebSocketClient send(int streamId, Frame frame) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(FrameGenerator.MAX_HEADER_SIZE);
        ByteBuffer masked = ByteBuffer.allocate(frame.payload().remaining());
        webSocketGenerator.generate(frame, header, masked);
        ByteBuffer bytes = ByteBuffer.allocate(header.position() + masked.position());
        bytes.put(header.flip()).put(masked.flip()).flip();
        generator.data(frames, streamId, bytes, false, 0);
        return flush();
    }

    RawHttp2WebSocketClient sendText(int streamId, String text) throws IOException {
        return send(streamId, Frame.of(OpCode.TEXT, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8))));
    }

    RawHttp2WebSocketClient sendClose(int streamId, int code, String reason) throws IOException {
        return send(streamId, Frame.of(OpCode.CLOSE, new CloseStatus(code, reason).toPayload()));
    }

    /** Sends an empty DATA frame with END_STREAM. */
    RawHttp2WebSocketClient endStream(int streamId) throws IOException {
        generator.data(frames, streamId, ByteBuffer.allocate(0), true, 0);
        return flush();
    }

    RawHttp2WebSocketClient reset(int streamId, ErrorCode error) throws IOException {
        generator.rstStream(frames, streamId, error);
        return flush();
    }

    private RawHttp2WebSocketClient flush() throws IOException {
        for (ByteBuffer buffer : frames.toArray()) {
            out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
        }
        frames.release();
        out.flush();
        return this;
    }

    /**
     * @return the next line that starts with {@code prefix} (such as {@code "WS 3"}), skipping
     *     the other lines of its stream; lines of other streams that come meanwhile are kept for
     *     their own awaits, since streams answer in any order. Fails when the server closes first.
     */
    String await(String prefix) throws IOException {
        for (int i = 0; i < deferred.size(); i++) {
            if (deferred.get(i).startsWith(prefix)) {
                return deferred.remove(i);
            }
        }
        String stream = streamOf(prefix);
        while (true) {
            String line = next();
            if (line == null) {
                throw new AssertionError("the server closed before a wanted frame came; frames so far: " + history);
            }
            if (line.startsWith(prefix)) {
                return line;
            }
            if (stream != null && !stream.equals(streamOf(line))) {
                deferred.add(line);
            }
        }
    }

    /** @return the stream number a line or prefix names after its first word, or null */
    private static String streamOf(String text) {
        String[] words = text.split(" ", 3);
        return words.length > 1 && !words[1].isEmpty() && words[1].chars().allMatch(Character::isDigit) ? words[1] : null;
    }

    String await(Predicate<String> wanted) throws IOException {
        while (true) {
            String line = next();
            if (line == null) {
                throw new AssertionError("the server closed before a wanted frame came; frames so far: " + history);
            }
            if (wanted.test(line)) {
                return line;
            }
        }
    }

    /** @return the next line, or null once the server closed */
    String next() throws IOException {
        while (lines.isEmpty()) {
            if (closed) {
                return null;
            }
            byte[] bytes = new byte[16 * 1024];
            int read;
            try {
                read = in.read(bytes);
            } catch (SocketTimeoutException x) {
                throw new AssertionError("nothing from the server in 10 s; frames so far: " + history, x);
            }
            if (read < 0) {
                closed = true;
                return null;
            }
            parser.parse(RetainableByteBuffer.wrap(ByteBuffer.wrap(bytes, 0, read)));
            for (Runnable credit : credits) {
                credit.run();
            }
            credits.clear();
            flush();
        }
        String line = lines.poll();
        history.add(line);
        return line;
    }

    /** @return every line read so far */
    List<String> history() {
        return history;
    }

    @Override
    public void close() throws IOException {
        socket.close();
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

    /** Parses what arrived on a WebSocket stream into frame lines. */
    private void webSocketData(int streamId, ByteBuffer data) {
        ByteBuffer pending = webSocketBytes.get(streamId);
        pending.compact().put(data).flip();
        FrameParser frameParser = webSocketParsers.get(streamId);
        Frame frame;
        try {
            while ((frame = frameParser.parse(pending)) != null) {
                ByteBuffer payload = frame.payload();
                String text = switch (frame.opcode()) {
                    case OpCode.TEXT -> "TEXT " + StandardCharsets.UTF_8.decode(payload);
                    case OpCode.CLOSE -> "CLOSE " + CloseStatus.parse(payload).code();
                    default -> "OPCODE" + frame.opcode() + " " + payload.remaining();
                };
                lines.add("WS " + streamId + " " + text);
            }
        } catch (io.wharf.websocket.core.ProtocolException x) {
            lines.add("WS " + streamId + " BAD " + x.getMessage());
        }
    }

    /** Turns each frame into its line. */
    private final class Recorder implements FrameListener {
        @Override
        public void onData(int streamId, Content.Chunk data, int padding) {
            ByteBuffer bytes = data.getByteBuffer();
            int length = bytes.remaining();
            if (webSocketBytes.containsKey(streamId)) {
                webSocketData(streamId, bytes);
                if (data.isLast()) {
                    lines.add("END " + streamId);
                }
            } else {
                byte[] copy = new byte[length];
                bytes.get(copy);
                lines.add("DATA " + streamId + " " + new String(copy, StandardCharsets.UTF_8) + (data.isLast() ? " END_STREAM" : ""));
            }
            data.release();
            if (length > 0) {
                credits.add(() -> {
                    generator.windowUpdate(frames, 0, length);
                    generator.windowUpdate(frames, streamId, length);
                });
            }
        }

        @Override
        public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
            lines.add("HEADERS " + streamId + " " + fields(headers) + (endStream ? " END_STREAM" : ""));
        }

        @Override
        public void onPriority(int streamId, Priority priority) {
        }

        @Override
        public void onRstStream(int streamId, long errorCode) {
            lines.add("RST_STREAM " + streamId + " " + error(errorCode));
        }

        @Override
        public void onSettings(Settings settings, boolean ack) {
            lines.add(ack ? "SETTINGS ACK" : "SETTINGS " + settings);
        }

        @Override
        public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock headers) {
        }

        @Override
        public void onPing(long payload, boolean ack) {
        }

        @Override
        public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
            lines.add("GOAWAY " + lastStreamId + " " + error(errorCode));
        }

        @Override
        public void onWindowUpdate(int streamId, int increment) {
        }

        @Override
        public void onStreamError(int streamId, ErrorCode error, String reason) {
            lines.add("STREAM_ERROR " + streamId + " " + error);
        }

        @Override
        public void onConnectionError(ErrorCode error, String reason) {
            lines.add("CONNECTION_ERROR " + error + " " + reason);
        }
    }
}
