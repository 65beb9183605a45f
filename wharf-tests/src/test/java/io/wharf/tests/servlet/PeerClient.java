package io.wharf.tests.servlet;

import java.io.IOException;
import java.net.URI;

/**
 * How the differential sends one request to a peer and reads the response: raw bytes over
 * HTTP/1.1 ({@link RawHttpClient}), or the request translated for a client of another
 * protocol ({@link Http2Client}). Called on the test's thread.
 */
interface PeerClient {

    /**
     * Sends {@code request}, the exact bytes of an HTTP/1.1 request, to the peer at {@code base}
     * ({@code http://127.0.0.1:port} or {@code https://...}) and reads the response to it.
     */
    RawResponse exchange(URI base, byte[] request) throws IOException;
}
