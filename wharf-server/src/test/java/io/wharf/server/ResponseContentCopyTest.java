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
 * client gets the same bytes: each size either side of the limits (the writer's own 1 KiB
 * head buffer, the copy limit for direct content, the borrowed header buffer), heap and
 * direct, with a Content-Length and chunked, on one keep-alive connection. Heads of every
 * size either side of the own buffer's arrive whole too, generated again into a borrowed
 * buffer when they do not fit.
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
        int[] limits = {0, 1, 13, 2047, 2048, 2049, 4096, HEADER_BUFFER - 200, HEADER_BUFFER - 100, HEADER_BUFFER, 100_000};
        // Every size from well inside the own 1 KiB head buffer to past it, whatever the head's length.
        int[] aroundOwnBuffer = java.util.stream.IntStream.rangeClosed(850, 1030).toArray();
        int[] sizes = java.util.stream.IntStream.concat(java.util.Arrays.stream(limits), java.util.Arrays.stream(aroundOwnBuffer)).toArray();
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

    @Test
    void headsEitherSideOfTheOwnBufferArriveWhole() throws Exception {
        local = new LocalServer(leaks.pool()).start(Handler.of((request, response, callback) -> {
            int pad = Integer.parseInt(request.getHttpURI().getQuery());
            response.getHeaders().put("X-Pad", "p".repeat(pad));
            response.write(true, ByteBuffer.wrap(content(13)), callback);
            return true;
        }));
        try (LocalConnector.Client client = local.connector.connect()) {
            for (int pad = 800; pad <= 1100; pad++) {
                client.send(crlf("GET /?" + pad + " HTTP/1.1\nHost: localhost\n\n"));
                String response = client.readResponse(WAIT);
                int end = response.indexOf("\r\n\r\n");
                String head = response.substring(0, end + 4);
                assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n"), pad + ": " + head.substring(0, Math.min(100, head.length())));
                assertTrue(head.contains("\r\nX-Pad: " + "p".repeat(pad) + "\r\n"), pad + ": X-Pad missing or cut");
                assertTrue(head.contains("\r\nContent-Length: 13\r\n"), pad + ": no Content-Length 13");
                assertEquals(new String(content(13), StandardCharsets.ISO_8859_1), response.substring(end + 4), pad + ": content");
            }
        }
    }
}
