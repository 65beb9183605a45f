package io.wharf.websocket.internal;

import java.io.IOException;
import java.io.Reader;
import java.nio.CharBuffer;

/**
 * A streamed text message as the {@code Reader} an {@code @OnWebSocketMessage} method reads:
 * the characters of each frame as it arrives (checked as UTF-8 by the session, a character
 * split between frames joined), -1 at the message's end. Read by one thread, which blocks
 * while the next frame is on its way. Closing it does nothing: the method's return ends it.
 */
final class MessageReader extends Reader {

    private final StreamedPieces<CharBuffer> pieces;

    MessageReader(StreamedPieces<CharBuffer> pieces) {
        this.pieces = pieces;
    }

    @Override
    public int read(char[] chars, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, chars.length);
        if (length == 0) {
            return 0;
        }
        CharBuffer piece = pieces.await();
        if (piece == null) {
            return -1;
        }
        int n = Math.min(length, piece.remaining());
        piece.get(chars, offset, n);
        pieces.taken();
        return n;
    }

    @Override
    public void close() {
    }
}
