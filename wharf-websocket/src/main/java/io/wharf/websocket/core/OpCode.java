package io.wharf.websocket.core;

/**
 * The frame opcodes of RFC 6455 section 5.2 (values 3-7 and 11-15 are reserved and refused).
 * Control frames (close, ping, pong) have the high bit set.
 */
public final class OpCode {

    public static final byte CONTINUATION = 0x0;
    public static final byte TEXT = 0x1;
    public static final byte BINARY = 0x2;
    public static final byte CLOSE = 0x8;
    public static final byte PING = 0x9;
    public static final byte PONG = 0xA;

    private OpCode() {
    }

    /** @return whether {@code opcode} is one RFC 6455 defines */
    public static boolean isKnown(byte opcode) {
        return switch (opcode) {
            case CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG -> true;
            default -> false;
        };
    }

    /** @return whether {@code opcode} is a control frame's (close, ping, pong, or reserved 11-15) */
    public static boolean isControl(byte opcode) {
        return (opcode & 0x08) != 0;
    }

    /** @return a name for messages: TEXT, BINARY... or the number */
    public static String name(byte opcode) {
        return switch (opcode) {
            case CONTINUATION -> "CONTINUATION";
            case TEXT -> "TEXT";
            case BINARY -> "BINARY";
            case CLOSE -> "CLOSE";
            case PING -> "PING";
            case PONG -> "PONG";
            default -> "opcode " + opcode;
        };
    }
}
