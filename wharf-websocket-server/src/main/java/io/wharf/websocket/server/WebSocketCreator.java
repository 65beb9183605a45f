package io.wharf.websocket.server;

/**
 * Makes the listener for one accepted opening handshake, or refuses it. Called by
 * {@link WebSocketUpgradeHandler} once the request passed the RFC's checks, on the thread that
 * handles the request (a selector thread unless the handler was declared BLOCKING), so it
 * must not block there.
 */
@FunctionalInterface
public interface WebSocketCreator {

    /**
     * @param request what the client asked: the HTTP request, the subprotocols it offered
     * @param response where to pick a subprotocol or refuse with a status
     * @return the endpoint of the new session: a {@code WebSocketListener} (or
     *     {@code WebSocketAdapter}) or an object of a class annotated {@code @WebSocket}; null
     *     refuses the handshake (with the status set by {@link UpgradeResponse#refuse}, else 403)
     */
    Object create(UpgradeRequest request, UpgradeResponse response);
}
