package io.wharf.bench;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * One connection of the {@code tls-handshakes} macro run: a full TLS handshake (a fresh
 * {@link SSLContext} each time, so there is no session to resume) offering one ALPN protocol
 * and one TLS 1.3 suite (the one the {@code h2} run's h2load offers,
 * {@link H2load#TLS13_CIPHER_SUITE}, so that every server uses it), one {@code GET /plaintext}
 * in that protocol, then close. For {@code h2}: the client preface, an empty SETTINGS, one
 * HEADERS frame, frames read until the response's END_STREAM (acknowledging the server's
 * SETTINGS). For {@code http/1.1}: a request with {@code Connection: close}, read to the end.
 * Fails with an exception when the server chose another protocol or did not answer 200.
 * Each call is one connection; many threads call it at once (it keeps no state).
 */
final class HandshakeClient {

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DATA = 0;
    private static final int HEADERS = 1;
    private static final int RST_STREAM = 3;
    private static final int SETTINGS = 4;
    private static final int GOAWAY = 7;
    private static final int END_STREAM = 0x1;
    private static final int ACK = 0x1;
    private static final int PADDED = 0x8;
    private static final int PRIORITY = 0x20;
    /** HPACK static table entry 8, {@code :status 200}, as an indexed field. */
    private static final int STATUS_200 = 0x88;

    private final TrustManagerFactory trust;
    private final InetSocketAddress address;
    private final byte[] h2Request;
    private final byte[] http11Request;

    HandshakeClient(TrustManagerFactory trust, int port) {
        this.trust = trust;
        this.address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        this.h2Request = h2Request(address.getAddress().getHostAddress());
        this.http11Request = ("GET /plaintext HTTP/1.1\r\nHost: " + address.getAddress().getHostAddress() + "\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    }

    /** The preface, an empty SETTINGS and {@code GET /plaintext} on stream 1 (HPACK: static-table names, no Huffman). */
    private static byte[] h2Request(String authority) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x82); // :method GET
        block.write(0x87); // :scheme https
        literal(block, 4, "/plaintext"); // :path
        literal(block, 1, authority); // :authority
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(PREFACE);
        frameHeader(request, 0, SETTINGS, 0, 0);
        frameHeader(request, block.size(), HEADERS, END_STREAM | 0x4, 1); // 0x4: END_HEADERS
        request.writeBytes(block.toByteArray());
        return request.toByteArray();
    }

    /** A literal field with incremental indexing, its name from the static table. */
    private static void literal(ByteArrayOutputStream block, int nameIndex, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > 126) {
            throw new IllegalArgumentException("value too long for this encoder: " + value);
        }
        block.write(0x40 | nameIndex);
        block.write(bytes.length);
        block.writeBytes(bytes);
    }

    private static void frameHeader(OutputStream out, int length, int type, int flags, int stream) {
        try {
            out.write(new byte[] {(byte) (length >>> 16), (byte) (length >>> 8), (byte) length, (byte) type, (byte) flags,
                (byte) (stream >>> 24), (byte) (stream >>> 16), (byte) (stream >>> 8), (byte) stream});
        } catch (IOException x) {
            throw new IllegalStateException(x);
        }
    }

    /**
     * @return where the first header field of a header block starts: after any dynamic table
     * size updates (RFC 7541 section 6.3: {@code 001} then a 5-bit prefixed integer), which a
     * server may send first
     */
    static int firstField(byte[] block, int start) {
        int i = start;
        while (i < block.length && (block[i] & 0xE0) == 0x20) {
            if ((block[i++] & 0x1F) == 0x1F) {
                while (i < block.length && (block[i] & 0x80) != 0) {
                    i++;
                }
                i++;
            }
        }
        return i;
    }

    /** One connection: handshake offering {@code protocol} ("h2" or "http/1.1"), one request, close. */
    void exchange(String protocol) throws Exception {
        SSLContext context = BenchCertificate.clientContext(trust);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.setSoTimeout(10_000);
            socket.setTcpNoDelay(true);
            socket.connect(address, 10_000);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {protocol});
            parameters.setCipherSuites(new String[] {H2load.TLS13_CIPHER_SUITE});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            if (!protocol.equals(socket.getApplicationProtocol())) {
                throw new IllegalStateException("offered only " + protocol + ", the server chose '" + socket.getApplicationProtocol() + "'");
            }
            if (protocol.equals("h2")) {
                h2(socket);
            } else {
                http11(socket);
            }
        }
    }

    private void http11(SSLSocket socket) throws IOException {
        socket.getOutputStream().write(http11Request);
        socket.getOutputStream().flush();
        String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        if (!response.startsWith("HTTP/1.1 200 ") || !response.endsWith("Hello, World!")) {
            throw new IllegalStateException("not the hello response over HTTP/1.1: " + response);
        }
    }

    private void h2(SSLSocket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(h2Request);
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[9];
        while (true) {
            in.readFully(header);
            int length = (header[0] & 0xFF) << 16 | (header[1] & 0xFF) << 8 | header[2] & 0xFF;
            int type = header[3] & 0xFF;
            int flags = header[4] & 0xFF;
            int stream = ((header[5] & 0x7F) << 24) | (header[6] & 0xFF) << 16 | (header[7] & 0xFF) << 8 | header[8] & 0xFF;
            byte[] payload = in.readNBytes(length);
            if (payload.length < length) {
                throw new IllegalStateException("the connection ended inside a frame");
            }
            if (type == SETTINGS && (flags & ACK) == 0) {
                frameHeader(out, 0, SETTINGS, ACK, 0);
                out.flush();
            } else if (type == GOAWAY || type == RST_STREAM && stream == 1) {
                throw new IllegalStateException("the server ended the exchange with frame type " + type);
            } else if (type == HEADERS && stream == 1) {
                int start = firstField(payload, ((flags & PADDED) != 0 ? 1 : 0) + ((flags & PRIORITY) != 0 ? 5 : 0));
                if (start >= payload.length || (payload[start] & 0xFF) != STATUS_200) {
                    throw new IllegalStateException("the response over h2 does not start with :status 200: "
                        + java.util.HexFormat.of().formatHex(payload, 0, Math.min(payload.length, 16)));
                }
            }
            if ((type == DATA || type == HEADERS) && stream == 1 && (flags & END_STREAM) != 0) {
                return;
            }
        }
    }
}
