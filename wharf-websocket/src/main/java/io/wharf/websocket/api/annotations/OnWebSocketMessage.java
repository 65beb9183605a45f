package io.wharf.websocket.api.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A message arrived. Each form may take a {@code Session} first; at most one text and one
 * binary method per class:
 * <ul>
 * <li>{@code void m(String text)} — a whole text message;</li>
 * <li>{@code void m(java.io.Reader text)} — a text message streamed as its frames arrive;</li>
 * <li>{@code void m(byte[] bytes, int offset, int length)} — a whole binary message (a copy);</li>
 * <li>{@code void m(java.nio.ByteBuffer bytes)} — a whole binary message, valid until it returns;</li>
 * <li>{@code void m(java.io.InputStream bytes)} — a binary message streamed as its frames arrive.</li>
 * </ul>
 * A streamed message may be of any size the session's limit allows and never sits whole in
 * memory: the method reads the frames as they come, and the next frame is read from the
 * network only when it has taken the last. What it leaves unread when it returns is dropped.
 *
 * <p>A message of a kind the class has no method for closes the session with 1003.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface OnWebSocketMessage {
}
