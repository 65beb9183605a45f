package io.wharf.websocket.api.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Something failed (a protocol error, a limit, I/O, an exception thrown by another of the
 * endpoint's methods); the close follows. {@code void m(Throwable cause)}, optionally with a
 * {@code Session} first. At most one per class.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OnWebSocketError {
}
