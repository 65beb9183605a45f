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
}
