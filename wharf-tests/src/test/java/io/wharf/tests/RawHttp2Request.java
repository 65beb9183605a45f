package io.wharf.tests;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

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
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Sends one HTTP/2 request exactly as given — pseudo-headers no client library lets through,
 * such as a CONNECT without {@code :protocol} — on a connected socket (h2c by prior knowledge,
 * or a TLS socket that agreed on h2 by ALPN) and returns the response's HEADERS as one line,
 * {@code :status=405 allow=... END_STREAM}, or the {@code RST_STREAM}/{@code GOAWAY} that came
 * instead. For tests only; one thread, one request, the socket is the caller's to close.
 */
final class RawHttp2Request {

    private RawHttp2Request() {
    }

    /** @return the response head to {@code fields}, sent on stream 1 with END_STREAM */
    static String send(Socket socket, HttpFields fields) throws IOException {
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        FrameGenerator generator = new FrameGenerator(new HpackEncoder());
        FrameBuffers frames = new FrameBuffers(ByteBufferPool.NON_POOLING, false);
        generator.preface(frames);
        generator.settings(frames, Settings.EMPTY);
        generator.settingsAck(frames);
        generator.headers(frames, 1, fields, null, true, 0);
        for (ByteBuffer buffer : frames.toArray()) {
            out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
        }
        frames.release();
        out.flush();
        List<String> answers = new ArrayList<>();
        FrameParser parser = FrameParser.client(new Recorder(answers), new HpackDecoder(), ByteBufferPool.NON_POOLING);
        try {
            byte[] bytes = new byte[16 * 1024];
            while (answers.isEmpty()) {
                int read;
                try {
                    read = in.read(bytes);
                } catch (SocketTimeoutException x) {
                    throw new AssertionError("no answer on stream 1 in 10 s", x);
                }
                if (read < 0) {
                    throw new AssertionError("the server closed without answering stream 1");
                }
                parser.parse(RetainableByteBuffer.wrap(ByteBuffer.wrap(bytes, 0, read)));
            }
        } finally {
            parser.close();
        }
        return answers.get(0);
    }

    /** Keeps the frames that answer stream 1 (or end the connection) as lines. */
    private record Recorder(List<String> answers) implements FrameListener {

        @Override
        public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
            if (streamId == 1) {
                StringBuilder line = new StringBuilder();
                for (HttpField field : headers.pseudoHeaders()) {
                    line.append(line.isEmpty() ? "" : " ").append(field.getName()).append('=').append(field.getValue());
                }
                for (HttpField field : headers.fields()) {
                    line.append(' ').append(field.getName()).append('=').append(field.getValue());
                }
                answers.add(line + (endStream ? " END_STREAM" : ""));
            }
        }

        @Override
        public void onRstStream(int streamId, long errorCode) {
            answers.add("RST_STREAM " + streamId + " " + ErrorCode.from(errorCode));
        }

        @Override
        public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
            answers.add("GOAWAY " + lastStreamId + " " + ErrorCode.from(errorCode));
        }

        @Override
        public void onStreamError(int streamId, ErrorCode error, String reason) {
            answers.add("bad frame on stream " + streamId + ": " + reason);
        }

        @Override
        public void onConnectionError(ErrorCode error, String reason) {
            answers.add("bad frames: " + reason);
        }

        @Override
        public void onData(int streamId, Content.Chunk data, int padding) {
            data.release();
        }

        @Override
        public void onPriority(int streamId, Priority priority) {
        }

        @Override
        public void onSettings(Settings settings, boolean ack) {
        }

        @Override
        public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock headers) {
        }

        @Override
        public void onPing(long payload, boolean ack) {
        }

        @Override
        public void onWindowUpdate(int streamId, int increment) {
        }
    }
}
