package io.wharf.websocket.core;

import java.nio.ByteBuffer;

/**
 * Reads WebSocket frames (RFC 6455 section 5) from bytes that arrive in any split: one
 * {@link #parse} call returns the next whole frame, or null when the buffer ran out first.
 * Checked here, each with its close status: the opcode is known (1002); reserved bits only as
 * the extensions allow (1002); control frames are final and at most 125 bytes (1002); frames are
 * masked when they come from a client and not when from a server (1002); a 64-bit length has
 * its top bit clear (1002); the length is within the maximum frame size, checked from the header
 * before any byte of payload is kept (1009); continuation frames continue a message and data
 * frames do not interrupt one (1002); the text of a message that is not compressed is UTF-8
 * (1007), checked as its bytes arrive, so a frame that turns invalid fails before its end.
 *
 * <p><b>Buffers.</b> When a frame's payload lies whole in the buffer given, the frame's payload
 * is a slice of it, unmasked in place: valid until the caller lets the buffer go. A payload that
 * spans buffers is copied into a heap buffer of its own, as long as the frame (so bounded by the
 * maximum frame size). One parser per connection, used by its reading thread.
 */
public final class FrameParser {

    private enum State {
        HEADER, PAYLOAD
    }

    private final boolean fromClient;
    private final long maxFrameSize;
    private int allowedRsv;
    private State state = State.HEADER;
    /** The header bytes received so far (2 to 14). */
    private final byte[] header = new byte[14];
    private int headerLength;
    private boolean messageUnderWay;
    private boolean fin;
    private int rsv;
    private byte opcode;
    private boolean masked;
    private final byte[] mask = new byte[4];
    private long payloadLength;
    private ByteBuffer aggregate;
    /** The text of the message under way, when it is text and not compressed (RSV1). */
    private final Utf8Validator text = new Utf8Validator();
    private boolean checkingText;

    /**
     * @param fromClient whether the frames come from a client (a server's parser: they must be
     *     masked) or from a server (a client's parser: they must not be)
     * @param maxFrameSize the largest payload accepted, in bytes
     */
    public FrameParser(boolean fromClient, long maxFrameSize) {
        if (maxFrameSize < 125) {
            throw new IllegalArgumentException("the maximum frame size must hold a control frame (125 bytes): " + maxFrameSize);
        }
        this.fromClient = fromClient;
        this.maxFrameSize = maxFrameSize;
    }

    /** Allows reserved bits, as negotiated extensions define them ({@code 0b100} for permessage-deflate's RSV1). */
    public void setAllowedRsv(int bits) {
        this.allowedRsv = bits & 0b111;
    }

    /**
     * @return the next whole frame, its bytes consumed from {@code buffer}; or null when every
     *     byte was consumed and the frame is not complete yet
     * @throws ProtocolException with the close status, at the first byte that breaks a rule;
     *     the connection must then close, nothing more is parsed
     */
    public Frame parse(ByteBuffer buffer) {
        while (true) {
            if (state == State.HEADER) {
                if (!readHeader(buffer)) {
                    return null;
                }
                state = State.PAYLOAD;
            }
            Frame frame = readPayload(buffer);
            if (frame != null || !buffer.hasRemaining()) {
                return frame;
            }
        }
    }

    private boolean readHeader(ByteBuffer buffer) {
        while (buffer.hasRemaining()) {
            header[headerLength++] = buffer.get();
            if (headerLength == 2) {
                checkFirstBytes();
            }
            if (headerLength >= 2 && headerLength == headerSize()) {
                finishHeader();
                return true;
            }
        }
        return false;
    }

    /** @return the whole header's size, known from its second byte */
    private int headerSize() {
        int length7 = header[1] & 0x7F;
        int extended = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
        return 2 + extended + ((header[1] & 0x80) != 0 ? 4 : 0);
    }

    private void checkFirstBytes() {
        fin = (header[0] & 0x80) != 0;
        rsv = (header[0] >> 4) & 0b111;
        opcode = (byte) (header[0] & 0x0F);
        masked = (header[1] & 0x80) != 0;
        int length7 = header[1] & 0x7F;
        if (!OpCode.isKnown(opcode)) {
            throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, "unknown " + OpCode.name(opcode));
        }
        if ((rsv & ~allowedRsv) != 0) {
            throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, "reserved bits " + Integer.toBinaryString(rsv) + " set without an extension");
        }
        if (OpCode.isControl(opcode)) {
            if (!fin) {
                throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, "fragmented " + OpCode.name(opcode) + " frame");
            }
            if (length7 > 125) {
                throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, OpCode.name(opcode) + " frame longer than 125 bytes");
            }
            if (rsv != 0) {
                throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, "reserved bits on a " + OpCode.name(opcode) + " frame");
            }
        } else if (opcode == OpCode.CONTINUATION) {
            if (!messageUnderWay) {
                throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, "continuation frame without a message under way");
            }
            if (rsv != 0) {
                throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, "reserved bits on a continuation frame");
            }
        } else if (messageUnderWay) {
            throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, OpCode.name(opcode) + " frame while a fragmented message is under way");
        }
        if (masked != fromClient) {
            throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, fromClient ? "unmasked frame from a client" : "masked frame from a server");
        }
    }

    private void finishHeader() {
        int length7 = header[1] & 0x7F;
        int at = 2;
        if (length7 == 126) {
            payloadLength = ((header[2] & 0xFF) << 8) | (header[3] & 0xFF);
            at = 4;
        } else if (length7 == 127) {
            if ((header[2] & 0x80) != 0) {
                throw new ProtocolException(CloseStatus.PROTOCOL_ERROR, "64-bit frame length with its top bit set");
            }
            payloadLength = 0;
            for (int i = 2; i < 10; i++) {
                payloadLength = (payloadLength << 8) | (header[i] & 0xFF);
            }
            at = 10;
        } else {
            payloadLength = length7;
        }
        if (payloadLength > maxFrameSize) {
            throw new ProtocolException(CloseStatus.MESSAGE_TOO_BIG, "frame of " + payloadLength + " bytes, above the maximum of " + maxFrameSize);
        }
        if (masked) {
            System.arraycopy(header, at, mask, 0, 4);
        }
        if (!OpCode.isControl(opcode)) {
            messageUnderWay = !fin;
            if (opcode != OpCode.CONTINUATION) {
                checkingText = opcode == OpCode.TEXT && (rsv & 0b100) == 0;
                text.reset();
            }
        }
    }

    /** @return the frame once its payload is all here, else null (every byte of the buffer kept) */
    private Frame readPayload(ByteBuffer buffer) {
        int length = (int) payloadLength;
        if (aggregate == null && buffer.remaining() >= length) {
            ByteBuffer payload = buffer.slice(buffer.position(), length);
            buffer.position(buffer.position() + length);
            if (masked) {
                Masking.xor(payload, 0, payload, 0, length, mask, 0);
            }
            checkText(payload.duplicate(), true);
            return frame(payload);
        }
        if (aggregate == null) {
            aggregate = ByteBuffer.allocate(length);
        }
        int start = aggregate.position();
        int count = Math.min(buffer.remaining(), aggregate.remaining());
        aggregate.put(aggregate.position(), buffer, buffer.position(), count);
        buffer.position(buffer.position() + count);
        aggregate.position(start + count);
        if (masked) {
            Masking.xor(aggregate, start, aggregate, start, count, mask, start);
        }
        checkText(aggregate.slice(start, count), !aggregate.hasRemaining());
        if (aggregate.hasRemaining()) {
            return null;
        }
        ByteBuffer payload = aggregate.flip();
        aggregate = null;
        return frame(payload);
    }

    /** Checks the text bytes of a data frame that just arrived; {@code frameEnd} when they end the frame. */
    private void checkText(ByteBuffer bytes, boolean frameEnd) {
        if (!checkingText || OpCode.isControl(opcode)) {
            return;
        }
        if (!text.accept(bytes) || frameEnd && fin && !text.isComplete()) {
            throw new ProtocolException(CloseStatus.BAD_DATA, "text message is not valid UTF-8");
        }
    }

    private Frame frame(ByteBuffer payload) {
        Frame frame = new Frame(fin, rsv, opcode, payload);
        state = State.HEADER;
        headerLength = 0;
        return frame;
    }

}
