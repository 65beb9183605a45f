package io.wharf.websocket.endpoint;

import java.util.Objects;

import io.wharf.websocket.api.WebSocketAdapter;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.internal.AnnotatedListener;

/**
 * The one place an application's endpoint object becomes a {@link WebSocketListener}: a
 * listener (or {@link WebSocketAdapter}) as it is, an object of a class annotated
 * {@link io.wharf.websocket.api.annotations.WebSocket} through its annotated methods. The
 * server's {@code WebSocketCreator} and the client's {@code connect} accept either.
 */
public final class Endpoints {

    private Endpoints() {
    }

    /**
     * @return {@code endpoint} as the listener of its session
     * @throws IllegalArgumentException when it is neither a listener nor annotated, or one of
     *     its annotated methods does not fit (the message names the class, the method and why)
     */
    public static WebSocketListener toListener(Object endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        if (endpoint instanceof WebSocketListener listener) {
            return listener;
        }
        return new AnnotatedListener(endpoint);
    }

    /**
     * Checks a class ahead of its first session: a listener class passes, an annotated one has
     * its methods found and checked now (once per class).
     *
     * @throws IllegalArgumentException as {@link #toListener(Object)} does
     */
    public static void check(Class<?> type) {
        if (!WebSocketListener.class.isAssignableFrom(type)) {
            AnnotatedListener.check(type);
        }
    }
}
