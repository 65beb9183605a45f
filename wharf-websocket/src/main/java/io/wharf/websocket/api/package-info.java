/**
 * The application API of Wharf's WebSocket, the same for server and client endpoints, in three
 * styles: a {@link io.wharf.websocket.api.WebSocketListener} (whole messages, or streamed frame
 * by frame when it asks), a {@link io.wharf.websocket.api.WebSocketAdapter} to extend (keeps its
 * session, blocking and asynchronous sends), and classes annotated
 * {@link io.wharf.websocket.api.annotations.WebSocket}; {@code io.wharf.websocket.endpoint.Endpoints}
 * turns any of them into a listener. A {@link io.wharf.websocket.api.Session} sends messages
 * whole, in fragments, or through a {@code Writer}/{@code OutputStream} per message.
 */
package io.wharf.websocket.api;
