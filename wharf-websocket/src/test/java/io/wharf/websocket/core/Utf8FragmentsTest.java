package io.wharf.websocket.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Streamed text split anywhere, even inside a character, comes out as whole characters. */
class Utf8FragmentsTest {

    @Test
    void everySplitOfMixedTextGivesWholeCharactersBack() {
        String text = "a€b𝄞c\u00e9\u4e2d";
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int first = 0; first <= bytes.length; first++) {
            for (int second = first; second <= bytes.length; second++) {
                Utf8Fragments fragments = new Utf8Fragments();
                StringBuilder joined = new StringBuilder();
                for (String piece : new String[] {
                    fragments.decode(ByteBuffer.wrap(bytes, 0, first), false),
                    fragments.decode(ByteBuffer.wrap(bytes, first, second - first), false),
                    fragments.decode(ByteBuffer.wrap(bytes, second, bytes.length - second), true)}) {
                    assertEquals(-1, piece.indexOf('\uFFFD'), "a split character at " + first + "/" + second);
                    joined.append(piece);
                }
                assertEquals(text, joined.toString(), "split at " + first + " and " + second);
            }
        }
    }

    @Test
    void aCharacterSpreadOverFourOneByteFramesWaitsForItsLastByte() {
        byte[] clef = "𝄞".getBytes(StandardCharsets.UTF_8);
        Utf8Fragments fragments = new Utf8Fragments();
        assertEquals("", fragments.decode(ByteBuffer.wrap(clef, 0, 1), false));
        assertEquals("", fragments.decode(ByteBuffer.wrap(clef, 1, 1), false));
        assertEquals("", fragments.decode(ByteBuffer.wrap(clef, 2, 1), false));
        assertEquals("𝄞", fragments.decode(ByteBuffer.wrap(clef, 3, 1), false));
        assertEquals("", fragments.decode(ByteBuffer.allocate(0), true));
    }
}
