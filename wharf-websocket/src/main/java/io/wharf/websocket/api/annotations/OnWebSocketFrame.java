package io.wharf.websocket.api.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Every frame read, as it arrived (before extensions decode it and before the message events):
 * {@code void m(io.wharf.websocket.core.Frame frame)}, optionally with a {@code Session} first.
 * For watching the wire, not for handling messages: it is called on the reading thread, often
 * a selector thread, so it must not block, and the frame's payload is valid only during the
 * call. At most one per class.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OnWebSocketFrame {
}
