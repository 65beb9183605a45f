package io.wharf.websocket.server;

import io.wharf.websocket.api.WebSocketListener;

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
     * @return the listener for the new session; null refuses the handshake (with the status
     *     set by {@link UpgradeResponse#refuse}, else 403)
     */
    WebSocketListener create(UpgradeRequest request, UpgradeResponse response);
}
