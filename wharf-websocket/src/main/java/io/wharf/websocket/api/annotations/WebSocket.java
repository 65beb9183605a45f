package io.wharf.websocket.api.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class as a WebSocket endpoint in the annotation style: its methods annotated with
 * {@link OnWebSocketOpen}, {@link OnWebSocketMessage}, {@link OnWebSocketClose},
 * {@link OnWebSocketError} and {@link OnWebSocketFrame} receive the session's events. An
 * instance may be returned by a server's {@code WebSocketCreator} or given to the client's
 * {@code connect}; its methods are checked once per class, and a bad one fails that first use
 * (or {@code WebSocketUpgradeHandler.addMapping(path, Class)}) naming the class and the method.
 *
 * <p>The methods run on threads that may block (the executor, virtual threads where
 * configured), never on a selector thread, one event at a time.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WebSocket {

    /** @return the largest text message, in UTF-8 bytes; 0 keeps the server's or client's limit */
    int maxTextMessageSize() default 0;

    /** @return the largest binary message, in bytes; 0 keeps the server's or client's limit */
    int maxBinaryMessageSize() default 0;

    /** @return the idle timeout in milliseconds; 0 keeps the server's or client's */
    long idleTimeout() default 0;
}
