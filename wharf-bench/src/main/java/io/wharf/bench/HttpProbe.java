package io.wharf.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A blocking HTTP/1.1 client just big enough for the macro runs: builds a {@code GET} or
 * {@code POST} request and makes one exchange on a connection the caller owns — writes the
 * request, reads the whole response (head and a Content-Length body, no chunking) and returns
 * its head, its body and how long it was. The {@code pipeline} macro learns the length of one
 * response with it, the {@code idle-http} macro makes every connection carry one request before
 * it goes idle, the {@code static} and {@code servlet} macros check each server's answers before
 * loading it. Called from the driver thread; the caller sets any read timeout on its socket.
 */
final class HttpProbe {

    /** The most bytes of a response head this client reads before giving up. */
    static final int MAX_HEAD = 16 * 1024;

    /** The largest body a response may have to be read here. */
    static final int MAX_BODY = 64 * 1024 * 1024;

    /** One response: its status, its Content-Length, its whole length on the wire, its head (text, up to the blank line) and its body. */
    record Response(int status, long contentLength, long length, String head, byte[] body) {

        /** @return the value of the first field named {@code name} (any case), or null when the head has none */
        String field(String name) {
            return HttpProbe.field(head, name);
        }
    }

    private HttpProbe() {
    }

    /** @return the bytes of {@code GET path HTTP/1.1} with {@code Host: 127.0.0.1:port}, as wrk sends it */
    static byte[] get(String path, int port) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** @return the bytes of {@code POST path HTTP/1.1} with {@code Host: 127.0.0.1:port}, {@code contentType}, a Content-Length and {@code body} */
    static byte[] post(String path, int port, String contentType, byte[] body) {
        byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: " + contentType
            + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] request = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        return request;
    }

    /**
     * Writes {@code request} and reads its response to the last byte. Nothing else may be in
     * flight on the connection.
     *
     * @throws IOException when the connection ends early, the head is too long or has no
     *     Content-Length, or more bytes come than the response holds
     */
    static Response exchange(InputStream in, OutputStream out, byte[] request) throws IOException {
        out.write(request);
        out.flush();
        byte[] head = new byte[MAX_HEAD];
        int filled = 0;
        int headEnd;
        while ((headEnd = endOfHead(head, filled)) < 0) {
            if (filled == head.length) {
                throw new IOException("response head longer than " + MAX_HEAD + " bytes");
            }
            int read = in.read(head, filled, head.length - filled);
            if (read < 0) {
                throw new IOException("connection closed after " + filled + " bytes of a response head");
            }
            filled += read;
        }
        String text = new String(head, 0, headEnd, StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(text.substring(9, 12));
        long contentLength = contentLength(text);
        if (contentLength > MAX_BODY) {
            throw new IOException("a body of " + contentLength + " bytes, more than this probe reads");
        }
        long length = headEnd + contentLength;
        if (filled > length) {
            throw new IOException("more bytes than one response: " + filled + " read, " + length + " expected");
        }
        byte[] body = Arrays.copyOfRange(head, headEnd, headEnd + (int) contentLength);
        int received = filled - headEnd;
        while (received < body.length) {
            int read = in.read(body, received, body.length - received);
            if (read < 0) {
                throw new IOException("connection closed with " + (body.length - received) + " bytes of the body missing");
            }
            received += read;
        }
        return new Response(status, contentLength, length, text, body);
    }

    /** @return the index just after the blank line ending the head, or -1 when it is not in the first {@code filled} bytes */
    private static int endOfHead(byte[] bytes, int filled) {
        for (int i = 3; i < filled; i++) {
            if (bytes[i] == '\n' && bytes[i - 1] == '\r' && bytes[i - 2] == '\n' && bytes[i - 3] == '\r') {
                return i + 1;
            }
        }
        return -1;
    }

    private static long contentLength(String head) throws IOException {
        String value = field(head, "Content-Length");
        if (value == null) {
            throw new IOException("no Content-Length in " + Arrays.toString(head.split("\r\n")));
        }
        return Long.parseLong(value);
    }

    /** @return the value of the first field named {@code name} (any case) in {@code head}, or null when it has none */
    private static String field(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }
}
