/**
 * Wharf's WebSocket endpoints in a servlet context: {@link io.wharf.websocket.servlet.WebSocketServlet}
 * maps a {@code WebSocketCreator} like any servlet, behind the context's filters and security,
 * and hands the handshake to the core WebSocket upgrade handler.
 */
module io.wharf.websocket.servlet {
    requires transitive io.wharf.servlet;
    requires transitive io.wharf.websocket.server;

    exports io.wharf.websocket.servlet;
}
