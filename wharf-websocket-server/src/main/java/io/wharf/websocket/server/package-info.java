/**
 * WebSocket on Wharf's server: {@link io.wharf.websocket.server.WebSocketUpgradeHandler} checks
 * opening handshakes on mapped paths and switches the HTTP/1.1 connection to a WebSocket session
 * whose listener a {@link io.wharf.websocket.server.WebSocketCreator} makes.
 */
package io.wharf.websocket.server;
