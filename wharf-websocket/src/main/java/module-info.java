/**
 * Wharf's WebSocket (RFC 6455, version 13): the protocol core shared by server and client —
 * frames, their parser and generator, close statuses, UTF-8 validation and the session
 * connection — the listener API, the server upgrade handler, extensions with permessage-deflate
 * (RFC 7692), and the client.
 */
module io.wharf.websocket {
    requires transitive io.wharf.io;
    requires transitive io.wharf.server;
    requires transitive io.wharf.client;

    exports io.wharf.websocket.core;
    exports io.wharf.websocket.api;
    exports io.wharf.websocket.api.annotations;
    exports io.wharf.websocket.server;
    exports io.wharf.websocket.deflate;
    exports io.wharf.websocket.client;
}
