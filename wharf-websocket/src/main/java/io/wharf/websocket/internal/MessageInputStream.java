package io.wharf.websocket.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A streamed binary message as the {@code InputStream} an {@code @OnWebSocketMessage} method
 * reads: the bytes of each frame as it arrives, read in place from the session's buffer, -1
 * at the message's end. Read by one thread, which blocks while the next frame is on its way.
 */
final class MessageInputStream extends InputStream {

    private final StreamedPieces<ByteBuffer> pieces;

    MessageInputStream(StreamedPieces<ByteBuffer> pieces) {
        this.pieces = pieces;
    }

    @Override
    public int read() throws IOException {
        ByteBuffer piece = pieces.await();
        if (piece == null) {
            return -1;
        }
        int b = piece.get() & 0xFF;
        pieces.taken();
        return b;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
        if (length == 0) {
            return 0;
        }
        ByteBuffer piece = pieces.await();
        if (piece == null) {
            return -1;
        }
        int n = Math.min(length, piece.remaining());
        piece.get(bytes, offset, n);
        pieces.taken();
        return n;
    }
}
