package io.wharf.client.internal.content;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * Request content read from an {@link InputStream} as the request is written: of unknown
 * length (chunked over HTTP/1.1), not readable twice, the stream closed at its end or on
 * failure. See {@link StreamedContent} for threads and buffers.
 */
public final class InputStreamContent extends StreamedContent {

    /** 16 KiB per read. */
    public static final int DEFAULT_READ_SIZE = 16 * 1024;

    private final InputStream stream;

    public InputStreamContent(InputStream stream, String contentType, int readSize) {
        super(contentType, readSize);
        this.stream = stream;
    }

    @Override
    protected int readSome(ByteBuffer into) throws IOException {
        int count = stream.read(into.array(), into.arrayOffset() + into.position(), into.remaining());
        if (count > 0) {
            into.position(into.position() + count);
        }
        return count;
    }

    @Override
    protected void closeSource() throws IOException {
        stream.close();
    }

    @Override
    public String toString() {
        return "InputStreamContent[" + stream + "]";
    }
}
