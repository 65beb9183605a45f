package io.wharf.tests.servlet;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A raw HTTP/1.1 client over a plain {@link Socket} (or an {@link SSLSocket}, for
 * {@code https} with the TLS context given) to loopback: writes the request's exact
 * bytes, reads one response in full and closes the connection. The body is read as the
 * response frames it: none (HEAD, 1xx, 204, 304), chunked (decoded, trailers kept), by
 * Content-Length, or up to the close. Interim 1xx responses are skipped. Every read waits at
 * most the timeout given; then {@link SocketTimeoutException} says the response stalled.
 *
 * <p>The differential suite's way to see what a container really sends, header bytes and
 * framing included, which an HTTP client library would tidy away. One call at a time per
 * instance is not required: it holds no state.
 */
final class RawHttpClient implements PeerClient {

    private static final int MAX_LINE = 64 * 1024;

    private final Duration timeout;
    private final SSLContext tls;

    RawHttpClient(Duration timeout) {
        this(timeout, null);
    }

    /** @param tls the TLS context of {@code https} exchanges (what it trusts, the certificate it presents), or null for none */
    RawHttpClient(Duration timeout, SSLContext tls) {
        this.timeout = timeout;
        this.tls = tls;
    }

    /** Each part is flushed on its own. Over {@code https} the handshake offers ALPN {@code http/1.1} only. */
    @Override
    public RawResponse exchange(URI base, List<byte[]> parts, Duration pause) throws IOException {
        try (Socket socket = connect(base)) {
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < parts.size(); i++) {
                if (i > 0) {
                    sleep(pause);
                }
                out.write(parts.get(i));
                out.flush();
            }
            return read(new BufferedInputStream(socket.getInputStream()), isHead(parts.getFirst()));
        }
    }

    /** @return a socket connected to {@code base}, its TLS handshake done when it is {@code https} */
    Socket connect(URI base) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", base.getPort()), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            if (!base.getScheme().equals("https")) {
                return socket;
            }
            if (tls == null) {
                throw new IllegalStateException("an https exchange with a client made without TLS: " + base);
            }
            SSLSocket secure = (SSLSocket) tls.getSocketFactory().createSocket(socket, "127.0.0.1", base.getPort(), true);
            SSLParameters parameters = secure.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"http/1.1"});
            secure.setSSLParameters(parameters);
            secure.startHandshake();
            return secure;
        } catch (IOException | RuntimeException failure) {
            socket.close();
            throw failure;
        }
    }

    private static void sleep(Duration pause) throws IOException {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted between the parts of a request");
        }
    }

    /** Reads one response from {@code in}; {@code head} when it answers a HEAD request (so it has no body). */
    static RawResponse read(InputStream in, boolean head) throws IOException {
        while (true) {
            String statusLine = readLine(in);
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
                throw new IOException("not a status line: " + statusLine);
            }
            int status = Integer.parseInt(parts[1]);
            HeaderFields headers = readFields(in);
            if (status >= 100 && status < 200 && status != 101) {
                continue;
            }
            HeaderFields trailers = new HeaderFields();
            byte[] body;
            if (head || status < 200 || status == 204 || status == 304) {
                body = new byte[0];
            } else if (headers.hasToken("Transfer-Encoding", "chunked")) {
                body = readChunked(in, trailers);
            } else if (headers.get("Content-Length") != null) {
                body = readExactly(in, Integer.parseInt(headers.get("Content-Length")));
            } else {
                body = in.readAllBytes();
            }
            return new RawResponse(parts[0], status, parts.length > 2 ? parts[2] : "", headers, body, trailers);
        }
    }

    private static boolean isHead(byte[] request) {
        return new String(request, 0, Math.min(5, request.length), StandardCharsets.US_ASCII).equals("HEAD ");
    }

    private static HeaderFields readFields(InputStream in) throws IOException {
        HeaderFields fields = new HeaderFields();
        for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("not a field line: " + line);
            }
            fields.add(line.substring(0, colon), line.substring(colon + 1));
        }
        return fields;
    }

    private static byte[] readChunked(InputStream in, HeaderFields trailers) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            int extension = sizeLine.indexOf(';');
            int size = Integer.parseInt((extension < 0 ? sizeLine : sizeLine.substring(0, extension)).strip(), 16);
            if (size == 0) {
                HeaderFields fields = readFields(in);
                fields.asList().forEach(field -> trailers.add(field.getKey(), field.getValue()));
                return body.toByteArray();
            }
            body.write(readExactly(in, size));
            if (!readLine(in).isEmpty()) {
                throw new IOException("a chunk of " + size + " bytes is not followed by CRLF");
            }
        }
    }

    private static byte[] readExactly(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new EOFException("the connection closed after " + bytes.length + " of " + length + " bytes");
        }
        return bytes;
    }

    /** @return one line without its CRLF (or bare LF), its bytes as ISO-8859-1 chars */
    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("the connection closed in a line: " + line);
            }
            if (line.length() == MAX_LINE) {
                throw new IOException("a line longer than " + MAX_LINE + " bytes");
            }
            line.append((char) b);
        }
        int end = line.length();
        return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
    }
}
