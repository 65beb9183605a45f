package io.wharf.server;

import static io.wharf.server.LocalServer.crlf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Content short enough is copied after the response head and sent in one write; longer
 * content, and direct content past the copy limit, is written beside the head. Either way the
 * client gets the same bytes: each size either side of the limits, heap and direct, with a
 * Content-Length and chunked, on one keep-alive connection.
 */
class ResponseContentCopyTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int HEADER_BUFFER = 8192;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private LocalServer local;

    @AfterEach
    void stop() throws Exception {
        local.close();
    }

    /** The content of {@code size} bytes, each its index mod 26 as a letter. */
    private static byte[] content(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) ('a' + i % 26);
        }
        return bytes;
    }

    @Test
    void everySizeAndKindOfContentArrivesWhole() throws Exception {
        local = new LocalServer(leaks.pool()).start(Handler.of((request, response, callback) -> {
            String[] query = request.getHttpURI().getQuery().split(",");
            int size = Integer.parseInt(query[0]);
            boolean direct = query[1].equals("direct");
            boolean chunked = query[2].equals("chunked");
            byte[] bytes = content(size);
            ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(size).put(bytes).flip() : ByteBuffer.wrap(bytes);
            if (!chunked) {
                response.getHeaders().put("Content-Length", Integer.toString(size));
                response.write(true, buffer, callback);
            } else {
                // Not last: the head goes out chunked with this content, the last chunk later.
                response.write(false, buffer, Callback.from(() -> response.write(true, ByteBuffer.allocate(0), callback), callback::failed));
            }
            return true;
        }));
        local.configuration.setResponseHeaderSize(HEADER_BUFFER);
        int[] sizes = {0, 1, 13, 2047, 2048, 2049, 4096, HEADER_BUFFER - 200, HEADER_BUFFER - 100, HEADER_BUFFER, 100_000};
        try (LocalConnector.Client client = local.connector.connect()) {
            for (int size : sizes) {
                for (String kind : new String[] {"heap", "direct"}) {
                    for (String framing : new String[] {"length", "chunked"}) {
                        String name = size + "," + kind + "," + framing;
                        client.send(crlf("GET /?" + name + " HTTP/1.1\nHost: localhost\n\n"));
                        String response = client.readResponse(WAIT);
                        assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), name + ": " + response.substring(0, Math.min(100, response.length())));
                        int body = response.indexOf("\r\n\r\n") + 4;
                        String expected = new String(content(size), StandardCharsets.ISO_8859_1);
                        if (framing.equals("length")) {
                            assertEquals(expected, response.substring(body), name);
                        } else {
                            String chunks = response.substring(body);
                            String framed = size == 0 ? "0\r\n\r\n" : Integer.toHexString(size) + "\r\n" + expected + "\r\n0\r\n\r\n";
                            assertEquals(framed, chunks, name);
                        }
                    }
                }
            }
        }
    }
}
