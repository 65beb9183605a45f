package io.wharf.websocket.deflate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.Deflater;

import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.Extension;
import io.wharf.websocket.core.ExtensionConfig;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.OpCode;
import io.wharf.websocket.core.ProtocolException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * permessage-deflate on its own, under the leak-tracking pool: the negotiation of every
 * parameter in both roles (accepted, echoed, declined), the RSV1 and tail rules of compressed
 * frames, fragmented messages with and without context takeover, Huffman-only output for a
 * small window, bad data (1007), and codecs going back to their pools.
 */
class PerMessageDeflateTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final PerMessageDeflateFactory factory = new PerMessageDeflateFactory();

    private static ExtensionConfig offer(String field) {
        List<ExtensionConfig> parsed = ExtensionConfig.parse(List.of(field));
        assertEquals(1, parsed.size(), field);
        return parsed.get(0);
    }

    @Test
    void serverAnswersEachParameterAsRfc7692Says() {
        assertEquals("permessage-deflate", answer("permessage-deflate"));
        assertEquals("permessage-deflate", answer("permessage-deflate; client_max_window_bits"));
        assertEquals("permessage-deflate", answer("permessage-deflate; client_max_window_bits=10"));
        assertEquals("permessage-deflate; server_no_context_takeover", answer("permessage-deflate; server_no_context_takeover"));
        assertEquals("permessage-deflate; client_no_context_takeover", answer("permessage-deflate; client_no_context_takeover"));
        assertEquals("permessage-deflate; server_max_window_bits=9", answer("permessage-deflate; server_max_window_bits=9"));
        assertEquals("permessage-deflate; server_max_window_bits=15", answer("permessage-deflate; server_max_window_bits=\"15\""));
        assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=8",
            answer("permessage-deflate; client_no_context_takeover; server_max_window_bits=8; server_no_context_takeover; client_max_window_bits"));
        // Offers that cannot be accepted are declined, not answered.
        for (String declined : new String[] {"permessage-deflate; server_max_window_bits", "permessage-deflate; server_max_window_bits=16",
                "permessage-deflate; server_max_window_bits=7", "permessage-deflate; server_max_window_bits=09",
                "permessage-deflate; client_max_window_bits=16", "permessage-deflate; server_no_context_takeover=1",
                "permessage-deflate; server_no_context_takeover; server_no_context_takeover", "permessage-deflate; x_unknown"}) {
            assertNull(factory.acceptOffer(offer(declined), leaks.pool()), declined);
        }
        PerMessageDeflateFactory forced = new PerMessageDeflateFactory(1, true, 4);
        assertEquals("permessage-deflate; server_no_context_takeover", forced.acceptOffer(offer("permessage-deflate"), leaks.pool()).config().toString());
    }

    private String answer(String offer) {
        Extension extension = factory.acceptOffer(offer(offer), leaks.pool());
        assertNotNull(extension, offer);
        assertEquals(0b100, extension.rsv());
        return extension.config().toString();
    }

    @Test
    void clientOffersWindowBitsAndChecksTheAnswer() {
        assertEquals("[permessage-deflate; client_max_window_bits]", factory.offers().toString());
        assertEquals("[permessage-deflate; client_no_context_takeover; client_max_window_bits]",
            new PerMessageDeflateFactory(-1, true, 4).offers().toString());
        for (String good : new String[] {"permessage-deflate", "permessage-deflate; server_no_context_takeover; client_no_context_takeover",
                "permessage-deflate; server_max_window_bits=10; client_max_window_bits=9"}) {
            assertEquals(good, factory.acceptResponse(offer(good), leaks.pool()).config().toString());
        }
        for (String bad : new String[] {"permessage-deflate; client_max_window_bits", "permessage-deflate; server_max_window_bits=20",
                "permessage-deflate; mystery", "permessage-deflate; client_no_context_takeover; client_no_context_takeover"}) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> factory.acceptResponse(offer(bad), leaks.pool()), bad);
            assertTrue(x.getMessage().contains("permessage-deflate"), x.getMessage());
        }
    }

    @Test
    void extensionFieldGrammar() {
        List<ExtensionConfig> parsed = ExtensionConfig.parse(List.of("permessage-deflate; client_max_window_bits; server_max_window_bits=\"10\", x-foo",
            " , permessage-deflate ;server_no_context_takeover "));
        assertEquals(3, parsed.size());
        assertEquals(new ExtensionConfig.Parameter("server_max_window_bits", "10"), parsed.get(0).parameters().get(1));
        assertEquals("x-foo", parsed.get(1).name());
        assertEquals("permessage-deflate; server_no_context_takeover", parsed.get(2).toString());
        for (String bad : new String[] {"permessage-deflate;", "a; b=\"c d\"", "a; b=\"unterminated", "a b", "a; =1", "a; b=\"\""}) {
            assertThrows(IllegalArgumentException.class, () -> ExtensionConfig.parse(List.of(bad)), bad);
        }
        assertEquals("a; b=1, c", ExtensionConfig.format(List.of(ExtensionConfig.of("a", "b", "1"), ExtensionConfig.of("c"))));
        assertNull(ExtensionConfig.format(List.of()));
    }

    /** One side's extension sending to the other's, as over the wire. */
    private record Pair(Extension sender, Extension receiver) {
        void close() {
            sender.closeOutgoing();
            sender.closeIncoming();
            receiver.closeOutgoing();
            receiver.closeIncoming();
        }
    }

    private Pair pair(String offer) {
        Extension server = factory.acceptOffer(offer(offer), leaks.pool());
        Extension client = factory.acceptResponse(server.config(), leaks.pool());
        return new Pair(server, client);
    }

    /** Encodes the fragments of one message, checks the wire rules, decodes them and returns the message. */
    private byte[] roundTrip(Pair pair, byte opcode, byte[] message, int fragment) {
        List<Frame> wire = new ArrayList<>();
        List<RetainableByteBuffer> held = new ArrayList<>();
        int at = 0;
        do {
            int end = fragment <= 0 ? message.length : Math.min(message.length, at + fragment);
            Frame frame = new Frame(end == message.length, 0, at == 0 ? opcode : OpCode.CONTINUATION, ByteBuffer.wrap(message, at, end - at));
            Frame encoded = pair.sender().encode(frame, held);
            assertEquals(at == 0 ? 0b100 : 0, encoded.rsv(), "RSV1 on the first frame only");
            assertEquals(frame.opcode(), encoded.opcode());
            assertEquals(frame.fin(), encoded.fin());
            wire.add(new Frame(encoded.fin(), encoded.rsv(), encoded.opcode(), copy(encoded.payload())));
            at = end;
        } while (at < message.length);
        held.forEach(RetainableByteBuffer::release);
        ByteBuffer last = wire.get(wire.size() - 1).payload();
        assertFalse(last.remaining() >= 4 && last.getInt(last.limit() - 4) == 0x0000FFFF, "the final frame drops the sync-flush tail");
        if (message.length == 0) {
            assertEquals(ByteBuffer.wrap(new byte[] {0}), last, "an empty message is one 00 byte");
        }
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        int[] frames = {0};
        for (Frame frame : wire) {
            pair.receiver().decode(frame, out -> {
                assertEquals(0, out.rsv());
                assertEquals(frames[0]++ == 0 ? opcode : OpCode.CONTINUATION, out.opcode());
                assertTrue(out.payload().remaining() <= PerMessageDeflate.CHUNK);
                received.write(copy(out.payload()).array(), 0, out.payload().remaining());
            });
        }
        return received.toByteArray();
    }

    private static ByteBuffer copy(ByteBuffer buffer) {
        return ByteBuffer.allocate(buffer.remaining()).put(buffer.duplicate()).flip();
    }

    private static byte[] text(int size, Random random) {
        String[] words = {"wharf ", "deflate ", "window ", "context ", "takeover ", "héllo ", "€uro "};
        StringBuilder text = new StringBuilder();
        while (text.length() < size) {
            text.append(words[random.nextInt(words.length)]);
        }
        return text.substring(0, size).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void messagesWholeAndFragmentedRoundTripUnderEveryAgreement() {
        Random random = new Random(7692);
        for (String offer : new String[] {"permessage-deflate", "permessage-deflate; server_no_context_takeover; client_no_context_takeover",
                "permessage-deflate; server_max_window_bits=9", "permessage-deflate; server_max_window_bits=8; server_no_context_takeover"}) {
            Pair pair = pair(offer);
            for (int size : new int[] {0, 1, 100, 5000, 70_000, 300_000}) {
                for (int fragment : new int[] {0, 1000, 65536}) {
                    byte[] message = text(size, random);
                    assertArrayEquals(message, roundTrip(pair, OpCode.TEXT, message, fragment), offer + " " + size + "/" + fragment);
                    byte[] binary = new byte[size];
                    random.nextBytes(binary);
                    assertArrayEquals(binary, roundTrip(pair, OpCode.BINARY, binary, fragment), offer + " binary " + size + "/" + fragment);
                }
            }
            pair.close();
        }
        assertEquals(0, factory.lentCodecs(), "every codec is back in its pool");
    }

    @Test
    void contextTakeoverShrinksARepeatedMessageAndNoContextTakeoverDoesNot() {
        byte[] message = text(2000, new Random(1));
        int withContext = secondMessageSize("permessage-deflate", message);
        int withoutContext = secondMessageSize("permessage-deflate; server_no_context_takeover", message);
        // The second copy is a few back-references into the first; without the context it is compressed anew.
        assertTrue(withContext < 60 && withoutContext > 5 * withContext, withContext + " / " + withoutContext);
        assertEquals(0, factory.lentCodecs());
    }

    private int secondMessageSize(String offer, byte[] message) {
        Pair pair = pair(offer);
        List<RetainableByteBuffer> held = new ArrayList<>();
        pair.sender().encode(Frame.of(OpCode.TEXT, ByteBuffer.wrap(message)), held);
        int size = pair.sender().encode(Frame.of(OpCode.TEXT, ByteBuffer.wrap(message)), held).payload().remaining();
        held.forEach(RetainableByteBuffer::release);
        pair.close();
        return size;
    }

    @Test
    void aSmallWindowIsHonouredWithHuffmanOnlyCoding() {
        byte[] message = text(20_000, new Random(2));
        Pair small = pair("permessage-deflate; server_max_window_bits=9");
        Pair full = pair("permessage-deflate");
        List<RetainableByteBuffer> held = new ArrayList<>();
        int huffman = small.sender().encode(Frame.of(OpCode.TEXT, ByteBuffer.wrap(message)), held).payload().remaining();
        int lz77 = full.sender().encode(Frame.of(OpCode.TEXT, ByteBuffer.wrap(message)), held).payload().remaining();
        held.forEach(RetainableByteBuffer::release);
        // Huffman coding alone still compresses text, but without back-references far less than LZ77 does.
        assertTrue(huffman < message.length * 0.8 && lz77 < huffman / 3, huffman + " / " + lz77 + " of " + message.length);
        small.close();
        full.close();
    }

    @Test
    void uncompressedMessagesPassAndBadDataIs1007() {
        Pair pair = pair("permessage-deflate");
        List<Frame> out = new ArrayList<>();
        pair.receiver().decode(Frame.of(OpCode.TEXT, ByteBuffer.wrap("plain".getBytes(StandardCharsets.UTF_8))), out::add);
        assertEquals(1, out.size());
        assertEquals("plain", StandardCharsets.UTF_8.decode(out.get(0).payload()).toString());
        ProtocolException x = assertThrows(ProtocolException.class, () -> pair.receiver().decode(
            new Frame(true, 0b100, OpCode.BINARY, ByteBuffer.wrap(new byte[] {(byte) 0xFF, (byte) 0xFF, 1, 2, 3})), frame -> { }));
        assertEquals(CloseStatus.BAD_DATA, x.getStatus());
        pair.close();
        assertEquals(0, factory.lentCodecs());
    }

    @Test
    void inflationStopsWhereTheSinkSaysTheMessageIsTooBig() {
        // About 100 KiB of deflate data that would inflate to 100 MiB of zeros.
        Deflater deflater = new Deflater(9, true);
        byte[] zeros = new byte[1024 * 1024];
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        byte[] out = new byte[64 * 1024];
        for (int i = 0; i < 100; i++) {
            deflater.setInput(zeros);
            while (!deflater.needsInput()) {
                compressed.write(out, 0, deflater.deflate(out, 0, out.length, Deflater.NO_FLUSH));
            }
        }
        deflater.finish();
        while (!deflater.finished()) {
            compressed.write(out, 0, deflater.deflate(out));
        }
        deflater.end();
        assertTrue(compressed.size() < 110 * 1024, "compressed to " + compressed.size());
        Pair pair = pair("permessage-deflate");
        long[] inflated = {0};
        int limit = 1024 * 1024;
        ProtocolException x = assertThrows(ProtocolException.class, () -> pair.receiver().decode(
            new Frame(true, 0b100, OpCode.BINARY, ByteBuffer.wrap(compressed.toByteArray())), frame -> {
                inflated[0] += frame.payload().remaining();
                if (inflated[0] > limit) {
                    throw new ProtocolException(CloseStatus.MESSAGE_TOO_BIG, "too big");
                }
            }));
        assertEquals(CloseStatus.MESSAGE_TOO_BIG, x.getStatus());
        assertTrue(inflated[0] <= limit + PerMessageDeflate.CHUNK, "inflated " + inflated[0] + " bytes before stopping");
        pair.close();
        assertEquals(0, factory.lentCodecs());
    }
}
