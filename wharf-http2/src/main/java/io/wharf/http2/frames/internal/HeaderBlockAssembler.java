package io.wharf.http2.frames.internal;

import java.nio.ByteBuffer;

import io.wharf.http2.frames.FrameType;
import io.wharf.http2.frames.Priority;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * A header block in pieces: what a HEADERS or PUSH_PROMISE frame without END_HEADERS began, the
 * fragments of the CONTINUATION frames that follow it, and what the first frame said about the
 * stream, until END_HEADERS lets the parser decode the whole block.
 *
 * <p>The fragments are copied into a pooled {@link PayloadBuffer}; the parser bounds the
 * block, so this holds at most that bound. Not thread-safe: owned by one parser.
 */
public final class HeaderBlockAssembler {

    private final PayloadBuffer fragments;
    private FrameType type;
    private int streamId;
    private boolean endStream;
    private Priority priority;
    private int promisedStreamId;

    public HeaderBlockAssembler(ByteBufferPool pool) {
        this.fragments = new PayloadBuffer(pool);
    }

    /** @return whether a block is waiting for its CONTINUATION frames */
    public boolean isOpen() {
        return type != null;
    }

    /**
     * Starts a block with the first fragment.
     *
     * @param type HEADERS or PUSH_PROMISE
     * @param priority the HEADERS frame's priority, or null
     * @param promisedStreamId the PUSH_PROMISE frame's promised stream, else 0
     */
    public void open(FrameType type, int streamId, boolean endStream, Priority priority, int promisedStreamId,
                     ByteBuffer payload, int offset, int length) {
        this.type = type;
        this.streamId = streamId;
        this.endStream = endStream;
        this.priority = priority;
        this.promisedStreamId = promisedStreamId;
        fragments.append(payload, offset, length);
    }

    /** Adds a CONTINUATION fragment. */
    public void append(ByteBuffer payload, int offset, int length) {
        fragments.append(payload, offset, length);
    }

    /** @return the fragments so far, in flush mode; valid until {@link #close()} */
    public ByteBuffer block() {
        return fragments.bytes();
    }

    public FrameType type() {
        return type;
    }

    public int streamId() {
        return streamId;
    }

    public boolean endStream() {
        return endStream;
    }

    public Priority priority() {
        return priority;
    }

    public int promisedStreamId() {
        return promisedStreamId;
    }

    /** Ends the block and gives its buffer back. */
    public void close() {
        type = null;
        streamId = 0;
        priority = null;
        fragments.release();
    }
}
