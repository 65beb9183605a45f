package io.wharf.websocket.server;

import java.util.List;

import io.wharf.server.Request;

/**
 * A valid WebSocket opening handshake as a {@link WebSocketCreator} sees it. Immutable.
 *
 * @param request the HTTP request (its headers, URI, connection metadata)
 * @param origin the {@code Origin} field, or null when the client sent none (non-browser clients)
 * @param subprotocols the subprotocols the client offered in {@code Sec-WebSocket-Protocol}, in its order
 */
public record UpgradeRequest(Request request, String origin, List<String> subprotocols) {

    public UpgradeRequest {
        subprotocols = List.copyOf(subprotocols);
    }
}
