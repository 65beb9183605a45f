package io.wharf.server.handler.resource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.util.List;

import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Writes a response's content from an open file: a list of {@link Part}s, each either bytes
 * already made (a multipart header) or a region of the file, one {@code response.write} per
 * step, the last one with {@code last}. A region is sent in one of two ways:
 * <ul>
 * <li>a region of at least {@code mappingThreshold} bytes of a {@link FileChannel} is mapped
 *     read-only, {@value #MAPPED_SLICE} bytes at a time, and each mapped slice is written as it
 *     is, so the socket write copies straight from the page cache and no byte passes through
 *     a Java buffer;</li>
 * <li>anything else is read into a pooled direct buffer of up to {@code bufferSize} bytes and
 *     written; a file no larger than the buffer is one read and one write.</li>
 * </ul>
 *
 * <p><b>Threads.</b> An {@link IteratingCallback}: {@link #iterate()} starts it on the
 * handler's thread; each step then runs on the thread that completed the previous write. It
 * reads the file, so it is {@link InvocationType#BLOCKING} and never runs on a selector thread.
 *
 * <p><b>Ownership.</b> The writer owns the channel and at most one pooled buffer at a time,
 * held until the write that uses it completes; both are released when the job ends, however it
 * ends. The {@link Part.Bytes} buffers are the caller's, only read. A mapped slice is unmapped
 * by the garbage collector; a file truncated while mapped makes the write fail.
 */
final class FileContentWriter extends IteratingCallback {

    /** The most bytes mapped and written in one step. */
    static final int MAPPED_SLICE = 4 * 1024 * 1024;

    /** One piece of the content. */
    sealed interface Part {
        /** Bytes to write as they are. */
        record Bytes(ByteBuffer buffer) implements Part {
        }

        /** {@code length} bytes of the file from {@code first}. */
        record Region(long first, long length) implements Part {
        }
    }

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final SeekableByteChannel channel;
    private final List<Part> parts;
    private final ByteBufferPool pool;
    private final int bufferSize;
    private final long mappingThreshold;
    private int nextPart;
    private long regionPosition;
    private long regionRemaining;
    private boolean regionMapped;
    private long channelPosition;
    private boolean lastWritten;
    private RetainableByteBuffer buffer;

    /**
     * @param channel the open file, now owned by the writer
     * @param parts what to write, in order
     * @param bufferSize the size of pooled buffers for regions that are read
     * @param mappingThreshold the size from which a region is mapped rather than read
     */
    FileContentWriter(Request request, Response response, Callback callback, SeekableByteChannel channel,
                      List<Part> parts, ByteBufferPool pool, int bufferSize, long mappingThreshold) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.channel = channel;
        this.parts = List.copyOf(parts);
        this.pool = pool;
        this.bufferSize = bufferSize;
        this.mappingThreshold = mappingThreshold;
    }

    @Override
    protected Action process() throws Throwable {
        releaseBuffer();
        while (regionRemaining == 0) {
            if (nextPart == parts.size()) {
                if (lastWritten) {
                    return Action.SUCCEEDED;
                }
                lastWritten = true;
                response.write(true, null, this);
                return Action.SCHEDULED;
            }
            Part part = parts.get(nextPart++);
            switch (part) {
                case Part.Bytes bytes -> {
                    lastWritten = nextPart == parts.size();
                    response.write(lastWritten, bytes.buffer(), this);
                    return Action.SCHEDULED;
                }
                case Part.Region region -> {
                    regionPosition = region.first();
                    regionRemaining = region.length();
                    regionMapped = region.length() >= mappingThreshold && channel instanceof FileChannel;
                }
            }
        }
        ByteBuffer content = regionMapped ? mapSlice() : readSlice();
        regionPosition += content.remaining();
        regionRemaining -= content.remaining();
        lastWritten = regionRemaining == 0 && nextPart == parts.size();
        response.write(lastWritten, content, this);
        return Action.SCHEDULED;
    }

    private ByteBuffer mapSlice() throws IOException {
        long size = Math.min(regionRemaining, MAPPED_SLICE);
        return ((FileChannel) channel).map(FileChannel.MapMode.READ_ONLY, regionPosition, size);
    }

    private ByteBuffer readSlice() throws IOException {
        int size = (int) Math.min(regionRemaining, bufferSize);
        buffer = pool.acquire(size, true);
        ByteBuffer target = buffer.byteBuffer();
        if (channel instanceof FileChannel file) {
            target.clear().limit(size);
            while (target.hasRemaining()) {
                int read = file.read(target, regionPosition + target.position());
                if (read < 0) {
                    throw new IOException("file shrank while it was served: " + request.getPathInContext());
                }
            }
        } else {
            skipTo(target, regionPosition);
            target.clear().limit(size);
            readFully(target);
            channelPosition += size;
        }
        return target.flip();
    }

    /** Reads forward, into the buffer and away, up to {@code position} of a channel that cannot seek. */
    private void skipTo(ByteBuffer scratch, long position) throws IOException {
        while (channelPosition < position) {
            scratch.clear().limit((int) Math.min(scratch.capacity(), position - channelPosition));
            readFully(scratch);
            channelPosition += scratch.limit();
        }
    }

    private void readFully(ByteBuffer target) throws IOException {
        while (target.hasRemaining()) {
            if (channel.read(target) < 0) {
                throw new IOException("file shrank while it was served: " + request.getPathInContext());
            }
        }
    }

    private void releaseBuffer() {
        if (buffer != null) {
            buffer.release();
            buffer = null;
        }
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Nothing was written through it; the content is already sent or failed.
        }
    }

    @Override
    protected void onCompleteSuccess() {
        releaseBuffer();
        closeChannel();
        callback.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        releaseBuffer();
        closeChannel();
        if (response.isCommitted()) {
            callback.failed(cause);
        } else {
            Response.writeError(request, response, callback, 500, null, cause);
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.BLOCKING;
    }
}
