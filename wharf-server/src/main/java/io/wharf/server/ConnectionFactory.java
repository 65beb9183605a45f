package io.wharf.server;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;

/**
 * Makes the {@link Connection} that speaks one protocol over a new endpoint. A connector
 * holds factories by protocol name ({@code "HTTP/1.1"}, {@code "PROXY"}, later {@code "SSL"}
 * and {@code "h2"}); a factory that only prepares the ground (PROXY, TLS) names the next
 * protocol, and the chain ends at an HTTP factory. Called on a selector thread; must not block.
 */
public interface ConnectionFactory {

    /** @return the protocol name this factory speaks, e.g. {@code "HTTP/1.1"} */
    String getProtocol();

    /** @return a new, not yet opened connection over {@code endPoint} */
    Connection newConnection(Connector connector, EndPoint endPoint);

    /** The input buffer size of a factory that does not say otherwise. */
    int DEFAULT_INPUT_BUFFER_SIZE = 8192;

    /**
     * @return the size of the buffers this factory's connections read into: a connection that
     *     runs before them on the same endpoint (a PROXY header's) reads into a buffer of this
     *     size, which it hands over with the bytes that followed its part.
     *     {@link #DEFAULT_INPUT_BUFFER_SIZE} unless the factory says otherwise.
     */
    default int getInputBufferSize() {
        return DEFAULT_INPUT_BUFFER_SIZE;
    }
}
