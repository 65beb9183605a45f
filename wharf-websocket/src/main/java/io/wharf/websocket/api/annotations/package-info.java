/**
 * The annotation style of Wharf's WebSocket API: a class marked {@link io.wharf.websocket.api.annotations.WebSocket}
 * whose annotated methods take the parameters they need. Turned into a listener by
 * {@link io.wharf.websocket.endpoint.Endpoints#toListener(Object)}.
 */
package io.wharf.websocket.api.annotations;
