package io.wharf.websocket.core;

import java.nio.ByteBuffer;

/**
 * One WebSocket frame (RFC 6455 section 5.2), its payload unmasked. A parsed frame's payload
 * may be a slice of the network buffer it came in, valid until the next parse; copy or retain
 * what must outlive it.
 *
 * @param fin whether it is the last fragment of its message
 * @param rsv the three reserved bits, {@code RSV1 RSV2 RSV3} as bits 2, 1 and 0 (RSV1 marks a
 *     compressed message under permessage-deflate)
 * @param opcode one of {@link OpCode}
 * @param payload the application data, unmasked, from its position to its limit
 */
public record Frame(boolean fin, int rsv, byte opcode, ByteBuffer payload) {

    /** @return a final frame without reserved bits */
    public static Frame of(byte opcode, ByteBuffer payload) {
        return new Frame(true, 0, opcode, payload);
    }

    public boolean isControl() {
        return OpCode.isControl(opcode);
    }

    @Override
    public String toString() {
        return "Frame[" + OpCode.name(opcode) + (fin ? ",fin" : "") + (rsv != 0 ? ",rsv=" + rsv : "") + "," + payload.remaining() + " bytes]";
    }
}
