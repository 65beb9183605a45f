package io.wharf.client.internal.content;

import java.nio.ByteBuffer;

import io.wharf.client.RequestContent;
import io.wharf.io.Content;

/**
 * Request content held in memory (text, bytes, a form): one last chunk of the whole buffer,
 * readable again after {@link #rewind()}. Read by the connection's writer; {@link #fail} from
 * any thread. The buffer is the application's, never copied nor changed: each read hands out a
 * read-only view.
 */
public final class BytesContent implements RequestContent {

    private final ByteBuffer bytes;
    private final String contentType;
    private volatile Throwable failure;
    private volatile boolean read;

    public BytesContent(ByteBuffer bytes, String contentType) {
        this.bytes = bytes.asReadOnlyBuffer();
        this.contentType = contentType;
    }

    @Override
    public Content.Chunk read() {
        Throwable failed = failure;
        if (failed != null) {
            return Content.Chunk.from(failed);
        }
        if (read) {
            return Content.Chunk.EOF;
        }
        read = true;
        return Content.Chunk.from(bytes.duplicate(), true);
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        onContentAvailable.run();
    }

    @Override
    public void fail(Throwable cause) {
        failure = cause;
    }

    @Override
    public long getLength() {
        return bytes.remaining();
    }

    @Override
    public String getContentType() {
        return contentType;
    }

    @Override
    public boolean rewind() {
        // The bytes are all here: a failure of the last attempt does not stop another.
        failure = null;
        read = false;
        return true;
    }

    @Override
    public String toString() {
        return "BytesContent[" + bytes.remaining() + " bytes, " + contentType + "]";
    }
}
