/**
 * Wharf's WebSocket core (RFC 6455, version 13), shared by its server part
 * ({@code io.wharf.websocket.server}) and its client part ({@code io.wharf.websocket.client}),
 * and needing neither Wharf's server nor its client: frames, their parser and generator, close
 * statuses, UTF-8 validation and the session connection; the listener API in three styles; the
 * extensions SPI with permessage-deflate (RFC 7692); and {@code io.wharf.websocket.endpoint},
 * where an application's endpoint becomes the session of a connection.
 * {@code io.wharf.websocket.internal} holds the annotated endpoints and streamed messages and is
 * not exported.
 */
module io.wharf.websocket {
    requires transitive io.wharf.io;

    exports io.wharf.websocket.core;
    exports io.wharf.websocket.api;
    exports io.wharf.websocket.api.annotations;
    exports io.wharf.websocket.deflate;
    exports io.wharf.websocket.endpoint;
}
