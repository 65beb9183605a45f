package io.wharf.websocket.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import io.wharf.util.buffer.LeakTrackingByteBufferPool;
import io.wharf.websocket.deflate.PerMessageDeflateFactory;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz targets for the WebSocket read path (docs/fuzzing.md): the frame parser, the UTF-8
 * validator and permessage-deflate inflation, put together as a connection puts them (parser,
 * then the extension, then the {@link MessageAssembler}), under a leak-tracking pool.
 *
 * <p>{@link #frames}: an input's first octet picks the side (bit 0: frames from a client,
 * masked, read by a server) and whether permessage-deflate was agreed (bit 1); the rest is what
 * the peer sends. What each input must keep:
 * <ul>
 * <li>only {@link ProtocolException} escapes, with a close status the RFC defines for it
 *     (1002, 1007 or 1009); after it nothing more is read;</li>
 * <li>no pooled buffer leaked once the messages are released and the extension closed;</li>
 * <li>the same messages and the same failure whether the bytes come whole or one at a time;</li>
 * <li>bounded: no message larger than its limit, however well it inflates; every text message
 *     is UTF-8 by the JDK's strict decoder;</li>
 * <li>round trip: the frames read, written again by a {@link FrameGenerator} of the same side,
 *     read back the same.</li>
 * </ul>
 *
 * <p>{@link #utf8}: the validator agrees with the JDK's strict UTF-8 decoder on any bytes, fed
 * whole or cut in two anywhere.
 *
 * <p>Seeds: {@code src/test/resources/io/wharf/websocket/core/WebSocketFrameFuzzTestInputs/<method>/}.
 */
class WebSocketFrameFuzzTest {

    private static final int MAX_FRAME = 4096;
    private static final int MAX_MESSAGE = 8192;

    private final LeakTrackingByteBufferPool pool = new LeakTrackingByteBufferPool();

    @FuzzTest
    void frames(byte[] input) {
        if (input.length == 0) {
            return;
        }
        boolean fromClient = (input[0] & 1) == 1;
        boolean deflate = (input[0] & 2) == 2;
        byte[] bytes = Arrays.copyOfRange(input, 1, input.length);
        try {
            ReadPath whole = new ReadPath(fromClient, deflate);
            whole.read(bytes, Math.max(1, bytes.length));
            ReadPath byByte = new ReadPath(fromClient, deflate);
            byByte.read(bytes, 1);
            assertEquals(whole.events, byByte.events, "the events depend on how the bytes were split");
            pool.assertNoLeaks();

            ReadPath again = new ReadPath(fromClient, deflate);
            byte[] regenerated = whole.regenerated();
            again.read(regenerated, Math.max(1, regenerated.length));
            assertEquals(whole.frames, again.frames, "the regenerated frames read differently");
            pool.assertNoLeaks();
        } finally {
            pool.reset();
        }
    }

    @FuzzTest
    void utf8(byte[] input) {
        boolean valid = isUtf8(input);
        assertEquals(valid, accepts(input, input.length), "whole");
        int cut = input.length == 0 ? 0 : (input[0] & 0xFF) % (input.length + 1);
        assertEquals(valid, accepts(input, cut), "cut at " + cut);
    }

    private static boolean accepts(byte[] input, int cut) {
        Utf8Validator validator = new Utf8Validator();
        return validator.accept(ByteBuffer.wrap(input, 0, cut)) && validator.accept(ByteBuffer.wrap(input, cut, input.length - cut))
            && validator.isComplete();
    }

    private static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException x) {
            return false;
        }
    }

    /**
     * One side's read path, as {@code WebSocketConnection} runs it: records each message (and
     * control frame) as text and the close status that ended the read, and writes each frame it
     * read again, to check the round trip.
     */
    private final class ReadPath {
        final List<String> events = new ArrayList<>();
        final List<String> frames = new ArrayList<>();
        private final FrameParser parser;
        private final MessageAssembler assembler = new MessageAssembler(pool, MAX_MESSAGE, MAX_MESSAGE);
        private final Extension extension;
        private final FrameGenerator generator;
        private final ByteBuffer regenerated = ByteBuffer.allocate(1 << 16);
        private MessageAssembler.Message decoded;
        private boolean failed;

        ReadPath(boolean fromClient, boolean deflate) {
            parser = new FrameParser(fromClient, MAX_FRAME);
            generator = new FrameGenerator(fromClient);
            extension = deflate
                ? new PerMessageDeflateFactory().acceptOffer(ExtensionConfig.of(PerMessageDeflateFactory.NAME), pool) : null;
            if (extension != null) {
                parser.setAllowedRsv(extension.rsv());
            }
        }

        /** Reads a copy of {@code input} (a server's parser unmasks in place) in pieces of {@code piece} bytes. */
        void read(byte[] input, int piece) {
            byte[] bytes = input.clone();
            try {
                for (int from = 0; from < bytes.length && !failed; from += piece) {
                    ByteBuffer buffer = ByteBuffer.wrap(bytes, from, Math.min(piece, bytes.length - from)).slice();
                    while (buffer.hasRemaining() && !failed) {
                        Frame frame = parse(buffer);
                        if (frame != null) {
                            onFrame(frame);
                        }
                    }
                }
            } finally {
                assembler.release();
                if (extension != null) {
                    extension.closeIncoming();
                }
            }
        }

        byte[] regenerated() {
            return Arrays.copyOf(regenerated.array(), regenerated.position());
        }

        private Frame parse(ByteBuffer buffer) {
            try {
                return parser.parse(buffer);
            } catch (ProtocolException x) {
                fail(x);
                return null;
            }
        }

        private void onFrame(Frame frame) {
            frames.add(frame.fin() + " " + frame.rsv() + " " + frame.opcode() + " " + HexFormat.of().formatHex(bytes(frame.payload())));
            regenerate(frame);
            try {
                switch (frame.opcode()) {
                    case OpCode.CLOSE -> {
                        CloseStatus status = CloseStatus.parse(frame.payload());
                        events.add("close " + status.code() + " " + status.reason());
                        failed = true;
                    }
                    case OpCode.PING, OpCode.PONG -> events.add(OpCode.name(frame.opcode()) + " " + HexFormat.of().formatHex(bytes(frame.payload())));
                    default -> onData(frame);
                }
            } catch (ProtocolException x) {
                fail(x);
            }
        }

        private void onData(Frame frame) {
            MessageAssembler.Message message;
            if (extension == null) {
                message = assembler.accept(frame);
            } else {
                decoded = null;
                extension.decode(frame, output -> {
                    MessageAssembler.Message out = assembler.acceptCopy(output);
                    if (out != null) {
                        decoded = out;
                    }
                });
                message = decoded;
            }
            if (message == null) {
                return;
            }
            byte[] payload = bytes(message.payload());
            assertTrue(payload.length <= MAX_MESSAGE, "a message of " + payload.length + " bytes passed the limit");
            if (message.opcode() == OpCode.TEXT) {
                assertTrue(isUtf8(payload), "a text message that is not UTF-8 was let through");
                events.add("text " + new String(payload, StandardCharsets.UTF_8));
            } else {
                events.add("binary " + HexFormat.of().formatHex(payload));
            }
            assembler.release();
        }

        private void fail(ProtocolException x) {
            int status = x.getStatus();
            assertTrue(status == CloseStatus.PROTOCOL_ERROR || status == CloseStatus.BAD_DATA || status == CloseStatus.MESSAGE_TOO_BIG,
                () -> "close status " + status + " for " + x.getMessage());
            events.add("failed " + status);
            failed = true;
        }

        /** Writes {@code frame} again as this side's peer would send it. */
        private void regenerate(Frame frame) {
            int length = frame.payload().remaining();
            if (regenerated.remaining() < FrameGenerator.MAX_HEADER_SIZE + length) {
                throw new AssertionError("more frames than the round trip holds; inputs are shorter than 64 KiB");
            }
            ByteBuffer header = regenerated.slice(regenerated.position(), FrameGenerator.MAX_HEADER_SIZE);
            ByteBuffer masked = ByteBuffer.allocate(length);
            generator.generate(frame, header, masked);
            regenerated.position(regenerated.position() + header.position());
            if (masked.position() > 0) {
                regenerated.put(masked.flip());
            } else {
                regenerated.put(frame.payload().duplicate());
            }
        }

        private static byte[] bytes(ByteBuffer payload) {
            byte[] bytes = new byte[payload.remaining()];
            payload.get(payload.position(), bytes);
            return bytes;
        }
    }
}
