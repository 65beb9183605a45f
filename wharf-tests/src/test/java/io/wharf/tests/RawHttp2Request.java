package io.wharf.tests;

import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;

import io.wharf.http.HttpFields;
import io.wharf.http2.hpack.HpackEncoder;

/**
 * Sends one HTTP/2 request exactly as given — pseudo-headers no client library lets through,
 * such as a CONNECT without {@code :protocol} — on a connected socket (h2c by prior knowledge,
 * or a TLS socket that agreed on h2 by ALPN) and returns the response's HEADERS as one line,
 * {@code :status=405 allow=... END_STREAM}, or the {@code RST_STREAM} that came instead
 * ({@link RawHttp2Connection#head}). For tests only; one thread, one request, the socket is
 * the caller's to close.
 */
final class RawHttp2Request {

    private RawHttp2Request() {
    }

    /** @return the response head to {@code fields}, sent on stream 1 with END_STREAM */
    static String send(Socket socket, HttpFields fields) throws IOException {
        socket.setSoTimeout(10_000);
        HpackEncoder encoder = new HpackEncoder();
        ByteBuffer block = ByteBuffer.allocate(encoder.maxEncodedLength(fields));
        encoder.encode(fields, block);
        byte[] payload = new byte[block.flip().remaining()];
        block.get(payload);
        RawHttp2Connection connection = new RawHttp2Connection(socket).start();
        connection.send(1, List.of(new RawHttp2Connection.Frame(RawHttp2Connection.HEADERS, payload, true)));
        return connection.head(1);
    }
}
