package io.wharf.websocket.server;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.FrameGenerator;
import io.wharf.websocket.core.FrameParser;
import io.wharf.websocket.core.HandshakeKey;
import io.wharf.websocket.core.OpCode;

/**
 * A blocking WebSocket client on a plain socket, for tests only: it writes the handshake and
 * frames (masked, as a client must) with the core's generator, raw bytes when a test needs a
 * frame the generator refuses, and reads the server's frames with the core's parser.
 */
final class RawWebSocketClient implements AutoCloseable {

    final Socket socket;
    final OutputStream out;
    final InputStream in;
    private final FrameGenerator generator = new FrameGenerator(true);
    private final FrameParser parser = new FrameParser(false, Integer.MAX_VALUE - 16);
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).limit(0);
    /** The status line and fields of the handshake's response. */
    String responseHead;

    RawWebSocketClient(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    /** @return a client that completed the handshake on {@code path} */
    static RawWebSocketClient open(int port, String path) throws IOException {
        return open(port, path, "");
    }

    /**
     * @param fields more request fields, each line ending with CRLF; frames with reserved bits
     *     set are then read as they come (the test checks what an extension made of them)
     * @return a client that completed the handshake on {@code path}
     */
    static RawWebSocketClient open(int port, String path, String fields) throws IOException {
        RawWebSocketClient client = new RawWebSocketClient(port);
        if (!fields.isEmpty()) {
            client.parser.setAllowedRsv(0b100);
        }
        String key = HandshakeKey.newKey();
        String head = client.request("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n" + fields + "\r\n");
        if (!head.startsWith("HTTP/1.1 101 ") || !head.contains("Sec-WebSocket-Accept: " + HandshakeKey.accept(key) + "\r\n")) {
            client.close();
            throw new IOException("handshake failed: " + head);
        }
        return client;
    }

    /** Writes {@code request} and reads the response head (up to the blank line). */
    String request(String request) throws IOException {
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("response ended in its head: " + head);
            }
            head.append((char) b);
        }
        responseHead = head.toString();
        return responseHead;
    }

    /** @return the body of a response with a Content-Length, read after {@link #request} */
    String body() throws IOException {
        int at = responseHead.toLowerCase().indexOf("content-length: ");
        if (at < 0) {
            return "";
        }
        int length = Integer.parseInt(responseHead.substring(at + 16, responseHead.indexOf('\r', at)).trim());
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    void send(Frame frame) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(FrameGenerator.MAX_HEADER_SIZE);
        ByteBuffer masked = ByteBuffer.allocate(frame.payload().remaining());
        generator.generate(frame, header, masked);
        out.write(header.array(), 0, header.position());
        out.write(masked.array(), 0, masked.position());
        out.flush();
    }

    void sendText(String text) throws IOException {
        send(Frame.of(OpCode.TEXT, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8))));
    }

    void sendClose(int code, String reason) throws IOException {
        send(Frame.of(OpCode.CLOSE, new CloseStatus(code, reason).toPayload()));
    }

    /** Writes bytes as they are, for frames the generator refuses to make. */
    void sendRaw(int... bytes) throws IOException {
        byte[] raw = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            raw[i] = (byte) bytes[i];
        }
        out.write(raw);
        out.flush();
    }

    /** @return the next frame from the server, its payload copied */
    Frame receive() throws IOException {
        while (true) {
            Frame frame = parser.parse(buffer);
            if (frame != null) {
                ByteBuffer copy = ByteBuffer.allocate(frame.payload().remaining()).put(frame.payload()).flip();
                return new Frame(frame.fin(), frame.rsv(), frame.opcode(), copy);
            }
            buffer.clear();
            int read = in.read(buffer.array());
            if (read < 0) {
                throw new EOFException("the server closed the connection");
            }
            buffer.limit(read);
        }
    }

    String receiveText() throws IOException {
        Frame frame = receive();
        if (frame.opcode() != OpCode.TEXT) {
            throw new IOException("expected a text frame, got " + frame + " " + text(frame));
        }
        return text(frame);
    }

    /** @return the status of the next frame, which must be a close frame */
    CloseStatus receiveClose() throws IOException {
        Frame frame = receive();
        if (frame.opcode() != OpCode.CLOSE) {
            throw new IOException("expected a close frame, got " + frame);
        }
        return CloseStatus.parse(frame.payload());
    }

    /** @return whether the server closed the TCP connection (end of input) with no byte left */
    boolean awaitEndOfInput() throws IOException {
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        rest.write(buffer.array(), buffer.position(), buffer.remaining());
        buffer.limit(buffer.position());
        byte[] bytes = new byte[1024];
        int read;
        while ((read = in.read(bytes)) >= 0) {
            rest.write(bytes, 0, read);
        }
        return rest.size() == 0;
    }

    static String text(Frame frame) {
        return StandardCharsets.UTF_8.decode(frame.payload().duplicate()).toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
