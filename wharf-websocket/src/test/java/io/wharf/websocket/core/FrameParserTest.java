package io.wharf.websocket.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The frame parser and generator against RFC 6455's examples, every split, round trips and hostile frames. */
class FrameParserTest {

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    /** Parses {@code wire} fed in pieces of {@code piece} bytes (0: all at once), copying each payload out. */
    private static List<String> parseAll(FrameParser parser, byte[] wire, int piece) {
        List<String> frames = new ArrayList<>();
        int at = 0;
        while (at < wire.length) {
            int size = piece == 0 ? wire.length : Math.min(piece, wire.length - at);
            ByteBuffer buffer = ByteBuffer.wrap(wire, at, size);
            Frame frame;
            while ((frame = parser.parse(buffer)) != null) {
                frames.add(OpCode.name(frame.opcode()) + (frame.fin() ? "" : "…") + ":" + StandardCharsets.ISO_8859_1.decode(frame.payload()));
            }
            assertFalse(buffer.hasRemaining());
            at += size;
        }
        return frames;
    }

    @Test
    void theExamplesOfRfc6455Section57() {
        // A single-frame unmasked text message, from a server.
        assertEquals(List.of("TEXT:Hello"), parseAll(new FrameParser(false, 1 << 20), bytes(0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f), 0));
        // A single-frame masked text message, from a client.
        assertEquals(List.of("TEXT:Hello"), parseAll(new FrameParser(true, 1 << 20),
                bytes(0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58), 0));
        // A fragmented unmasked text message.
        assertEquals(List.of("TEXT…:Hel", "CONTINUATION:lo"), parseAll(new FrameParser(false, 1 << 20),
                bytes(0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f), 0));
        // Unmasked ping, masked pong.
        assertEquals(List.of("PING:Hello"), parseAll(new FrameParser(false, 1 << 20), bytes(0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f), 0));
        assertEquals(List.of("PONG:Hello"), parseAll(new FrameParser(true, 1 << 20),
                bytes(0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58), 0));
        // 256 bytes and 64 KiB of binary in single unmasked frames: 16-bit and 64-bit lengths.
        for (int size : new int[] {256, 65536}) {
            ByteBuffer wire = ByteBuffer.allocate(size + 10);
            wire.put((byte) 0x82);
            if (size == 256) {
                wire.put((byte) 0x7E).putShort((short) 256);
            } else {
                wire.put((byte) 0x7F).putLong(65536);
            }
            for (int i = 0; i < size; i++) {
                wire.put((byte) i);
            }
            wire.flip();
            Frame frame = new FrameParser(false, 1 << 20).parse(wire);
            assertEquals(OpCode.BINARY, frame.opcode());
            assertEquals(size, frame.payload().remaining());
            assertEquals((byte) 255, frame.payload().get(frame.payload().position() + 255));
        }
    }

    @Test
    void textThatTurnsInvalidFailsBeforeItsFrameIsWhole() {
        // Autobahn 6.4.3: one unmasked text frame of 19 bytes arriving in chops; its 13th byte
        // (0xF4 0x90: above U+10FFFF) is bad. The parser fails on the chop that holds it.
        byte[] text = {(byte) 0xCE, (byte) 0xBA, (byte) 0xE1, (byte) 0xBD, (byte) 0xB9, (byte) 0xCF, (byte) 0x83, (byte) 0xCE,
            (byte) 0xBC, (byte) 0xCE, (byte) 0xB5, (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, 'e', 'd', 'i', 't'};
        byte[] wire = new byte[2 + text.length];
        wire[0] = (byte) 0x81;
        wire[1] = (byte) text.length;
        System.arraycopy(text, 0, wire, 2, text.length);
        FrameParser parser = new FrameParser(false, 1 << 20);
        assertNull(parser.parse(ByteBuffer.wrap(wire, 0, 2 + 11)), "the first chop is valid so far");
        ProtocolException bad = assertThrows(ProtocolException.class, () -> parser.parse(ByteBuffer.wrap(wire, 13, 2)));
        assertEquals(CloseStatus.BAD_DATA, bad.getStatus());
        // A character split across frames of one message is fine; one left unfinished at its end is not.
        FrameParser split = new FrameParser(false, 1 << 20);
        assertEquals(List.of("TEXT…:\u00ce", "CONTINUATION:\u00ba"), parseAll(split, bytes(0x01, 0x01, 0xCE, 0x80, 0x01, 0xBA), 1));
        assertThrows(ProtocolException.class, () -> parseAll(new FrameParser(false, 1 << 20), bytes(0x81, 0x01, 0xCE), 1));
        // Compressed text (RSV1) is checked after inflation, not here; binary never.
        FrameParser deflate = new FrameParser(false, 1 << 20);
        deflate.setAllowedRsv(0b100);
        assertEquals(List.of("TEXT:\u00ff"), parseAll(deflate, bytes(0xC1, 0x01, 0xFF), 0));
        assertEquals(List.of("BINARY:\u00ff"), parseAll(new FrameParser(false, 1 << 20), bytes(0x82, 0x01, 0xFF), 0));
    }

    @Test
    void everySplitGivesTheSameFrames() {
        byte[] wire = bytes(0x01, 0x83, 1, 2, 3, 4, 'H' ^ 1, 'e' ^ 2, 'l' ^ 3,
                0x89, 0x82, 9, 9, 9, 9, 'p' ^ 9, 'g' ^ 9,
                0x80, 0x82, 5, 6, 7, 8, 'l' ^ 5, 'o' ^ 6,
                0x82, 0x80, 0, 0, 0, 0);
        List<String> expected = List.of("TEXT…:Hel", "PING:pg", "CONTINUATION:lo", "BINARY:");
        for (int piece = 1; piece <= wire.length; piece++) {
            assertEquals(expected, parseAll(new FrameParser(true, 1 << 20), wire.clone(), piece), "pieces of " + piece);
        }
    }

    @Test
    void generatedFramesParseBackWithAnySplit() {
        Random random = new Random(11);
        for (boolean client : new boolean[] {true, false}) {
            FrameGenerator generator = new FrameGenerator(client);
            FrameParser parser = new FrameParser(client, 1 << 20);
            for (int round = 0; round < 200; round++) {
                int size = switch (round % 4) {
                    case 0 -> random.nextInt(126);
                    case 1 -> 126 + random.nextInt(65536 - 126);
                    case 2 -> 65536 + random.nextInt(200_000);
                    default -> 0;
                };
                byte[] payload = new byte[size];
                random.nextBytes(payload);
                ByteBuffer header = ByteBuffer.allocate(FrameGenerator.MAX_HEADER_SIZE);
                ByteBuffer masked = client ? ByteBuffer.allocate(size) : null;
                generator.generate(Frame.of(OpCode.BINARY, ByteBuffer.wrap(payload)), header, masked);
                ByteBuffer wire = ByteBuffer.allocate(header.position() + size).put(header.flip())
                        .put(client ? masked.flip() : ByteBuffer.wrap(payload));
                wire.flip();
                int split = wire.remaining() == 0 ? 0 : random.nextInt(wire.remaining());
                Frame received = parser.parse(wire.slice(0, split));
                if (received == null) {
                    received = parser.parse(wire.slice(split, wire.remaining() - split));
                }
                byte[] got = new byte[received.payload().remaining()];
                received.payload().get(got);
                assertArrayEquals(payload, got, "round " + round + " client=" + client);
            }
        }
    }

    static Stream<Arguments> hostileFrames() {
        return Stream.of(
                Arguments.of("unknown opcode 3", false, bytes(0x83, 0x00), 1002, "unknown opcode 3"),
                Arguments.of("reserved opcode 11", false, bytes(0x8B, 0x00), 1002, "unknown opcode 11"),
                Arguments.of("RSV1 without an extension", false, bytes(0xC1, 0x00), 1002, "reserved bits 100"),
                Arguments.of("RSV3 without an extension", false, bytes(0x91, 0x00), 1002, "reserved bits 1"),
                Arguments.of("fragmented ping", false, bytes(0x09, 0x00), 1002, "fragmented PING"),
                Arguments.of("ping of 126 bytes", false, bytes(0x89, 0x7E, 0x00, 0x7E), 1002, "longer than 125"),
                Arguments.of("close of 126 bytes", false, bytes(0x88, 0x7E), 1002, "longer than 125"),
                Arguments.of("unmasked from a client", true, bytes(0x81, 0x00), 1002, "unmasked frame from a client"),
                Arguments.of("masked from a server", false, bytes(0x81, 0x80, 1, 2, 3, 4), 1002, "masked frame from a server"),
                Arguments.of("64-bit length with its top bit", false, bytes(0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0), 1002, "top bit"),
                Arguments.of("2^63-1 bytes", false, bytes(0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF), 1009, "above the maximum"),
                Arguments.of("one byte over the maximum", false, bytes(0x82, 0x7E, 0x04, 0x01), 1009, "frame of 1025 bytes"),
                Arguments.of("continuation without a message", false, bytes(0x80, 0x00), 1002, "without a message under way"),
                Arguments.of("text inside a fragmented message", false, bytes(0x01, 0x01, 'a', 0x81, 0x01, 'b'), 1002, "while a fragmented message"),
                Arguments.of("binary inside a fragmented message", false, bytes(0x02, 0x00, 0x82, 0x00), 1002, "while a fragmented message"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileFrames")
    void hostileFramesAreRefusedWithTheirStatus(String name, boolean fromClient, byte[] wire, int status, String words) {
        FrameParser parser = new FrameParser(fromClient, 1024);
        ProtocolException refused = assertThrows(ProtocolException.class, () -> parseAll(parser, wire, 1));
        assertEquals(status, refused.getStatus(), refused.getMessage());
        assertTrue(refused.getMessage().contains(words), refused.getMessage());
    }

    @Test
    void controlFramesMayComeInsideAFragmentedMessage() {
        assertEquals(List.of("TEXT…:a", "PING:", "PONG:x", "CONTINUATION:b"), parseAll(new FrameParser(false, 1024),
                bytes(0x01, 0x01, 'a', 0x89, 0x00, 0x8A, 0x01, 'x', 0x80, 0x01, 'b'), 0));
    }

    @Test
    void reservedBitsPassWhenAnExtensionAllowsThem() {
        FrameParser parser = new FrameParser(false, 1024);
        parser.setAllowedRsv(0b100);
        Frame frame = parser.parse(ByteBuffer.wrap(bytes(0xC1, 0x01, 'z')));
        assertEquals(0b100, frame.rsv());
        ProtocolException continuation = assertThrows(ProtocolException.class,
                () -> new FrameParser(false, 1024).parse(ByteBuffer.wrap(bytes(0x41, 0x01, 'z'))));
        assertEquals(1002, continuation.getStatus());
    }

    @Test
    void aTooBigFrameIsRefusedFromItsHeaderAlone() {
        FrameParser parser = new FrameParser(false, 1 << 20);
        // The header announces 2^31 bytes and none follows: refused before anything is kept.
        ProtocolException refused = assertThrows(ProtocolException.class,
                () -> parser.parse(ByteBuffer.wrap(bytes(0x82, 0x7F, 0, 0, 0, 0, 0x80, 0, 0, 0))));
        assertEquals(1009, refused.getStatus());
        assertNull(new FrameParser(false, 1 << 20).parse(ByteBuffer.wrap(bytes(0x82, 0x7E))), "a partial header waits");
    }

    @Test
    void theGeneratorRefusesWhatASenderMayNotSend() {
        FrameGenerator generator = new FrameGenerator(false);
        ByteBuffer header = ByteBuffer.allocate(FrameGenerator.MAX_HEADER_SIZE);
        assertThrows(IllegalArgumentException.class, () -> generator.generate(new Frame(false, 0, OpCode.PING, ByteBuffer.allocate(0)), header, null));
        assertThrows(IllegalArgumentException.class, () -> generator.generate(Frame.of(OpCode.CLOSE, ByteBuffer.allocate(126)), header, null));
        assertThrows(IllegalArgumentException.class, () -> generator.generate(Frame.of((byte) 3, ByteBuffer.allocate(0)), header, null));
    }
}
