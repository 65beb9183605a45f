/**
 * WebSocket on Wharf's server: the {@code WebSocketUpgradeHandler} that accepts opening
 * handshakes over HTTP/1.1 and over HTTP/2 streams (RFC 8441) and runs the sessions on the
 * WebSocket core. A server user needs no HTTP client.
 */
module io.wharf.websocket.server {
    requires transitive io.wharf.websocket;
    requires transitive io.wharf.server;

    exports io.wharf.websocket.server;
}
