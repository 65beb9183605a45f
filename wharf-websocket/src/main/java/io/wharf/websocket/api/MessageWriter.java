package io.wharf.websocket.api;

import java.io.IOException;
import java.io.Writer;

/**
 * One text message sent as it is written ({@link Session#sendTextWriter()}), as
 * {@link MessageOutputStream} sends a binary one: each full array of characters, and each
 * {@link #flush()}, goes out as a fragment with {@link Session#sendPartialText}; a high
 * surrogate at a fragment's end waits for its pair in the next, so no character is split.
 *
 * <p><b>Threads.</b> One writing thread, which blocks until each fragment was written: never
 * a selector thread. <b>Buffers.</b> Its own array, no pooled buffer.
 */
final class MessageWriter extends Writer {

    private final FragmentBuffer fragments;

    MessageWriter(Session session, int fragmentSize) {
        char[] buffer = new char[Math.max(2, fragmentSize)];
        this.fragments = new FragmentBuffer(buffer, (count, last) -> {
            int length = !last && count > 0 && Character.isHighSurrogate(buffer[count - 1]) ? count - 1 : count;
            String fragment = new String(buffer, 0, length);
            BlockingSend.await(session, "text fragment of " + length + " chars", done -> session.sendPartialText(fragment, last, done));
            return length;
        });
    }

    @Override
    public void write(char[] chars, int offset, int length) throws IOException {
        fragments.write(chars, offset, length);
    }

    @Override
    public void flush() throws IOException {
        fragments.flush();
    }

    @Override
    public void close() throws IOException {
        fragments.close();
    }
}
