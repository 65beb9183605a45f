package io.wharf.websocket.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Close statuses (RFC 6455 sections 5.5.1 and 7.4) and incremental UTF-8 validation (RFC 3629). */
class CloseStatusAndUtf8Test {

    private static ByteBuffer payload(int code, byte... reason) {
        ByteBuffer payload = ByteBuffer.allocate(2 + reason.length);
        payload.put((byte) (code >> 8)).put((byte) code).put(reason).flip();
        return payload;
    }

    @ParameterizedTest
    @ValueSource(ints = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999})
    void codesAPeerMaySendAreRead(int code) {
        assertEquals(new CloseStatus(code, "bye"), CloseStatus.parse(payload(code, "bye".getBytes(StandardCharsets.UTF_8))));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535})
    void codesAPeerMayNotSendAreAProtocolError(int code) {
        ProtocolException refused = assertThrows(ProtocolException.class, () -> CloseStatus.parse(payload(code)));
        assertEquals(1002, refused.getStatus());
    }

    @Test
    void emptyOneByteAndNonUtf8Payloads() {
        assertEquals(new CloseStatus(1005, ""), CloseStatus.parse(ByteBuffer.allocate(0)));
        assertEquals(1002, assertThrows(ProtocolException.class, () -> CloseStatus.parse(ByteBuffer.wrap(new byte[] {3}))).getStatus());
        assertEquals(1007, assertThrows(ProtocolException.class, () -> CloseStatus.parse(payload(1000, (byte) 0xC0, (byte) 0x80))).getStatus());
        assertEquals(1007, assertThrows(ProtocolException.class, () -> CloseStatus.parse(payload(1000, (byte) 0xE2, (byte) 0x82))).getStatus());
    }

    @Test
    void aLongReasonIsCutAtACharacterBoundary() {
        ByteBuffer payload = new CloseStatus(1001, "€".repeat(100)).toPayload();
        assertTrue(payload.remaining() <= 125);
        CloseStatus back = CloseStatus.parse(payload);
        assertEquals("€".repeat(41), back.reason(), "41 three-byte characters fit in 123 bytes");
        assertEquals(0, new CloseStatus(1005, "ignored").toPayload().remaining());
        assertThrows(IllegalArgumentException.class, () -> new CloseStatus(1006, "").toPayload());
    }

    private static boolean valid(byte[] bytes, int piece) {
        Utf8Validator validator = new Utf8Validator();
        for (int at = 0; at < bytes.length; at += piece) {
            if (!validator.accept(ByteBuffer.wrap(bytes, at, Math.min(piece, bytes.length - at)))) {
                return false;
            }
        }
        return validator.isComplete();
    }

    @Test
    void wellFormedTextIsAcceptedInAnyPieces() {
        byte[] text = "aé€😀\u0000\uFFFF\uD7FF\uE000\uDBFF\uDFFF".getBytes(StandardCharsets.UTF_8);
        for (int piece = 1; piece <= text.length; piece++) {
            assertTrue(valid(text, piece), "pieces of " + piece);
        }
    }

    @Test
    void everyMalformedFormIsRefusedAtItsByte() {
        byte[][] bad = {
            {(byte) 0xC0, (byte) 0x80},                         // overlong NUL
            {(byte) 0xC1, (byte) 0xBF},                         // overlong
            {(byte) 0xE0, (byte) 0x80, (byte) 0x80},            // overlong three bytes
            {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0x80}, // overlong four bytes
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},            // a surrogate (U+D800)
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
            {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0xFF},
            {(byte) 0x80},                                      // a lone continuation byte
            {'a', (byte) 0xC3, 'b'},                            // a lead byte without its continuation
        };
        for (byte[] bytes : bad) {
            for (int piece = 1; piece <= bytes.length; piece++) {
                assertFalse(valid(bytes, piece), java.util.HexFormat.of().formatHex(bytes) + " in pieces of " + piece);
            }
        }
        Utf8Validator validator = new Utf8Validator();
        ByteBuffer failFast = ByteBuffer.wrap(new byte[] {'o', 'k', (byte) 0xED, (byte) 0xA0, 'x', 'x'});
        assertFalse(validator.accept(failFast));
        assertEquals(3, failFast.position(), "stopped at the byte that made it invalid");
        Utf8Validator truncated = new Utf8Validator();
        assertTrue(truncated.accept(ByteBuffer.wrap(new byte[] {(byte) 0xF0, (byte) 0x9F})));
        assertFalse(truncated.isComplete(), "a character cut at the end of the message");
    }
}
