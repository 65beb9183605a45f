/**
 * Where an application's endpoint meets a WebSocket connection, for the server and client parts
 * (and any other module that opens WebSocket sessions):
 * {@link io.wharf.websocket.endpoint.Endpoints} turns a listener, an adapter or an annotated
 * object into a {@link io.wharf.websocket.api.WebSocketListener}, and
 * {@link io.wharf.websocket.endpoint.ListenerSession} binds that listener to a
 * {@link io.wharf.websocket.core.WebSocketConnection} as its events and its
 * {@link io.wharf.websocket.api.Session}.
 */
package io.wharf.websocket.endpoint;
