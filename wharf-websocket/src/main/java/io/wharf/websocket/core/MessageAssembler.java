package io.wharf.websocket.core;

import java.nio.ByteBuffer;

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
 * <p>One per connection, used by its reading thread only.
 */
final class MessageAssembler {

    /** The kind of message under way. */
    private enum State {
        IDLE, TEXT, BINARY
    }

    /** A whole message: its opcode (TEXT or BINARY) and payload. */
    record Message(byte opcode, ByteBuffer payload) {
    }

    private final ByteBufferPool pool;
    private final int maxText;
    private final int maxBinary;
    private final Utf8Validator utf8 = new Utf8Validator();
    private State state = State.IDLE;
    private RetainableByteBuffer gathered;

    MessageAssembler(ByteBufferPool pool, int maxText, int maxBinary) {
        this.pool = pool;
        this.maxText = maxText;
        this.maxBinary = maxBinary;
    }

    /**
     * @param frame a data frame (TEXT, BINARY or CONTINUATION), its order already checked by the parser
     * @return the whole message when {@code frame} ends one, else null
     * @throws ProtocolException 1009 past a limit, 1007 for text that is not UTF-8
     */
    Message accept(Frame frame) {
        if (frame.opcode() != OpCode.CONTINUATION) {
            state = frame.opcode() == OpCode.TEXT ? State.TEXT : State.BINARY;
            utf8.reset();
        }
        ByteBuffer payload = frame.payload();
        boolean text = state == State.TEXT;
        int limit = text ? maxText : maxBinary;
        long size = (long) (gathered == null ? 0 : gathered.remaining()) + payload.remaining();
        if (size > limit) {
            throw new ProtocolException(CloseStatus.MESSAGE_TOO_BIG,
                (text ? "text" : "binary") + " message of more than " + limit + " bytes");
        }
        if (text && (!utf8.accept(payload.duplicate()) || frame.fin() && !utf8.isComplete())) {
            throw new ProtocolException(CloseStatus.BAD_DATA, "text message is not valid UTF-8");
        }
        byte opcode = text ? OpCode.TEXT : OpCode.BINARY;
        if (frame.fin() && gathered == null) {
            state = State.IDLE;
            return new Message(opcode, payload);
        }
        append(payload, (int) size);
        if (!frame.fin()) {
            return null;
        }
        state = State.IDLE;
        return new Message(opcode, gathered.byteBuffer().asReadOnlyBuffer());
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
