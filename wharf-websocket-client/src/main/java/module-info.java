/**
 * Wharf's WebSocket client ({@code ws://}, {@code wss://}) on its {@code HttpClient}: the
 * opening handshake over HTTP/1.1 or over an HTTP/2 stream (RFC 8441), through the client's
 * proxies, then a session on the WebSocket core. A client user needs no server.
 * WebSocket over HTTP/2 needs {@code io.wharf.http2} in the module graph, which this module only
 * requires statically: a client whose sessions run over HTTP/1.1 runs without it.
 */
module io.wharf.websocket.client {
    requires transitive io.wharf.websocket;
    requires transitive io.wharf.client;
    // Only the handshake over an HTTP/2 stream (Http2HandshakeConnection) uses it: a client whose
    // sessions run over HTTP/1.1 runs without wharf-http2 on its module path. An application that
    // asks for HTTP/2 (ClientUpgradeRequest.withHttp2) requires io.wharf.http2 itself.
    requires static io.wharf.http2;

    exports io.wharf.websocket.client;
}
