package io.wharf.websocket.core;

import java.nio.ByteBuffer;
import java.util.function.IntPredicate;

import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Joins the data frames of one message (RFC 6455 section 5.4) and enforces the message limits:
 * the size of a message is checked as each fragment arrives, before it is copied (1009), and a
 * text message's bytes are checked as UTF-8 fragment by fragment, failing at the first bad
 * byte (1007) rather than at the end of the message.
 *
 * <p><b>Buffers.</b> A message in one frame is handed on as the frame's own payload, not copied.
 * A fragmented one is gathered in a buffer from the pool that grows (by doubling, up to the
 * limit) as fragments arrive; the message returned is a view of it, valid until
 * {@link #release()}, which the reader calls once the application is done with the message.
 * Nothing is held between messages.
 *
 * <p><b>Streamed messages.</b> When the {@code streamed} test says so for a message's opcode,
 * its frames are not joined: each comes back as it arrives ({@link Message#last()} on the
 * final one), limits and UTF-8 still checked over the whole message. Such a fragment is the
 * frame's payload; one gathered from several extension outputs ({@link #acceptCopy}) lives in
 * the pooled buffer until {@link #release()}. So a streamed message of any size costs at
 * most one frame of memory.
 *
 * <p>One per connection, used by its reading thread only.
 */
final class MessageAssembler {

    /** The kind of message under way. */
    private enum State {
        IDLE, TEXT, BINARY
    }

    /**
     * A whole message, or one fragment of a streamed message.
     *
     * @param opcode TEXT or BINARY (the message's, also for its continuation fragments)
     * @param payload the bytes, valid until the next call or {@link #release()}
     * @param last whether it ends the message (always true for a whole message)
     * @param streamed whether it is a fragment of a streamed message
     */
    record Message(byte opcode, ByteBuffer payload, boolean last, boolean streamed) {
        Message(byte opcode, ByteBuffer payload) {
            this(opcode, payload, true, false);
        }
    }

    private final ByteBufferPool pool;
    private final int maxText;
    private final int maxBinary;
    private final IntPredicate streamed;
    private final Utf8Validator utf8 = new Utf8Validator();
    private State state = State.IDLE;
    /** Whether the message under way is streamed. */
    private boolean streaming;
    /** The bytes of the message under way so far. */
    private long size;
    private RetainableByteBuffer gathered;

    MessageAssembler(ByteBufferPool pool, int maxText, int maxBinary) {
        this(pool, maxText, maxBinary, opcode -> false);
    }

    /** @param streamed which messages (by opcode, TEXT or BINARY) are handed on frame by frame */
    MessageAssembler(ByteBufferPool pool, int maxText, int maxBinary, IntPredicate streamed) {
        this.pool = pool;
        this.maxText = maxText;
        this.maxBinary = maxBinary;
        this.streamed = streamed;
    }

    /**
     * @param frame a data frame (TEXT, BINARY or CONTINUATION), its order already checked by the parser
     * @return the whole message when {@code frame} ends one, the frame itself as a fragment
     *     when its message is streamed, else null
     * @throws ProtocolException 1009 past a limit, 1007 for text that is not UTF-8
     */
    Message accept(Frame frame) {
        return whole(frame, check(frame));
    }

    private Message whole(Frame frame, byte opcode) {
        ByteBuffer payload = frame.payload();
        if (streaming || frame.fin() && gathered == null) {
            if (frame.fin()) {
                state = State.IDLE;
            }
            return new Message(opcode, payload, frame.fin(), streaming);
        }
        append(payload, (int) size);
        if (!frame.fin()) {
            return null;
        }
        state = State.IDLE;
        return new Message(opcode, gathered.byteBuffer().asReadOnlyBuffer());
    }

    /**
     * Like {@link #accept} for a frame an extension produced, valid only during this call: a
     * streamed fragment is copied after what earlier outputs of the same incoming frame left
     * in the pooled buffer, so the last fragment returned holds them all (until {@link #release()}).
     */
    Message acceptCopy(Frame frame) {
        byte opcode = check(frame);
        if (!streaming) {
            return whole(frame, opcode);
        }
        int held = gathered == null ? 0 : gathered.remaining();
        append(frame.payload(), held + frame.payload().remaining());
        if (frame.fin()) {
            state = State.IDLE;
        }
        return new Message(opcode, gathered.byteBuffer().asReadOnlyBuffer(), frame.fin(), true);
    }

    /** Starts a message at its first frame, checks the limit and the UTF-8; @return the message's opcode */
    private byte check(Frame frame) {
        if (frame.opcode() != OpCode.CONTINUATION) {
            state = frame.opcode() == OpCode.TEXT ? State.TEXT : State.BINARY;
            streaming = streamed.test(frame.opcode());
            size = 0;
            utf8.reset();
        }
        ByteBuffer payload = frame.payload();
        boolean text = state == State.TEXT;
        int limit = text ? maxText : maxBinary;
        size += payload.remaining();
        if (size > limit) {
            throw new ProtocolException(CloseStatus.MESSAGE_TOO_BIG,
                (text ? "text" : "binary") + " message of more than " + limit + " bytes");
        }
        if (text && (!utf8.accept(payload.duplicate()) || frame.fin() && !utf8.isComplete())) {
            throw new ProtocolException(CloseStatus.BAD_DATA, "text message is not valid UTF-8");
        }
        return text ? OpCode.TEXT : OpCode.BINARY;
    }

    private void append(ByteBuffer payload, int size) {
        if (gathered == null || gathered.capacity() < size) {
            int capacity = Math.max(size, gathered == null ? 1024 : Math.min(Math.max(maxText, maxBinary), gathered.capacity() * 2));
            RetainableByteBuffer bigger = pool.acquire(capacity, false);
            if (gathered != null) {
                ByteBuffer target = bigger.byteBuffer();
                target.limit(gathered.remaining()).put(0, gathered.byteBuffer(), gathered.byteBuffer().position(), gathered.remaining());
                gathered.release();
            }
            gathered = bigger;
        }
        ByteBuffer target = gathered.byteBuffer();
        int at = target.limit();
        target.limit(at + payload.remaining());
        target.put(at, payload, payload.position(), payload.remaining());
    }

    /** Lets the last message's buffer go (and any part-gathered message): back to the pool. */
    void release() {
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
    }

    /** @return whether a fragmented message is being gathered */
    boolean isGathering() {
        return state != State.IDLE;
    }
}
