package io.wharf.websocket.core;

import java.nio.ByteBuffer;

/**
 * Writes WebSocket frame headers (RFC 6455 section 5.2) and masks payloads: a client's frames
 * carry a fresh 4-byte mask from a strong random source and their payload is masked; a server's
 * are not masked. Lengths use the shortest form. Refuses what the protocol forbids a sender:
 * a fragmented or over-long control frame, an unknown opcode.
 *
 * <p>Buffers: the header goes into the caller's buffer ({@value #MAX_HEADER_SIZE} bytes at most);
 * a client's payload is masked into a buffer the caller gives, so the application's stays as
 * it was. One per connection, used by the writing thread.
 */
public final class FrameGenerator {

    /** The largest header: 2 bytes, a 64-bit length and a mask. */
    public static final int MAX_HEADER_SIZE = 14;

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    private final boolean client;
    private final byte[] mask = new byte[4];

    /** @param client whether frames are sent by a client (masked) or a server (not) */
    public FrameGenerator(boolean client) {
        this.client = client;
    }

    /**
     * Writes the header of {@code frame} into {@code header} and, for a client, masks the
     * frame's payload into {@code maskedPayload} (which needs room for it; null for a server).
     *
     * @throws IllegalArgumentException for an unknown opcode or a control frame that is
     *     fragmented or longer than 125 bytes
     */
    public void generate(Frame frame, ByteBuffer header, ByteBuffer maskedPayload) {
        byte opcode = frame.opcode();
        int length = frame.payload().remaining();
        if (!OpCode.isKnown(opcode)) {
            throw new IllegalArgumentException("unknown " + OpCode.name(opcode));
        }
        if (OpCode.isControl(opcode) && (!frame.fin() || length > 125)) {
            throw new IllegalArgumentException(OpCode.name(opcode) + " frames are final and at most 125 bytes: " + frame);
        }
        header.put((byte) ((frame.fin() ? 0x80 : 0) | (frame.rsv() & 0b111) << 4 | opcode));
        int maskBit = client ? 0x80 : 0;
        if (length <= 125) {
            header.put((byte) (maskBit | length));
        } else if (length <= 0xFFFF) {
            header.put((byte) (maskBit | 126)).putShort((short) length);
        } else {
            header.put((byte) (maskBit | 127)).putLong(length);
        }
        if (client) {
            RANDOM.nextBytes(mask);
            header.put(mask);
            ByteBuffer payload = frame.payload();
            Masking.xor(payload, payload.position(), maskedPayload, maskedPayload.position(), length, mask, 0);
            maskedPayload.position(maskedPayload.position() + length);
        }
    }
}
