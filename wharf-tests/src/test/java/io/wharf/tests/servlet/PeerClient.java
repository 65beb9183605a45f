package io.wharf.tests.servlet;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * How the differential sends one request to a peer and reads the response: raw bytes over
 * HTTP/1.1 ({@link RawHttpClient}), or the request translated for a client of another
 * protocol ({@link Http2Client}). Called on the test's thread.
 */
interface PeerClient {

    /**
     * Sends a request, the exact bytes of an HTTP/1.1 request cut in {@code parts}, to the peer
     * at {@code base} ({@code http://127.0.0.1:port} or {@code https://...}), each part on its
     * own with {@code pause} between them (a slow client; the head is in the first), and reads
     * the response to it.
     */
    RawResponse exchange(URI base, List<byte[]> parts, Duration pause) throws IOException;

    /** As {@link #exchange(URI, List, Duration)}, the request in one part. */
    default RawResponse exchange(URI base, byte[] request) throws IOException {
        return exchange(base, List.of(request), Duration.ZERO);
    }
}
