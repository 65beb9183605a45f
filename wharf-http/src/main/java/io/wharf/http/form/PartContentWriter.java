package io.wharf.http.form;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;

/**
 * Collects the content of one part while it is parsed: in a byte array up to the spool
 * threshold, then in a temporary file in the spool directory (the array's bytes first). The
 * part's size limit is checked before each write, so a part that passes it fails before its
 * bytes are stored.
 *
 * <p>Used by one {@link MultiPartFormParser} on its parsing thread. Spooling does blocking file
 * I/O on that thread. The writer copies what it is given and keeps no chunk; it owns its spool
 * file until {@link #finish()} hands it to a part, or {@link #discard()} deletes it.
 */
final class PartContentWriter implements DelimiterSearch.ContentSink {

    private static final int WRITE_BUFFER_BYTES = 8192;
    private static final byte[] NO_BYTES = new byte[0];

    private final int spoolThreshold;
    private final Path spoolDirectory;
    private final long maxBytes;
    private final String limitName;
    private byte[] memory = NO_BYTES;
    private long length;
    private Path file;
    private FileChannel channel;
    private ByteBuffer writeBuffer;

    /**
     * @param spoolThreshold the most bytes kept in memory
     * @param spoolDirectory where to spool, or null to fail a part that passes the threshold
     * @param maxBytes the most bytes of the part, or -1 for no limit
     * @param limitName the name of that limit, for the failure reason
     */
    PartContentWriter(int spoolThreshold, Path spoolDirectory, long maxBytes, String limitName) {
        this.spoolThreshold = spoolThreshold;
        this.spoolDirectory = spoolDirectory;
        this.maxBytes = maxBytes;
        this.limitName = limitName;
    }

    @Override
    public void content(byte[] bytes, int offset, int count) {
        if (count == 0) {
            return;
        }
        admit(count);
        if (channel == null) {
            System.arraycopy(bytes, offset, memory, (int) length, count);
        } else {
            write(ByteBuffer.wrap(bytes, offset, count));
        }
        length += count;
    }

    @Override
    public void content(ByteBuffer chunk, int from, int to) {
        int count = to - from;
        if (count == 0) {
            return;
        }
        admit(count);
        if (channel == null) {
            chunk.get(from, memory, (int) length, count);
        } else {
            write(chunk.slice(from, count));
        }
        length += count;
    }

    /** @return the bytes collected so far */
    long length() {
        return length;
    }

    /**
     * Ends the part: flushes and closes the spool file, or trims the array.
     *
     * @return where the content now lives; the caller owns it
     */
    PartContent finish() {
        if (channel == null) {
            byte[] bytes = memory.length == length ? memory : Arrays.copyOf(memory, (int) length);
            memory = NO_BYTES;
            return new PartContent.InMemory(bytes);
        }
        try {
            flush();
            channel.close();
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot write a spooled part to " + file, failure);
        }
        channel = null;
        PartContent content = new PartContent.TemporaryFile(file);
        file = null;
        return content;
    }

    /** Drops the content and deletes the spool file, if any; never fails. */
    void discard() {
        memory = NO_BYTES;
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the file is deleted next; nothing else to do
            }
            channel = null;
        }
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // best effort: a failed parse must not hide its cause behind a cleanup error
            }
            file = null;
        }
    }

    private void admit(int count) {
        long total = length + count;
        if (maxBytes >= 0 && total > maxBytes) {
            throw new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413,
                    "multipart part exceeds " + limitName + " " + maxBytes);
        }
        if (channel != null) {
            return;
        }
        if (total > spoolThreshold) {
            startSpooling();
        } else if (total > memory.length) {
            long capacity = Math.max(256, Math.max(total, memory.length * 2L));
            memory = Arrays.copyOf(memory, (int) Math.min(capacity, spoolThreshold));
        }
    }

    private void startSpooling() {
        if (spoolDirectory == null) {
            throw new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413,
                    "multipart part exceeds spoolThresholdBytes " + spoolThreshold + " and no spool directory is set");
        }
        try {
            file = Files.createTempFile(spoolDirectory, "wharf-part-", ".tmp");
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
            writeBuffer = ByteBuffer.allocate(WRITE_BUFFER_BYTES);
            write(ByteBuffer.wrap(memory, 0, (int) length));
            memory = NO_BYTES;
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot spool a part to " + spoolDirectory, failure);
        }
    }

    private void write(ByteBuffer source) {
        try {
            if (source.remaining() > writeBuffer.remaining()) {
                flush();
                if (source.remaining() >= writeBuffer.capacity()) {
                    writeFully(source);
                    return;
                }
            }
            writeBuffer.put(source);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot write a spooled part to " + file, failure);
        }
    }

    private void flush() throws IOException {
        writeBuffer.flip();
        writeFully(writeBuffer);
        writeBuffer.clear();
    }

    private void writeFully(ByteBuffer source) throws IOException {
        while (source.hasRemaining()) {
            channel.write(source);
        }
    }
}
