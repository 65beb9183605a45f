/**
 * Wharf's WebSocket (RFC 6455, version 13): the protocol core shared by server and client —
 * frames, their parser and generator, close statuses and UTF-8 validation. The server and
 * client parts and the application APIs come on top of it.
 */
module io.wharf.websocket {
    requires transitive io.wharf.io;

    exports io.wharf.websocket.core;
}
