package io.wharf.websocket.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Joining fragments with limits and UTF-8 checks, under the leak-tracking pool. */
class MessageAssemblerTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private static Frame frame(boolean fin, byte opcode, byte[] bytes) {
        return new Frame(fin, 0, opcode, ByteBuffer.wrap(bytes));
    }

    @Test
    void aWholeMessageIsItsFramesPayloadNotACopy() {
        MessageAssembler assembler = new MessageAssembler(leaks.pool(), 100, 100);
        Frame frame = frame(true, OpCode.BINARY, new byte[] {1, 2, 3});
        assertSame(frame.payload(), assembler.accept(frame).payload());
        assertEquals(0, leaks.pool().outstanding());
    }

    @Test
    void fragmentsAreGatheredInAGrowingPooledBufferReleasedAfterwards() {
        MessageAssembler assembler = new MessageAssembler(leaks.pool(), 10_000, 10_000);
        byte[] piece = new byte[700];
        for (int i = 0; i < piece.length; i++) {
            piece[i] = (byte) ('a' + i % 26);
        }
        assertNull(assembler.accept(frame(false, OpCode.TEXT, piece)));
        for (int i = 0; i < 5; i++) {
            assertNull(assembler.accept(frame(false, OpCode.CONTINUATION, piece)));
        }
        MessageAssembler.Message message = assembler.accept(frame(true, OpCode.CONTINUATION, piece));
        assertEquals(OpCode.TEXT, message.opcode());
        String text = StandardCharsets.UTF_8.decode(message.payload()).toString();
        assertEquals(new String(piece, StandardCharsets.US_ASCII).repeat(7), text);
        assertEquals(1, leaks.pool().outstanding());
        assembler.release();
        assertEquals(0, leaks.pool().outstanding());
    }

    @Test
    void theLimitIsCheckedAtTheFragmentThatCrossesIt() {
        MessageAssembler assembler = new MessageAssembler(leaks.pool(), 1000, 1500);
        assertNull(assembler.accept(frame(false, OpCode.BINARY, new byte[1000])));
        assertNull(assembler.accept(frame(false, OpCode.CONTINUATION, new byte[500])));
        ProtocolException tooBig = assertThrows(ProtocolException.class, () -> assembler.accept(frame(false, OpCode.CONTINUATION, new byte[1])));
        assertEquals(CloseStatus.MESSAGE_TOO_BIG, tooBig.getStatus());
        assembler.release();
        MessageAssembler text = new MessageAssembler(leaks.pool(), 1000, 1500);
        assertThrows(ProtocolException.class, () -> text.accept(frame(true, OpCode.TEXT, new byte[1001])));
    }

    @Test
    void badUtf8FailsAtItsFragmentAndAnUnfinishedCharacterAtTheEnd() {
        MessageAssembler assembler = new MessageAssembler(leaks.pool(), 1000, 1000);
        assertNull(assembler.accept(frame(false, OpCode.TEXT, new byte[] {'a', (byte) 0xE2, (byte) 0x82})));
        ProtocolException bad = assertThrows(ProtocolException.class, () -> assembler.accept(frame(false, OpCode.CONTINUATION, new byte[] {'b'})));
        assertEquals(CloseStatus.BAD_DATA, bad.getStatus());
        assembler.release();
        MessageAssembler unfinished = new MessageAssembler(leaks.pool(), 1000, 1000);
        assertEquals(CloseStatus.BAD_DATA, assertThrows(ProtocolException.class,
            () -> unfinished.accept(frame(true, OpCode.TEXT, new byte[] {'a', (byte) 0xE2, (byte) 0x82}))).getStatus());
        // The euro sign split across three fragments is fine.
        MessageAssembler split = new MessageAssembler(leaks.pool(), 1000, 1000);
        assertNull(split.accept(frame(false, OpCode.TEXT, new byte[] {(byte) 0xE2})));
        assertNull(split.accept(frame(false, OpCode.CONTINUATION, new byte[] {(byte) 0x82})));
        assertEquals("€", StandardCharsets.UTF_8.decode(split.accept(frame(true, OpCode.CONTINUATION, new byte[] {(byte) 0xAC})).payload()).toString());
        split.release();
    }

    @Test
    void aStreamedMessageComesFrameByFrameUncopiedWithTheLimitOverTheWhole() {
        MessageAssembler assembler = new MessageAssembler(leaks.pool(), 1000, 2500, opcode -> opcode == OpCode.BINARY);
        Frame first = frame(false, OpCode.BINARY, new byte[1000]);
        MessageAssembler.Message piece = assembler.accept(first);
        assertSame(first.payload(), piece.payload());
        assertEquals(OpCode.BINARY, piece.opcode());
        assertTrue(piece.streamed());
        assertFalse(piece.last());
        assertEquals(OpCode.BINARY, assembler.accept(frame(false, OpCode.CONTINUATION, new byte[1000])).opcode());
        assertEquals(0, leaks.pool().outstanding());
        ProtocolException tooBig = assertThrows(ProtocolException.class, () -> assembler.accept(frame(true, OpCode.CONTINUATION, new byte[501])));
        assertEquals(CloseStatus.MESSAGE_TOO_BIG, tooBig.getStatus());
        // Text is not streamed here: it is still gathered whole.
        MessageAssembler text = new MessageAssembler(leaks.pool(), 1000, 2500, opcode -> opcode == OpCode.BINARY);
        assertNull(text.accept(frame(false, OpCode.TEXT, new byte[] {'a'})));
        assertFalse(text.accept(frame(true, OpCode.CONTINUATION, new byte[] {'b'})).streamed());
        text.release();
    }

    @Test
    void aStreamedTextIsCheckedAsUtf8AcrossItsFrames() {
        MessageAssembler assembler = new MessageAssembler(leaks.pool(), 1000, 1000, opcode -> true);
        assertFalse(assembler.accept(frame(false, OpCode.TEXT, new byte[] {'a', (byte) 0xE2})).last());
        assertEquals(CloseStatus.BAD_DATA, assertThrows(ProtocolException.class,
            () -> assembler.accept(frame(true, OpCode.CONTINUATION, new byte[] {'b'}))).getStatus());
    }

    @Test
    void extensionOutputsOfOneFrameAreCopiedTogetherAndReleased() {
        MessageAssembler assembler = new MessageAssembler(leaks.pool(), 1000, 1000, opcode -> true);
        assembler.acceptCopy(frame(false, OpCode.BINARY, new byte[] {1, 2}));
        MessageAssembler.Message piece = assembler.acceptCopy(frame(false, OpCode.CONTINUATION, new byte[] {3}));
        assertEquals(3, piece.payload().remaining());
        assertEquals(1, leaks.pool().outstanding());
        assembler.release();
        MessageAssembler.Message last = assembler.acceptCopy(frame(true, OpCode.CONTINUATION, new byte[] {4}));
        assertTrue(last.last());
        assertEquals(4, last.payload().get(0));
        assembler.release();
        assertEquals(0, leaks.pool().outstanding());
    }
}
