/**
 * The application API of Wharf's WebSocket, listener style: a {@link io.wharf.websocket.api.WebSocketListener}
 * receives whole messages and a {@link io.wharf.websocket.api.Session} sends them. The same API
 * serves server endpoints (see {@code io.wharf.websocket.server}) and, later, the client.
 */
package io.wharf.websocket.api;
