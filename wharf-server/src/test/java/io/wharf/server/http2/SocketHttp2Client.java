package io.wharf.server.http2;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.FrameBuffers;
import io.wharf.http2.frames.FrameGenerator;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * Test client over a real loopback socket, for the cases that need TCP back-pressure: a
 * receive buffer set small before connecting, frames written with the generator, and frames
 * read back raw (type, flags, stream, payload) only when the test decides to read. Header
 * blocks are not decoded. It also runs over a socket the test connected itself (a TLS socket
 * that negotiated h2, for one). One test thread uses it.
 */
public final class SocketHttp2Client implements AutoCloseable {

    /** One frame as read: its payload undecoded. */
    public record Frame(int type, int flags, int streamId, byte[] payload) {
        public static final int DATA = 0x0;
        public static final int SETTINGS = 0x4;
        public static final int PING = 0x6;
        public static final int GOAWAY = 0x7;

        public boolean isAck() {
            return (flags & 0x1) != 0;
        }

        /** @return whether a DATA or HEADERS frame ends its stream (the same bit as ACK) */
        public boolean isEndStream() {
            return (flags & 0x1) != 0;
        }

        /** @return a GOAWAY's error code */
        public long errorCode() {
            return ByteBuffer.wrap(payload, 4, 4).getInt() & 0xFFFF_FFFFL;
        }

        /** @return a GOAWAY's debug data */
        public String debug() {
            return new String(payload, 8, payload.length - 8, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final OutputStream output;
    private final DataInputStream input;
    private final FrameGenerator generator = new FrameGenerator(new HpackEncoder());
    private final FrameBuffers out = new FrameBuffers(ByteBufferPool.NON_POOLING, false);

    /** Connects with a receive buffer of {@code receiveBuffer} bytes, set before connecting so the TCP window stays small. */
    SocketHttp2Client(int port, int receiveBuffer) throws IOException {
        this(connect(port, receiveBuffer));
    }

    /** Speaks over {@code socket}, already connected (and, for TLS, with h2 agreed by ALPN). */
    public SocketHttp2Client(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(10_000);
        output = socket.getOutputStream();
        input = new DataInputStream(socket.getInputStream());
    }

    private static Socket connect(int port, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(receiveBuffer);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        return socket;
    }

    /** Sends the preface and {@code settings}; does not acknowledge the server's. */
    public SocketHttp2Client start(Settings settings) throws IOException {
        generator.preface(out);
        generator.settings(out, settings);
        generator.settingsAck(out);
        return flush();
    }

    public SocketHttp2Client windowUpdate(int streamId, int increment) throws IOException {
        generator.windowUpdate(out, streamId, increment);
        return flush();
    }

    public SocketHttp2Client get(int streamId, String path) throws IOException {
        HttpFields fields = RawHttp2Client.request("GET", path);
        generator.headers(out, streamId, fields, null, true, 0);
        return flush();
    }

    SocketHttp2Client settings(Settings settings) throws IOException {
        generator.settings(out, settings);
        return flush();
    }

    SocketHttp2Client ping(long payload) throws IOException {
        generator.ping(out, payload, false);
        return flush();
    }

    private SocketHttp2Client flush() throws IOException {
        for (ByteBuffer buffer : out.toArray()) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            output.write(bytes);
        }
        out.release();
        output.flush();
        return this;
    }

    /** @return the next frame, or null when the server closed (or reset) the connection */
    public Frame readFrame() throws IOException {
        byte[] header = new byte[9];
        try {
            input.readFully(header);
            int length = (header[0] & 0xFF) << 16 | (header[1] & 0xFF) << 8 | header[2] & 0xFF;
            byte[] payload = new byte[length];
            input.readFully(payload);
            int stream = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7FFF_FFFF;
            return new Frame(header[3] & 0xFF, header[4] & 0xFF, stream, payload);
        } catch (EOFException | java.net.SocketException closed) {
            return null;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
