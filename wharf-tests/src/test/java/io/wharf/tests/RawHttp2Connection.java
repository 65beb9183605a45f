package io.wharf.tests;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.hpack.HpackDecoder;

/**
 * Test client: one HTTP/2 connection on a connected socket (h2c by prior knowledge, or a TLS
 * socket that agreed on h2 by ALPN), written and read by the test thread: frames out raw, so
 * a test can send what no client library lets through (octets HTTP/2 forbids, pseudo-headers
 * out of place), frames in whole, the server's header blocks decoded (its HPACK table kept in
 * step). {@link #close()} closes the socket.
 */
final class RawHttp2Connection implements AutoCloseable {

    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    private static final int RST_STREAM = 0x3;
    private static final int SETTINGS = 0x4;
    private static final int GOAWAY = 0x7;
    private static final int END_STREAM = 0x1;
    private static final int END_HEADERS = 0x4;

    /** A frame to send: HEADERS (a header block, with END_HEADERS) or DATA, with its payload as it goes. */
    record Frame(int type, byte[] payload, boolean endStream) {
    }

    private final Socket socket;
    private final OutputStream output;
    private final DataInputStream input;
    private final HpackDecoder decoder = new HpackDecoder();
    private final List<String> seen = new ArrayList<>();

    RawHttp2Connection(Socket socket) throws IOException {
        this.socket = socket;
        this.output = socket.getOutputStream();
        this.input = new DataInputStream(socket.getInputStream());
    }

    /** Writes the preface and empty SETTINGS, and acknowledges the server's SETTINGS. */
    RawHttp2Connection start() throws IOException {
        output.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        write(SETTINGS, 0, 0, new byte[0]);
        while (true) {
            byte[] header = readHeader();
            byte[] payload = input.readNBytes(length(header));
            if (header[3] == SETTINGS && (header[4] & 0x1) == 0) {
                write(SETTINGS, 0x1, 0, new byte[0]);
                output.flush();
                return this;
            }
            seen.add("frame of type " + header[3] + " (" + payload.length + " octets)");
        }
    }

    void send(int streamId, List<Frame> frames) throws IOException {
        for (Frame frame : frames) {
            int flags = (frame.endStream() ? END_STREAM : 0) | (frame.type() == HEADERS ? END_HEADERS : 0);
            write(frame.type(), flags, streamId, frame.payload());
        }
        output.flush();
    }

    /**
     * @return how the server answered {@code streamId}: {@code RST_STREAM <id> <code>}, or
     *     {@code :status=<status> <content>} once its END_STREAM came; a GOAWAY or the end of
     *     the connection fails the test
     */
    String answer(int streamId) throws IOException {
        String status = null;
        StringBuilder content = new StringBuilder();
        while (true) {
            Read read = read(streamId);
            if (read.type == HEADERS && read.stream == streamId && status == null) {
                status = read.block.pseudoHeader(":status");
            } else if (read.type == DATA && read.stream == streamId) {
                content.append(new String(read.payload, StandardCharsets.ISO_8859_1));
            }
            if (read.stream != streamId) {
                continue;
            }
            if (read.type == RST_STREAM) {
                return read.line;
            }
            if ((read.type == HEADERS || read.type == DATA) && read.endStream) {
                return ":status=" + status + " " + content;
            }
        }
    }

    /**
     * @return the server's first HEADERS on {@code streamId} as one line, its pseudo-headers then
     *     its fields, {@code name=value} each, then {@code END_STREAM} when it ends the stream
     *     (e.g. {@code :status=405 allow=GET END_STREAM}); or {@code RST_STREAM <id> <code>};
     *     a GOAWAY or the end of the connection fails the test
     */
    String head(int streamId) throws IOException {
        while (true) {
            Read read = read(streamId);
            if (read.stream != streamId) {
                continue;
            }
            if (read.type == RST_STREAM) {
                return read.line;
            }
            if (read.type == HEADERS) {
                StringBuilder line = new StringBuilder();
                for (HttpField field : read.block.pseudoHeaders()) {
                    line.append(line.isEmpty() ? "" : " ").append(field.getName()).append('=').append(field.getValue());
                }
                for (HttpField field : read.block.fields()) {
                    line.append(' ').append(field.getName()).append('=').append(field.getValue());
                }
                return line + (read.endStream ? " END_STREAM" : "");
            }
        }
    }

    /** One frame read: its header block decoded when it is HEADERS, and a line for the report. */
    private record Read(int type, int stream, boolean endStream, byte[] payload, HeaderBlock block, String line) {
    }

    /** @return the next frame; a GOAWAY or the end of the connection fails the test */
    private Read read(int streamId) throws IOException {
        byte[] header;
        try {
            header = readHeader();
        } catch (EOFException | SocketTimeoutException x) {
            throw new AssertionError("no answer on stream " + streamId + " (" + x + "); frames so far: " + seen, x);
        }
        byte[] payload = input.readNBytes(length(header));
        int type = header[3];
        int stream = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7FFF_FFFF;
        HeaderBlock block = null;
        String line = "type " + type + " on stream " + stream;
        if (type == HEADERS) {
            block = decoder.decode(ByteBuffer.wrap(payload));
            line = "HEADERS " + stream + " " + block.pseudoHeaders() + " " + block.fields();
        } else if (type == DATA) {
            line = "DATA " + stream + " (" + payload.length + " octets)";
        } else if (type == RST_STREAM) {
            line = "RST_STREAM " + stream + " " + ErrorCode.describe(ByteBuffer.wrap(payload).getInt() & 0xFFFF_FFFFL);
        } else if (type == GOAWAY) {
            line = "GOAWAY " + new String(payload, 8, payload.length - 8, StandardCharsets.UTF_8);
        }
        seen.add(line);
        if (type == GOAWAY) {
            throw new AssertionError("the server ended the connection; frames: " + seen);
        }
        return new Read(type, stream, (header[4] & END_STREAM) != 0, payload, block, line);
    }

    private byte[] readHeader() throws IOException {
        byte[] header = new byte[9];
        input.readFully(header);
        return header;
    }

    private static int length(byte[] header) {
        return (header[0] & 0xFF) << 16 | (header[1] & 0xFF) << 8 | header[2] & 0xFF;
    }

    private void write(int type, int flags, int streamId, byte[] payload) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(9);
        header.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                .put((byte) type).put((byte) flags).putInt(streamId);
        output.write(header.array());
        output.write(payload);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
