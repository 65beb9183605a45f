package io.wharf.client.internal.content;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file uploaded as request content, streamed from disk one read at a time (never loaded
 * whole): its length is the file's size when opened, sent as Content-Length. See
 * {@link StreamedContent} for threads and buffers.
 */
public final class PathContent extends StreamedContent {

    /** 64 KiB per read. */
    public static final int DEFAULT_READ_SIZE = 64 * 1024;

    private final Path file;
    private final FileChannel channel;
    private final long length;

    public PathContent(Path file, String contentType, int readSize) throws IOException {
        super(contentType, readSize);
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.length = channel.size();
    }

    @Override
    protected int readSome(ByteBuffer into) throws IOException {
        return channel.read(into);
    }

    @Override
    protected void closeSource() throws IOException {
        channel.close();
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public String toString() {
        return "PathContent[" + file + ", " + length + " bytes]";
    }
}
