/**
 * Wharf's WebSocket client ({@code ws://}, {@code wss://}) on its {@code HttpClient}: the
 * opening handshake over HTTP/1.1 or over an HTTP/2 stream (RFC 8441), through the client's
 * proxies, then a session on the WebSocket core. A client user needs no server.
 */
module io.wharf.websocket.client {
    requires transitive io.wharf.websocket;
    requires transitive io.wharf.client;
    // The handshake over an HTTP/2 stream runs its own HTTP/2 session.
    requires io.wharf.http2;

    exports io.wharf.websocket.client;
}
