package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeyAlphabetTest {

    @Test
    void legalCharactersAreTheOctetsOfAFieldLine() {
        int legal = 0;
        for (int c = 0; c <= 0xFFFF; c++) {
            boolean expected = c == '\t' || (c >= 0x20 && c <= 0x7E) || (c >= 0x80 && c <= 0xFF);
            int character = c;
            assertEquals(expected, KeyAlphabet.isLegal((char) c), () -> String.format("U+%04X", character));
            legal += expected ? 1 : 0;
        }
        assertEquals(1 + 95 + 128, legal);
        assertTrue(KeyAlphabet.isLegal("Accept-Encoding: gzip, deflate\t\u00ff"));
        assertFalse(KeyAlphabet.isLegal("Accept\r\n"));
        assertFalse(KeyAlphabet.isLegal("\u0100"));
        assertTrue(KeyAlphabet.isLegal(""));
    }

    @Test
    void foldingLowerCasesOnlyAsciiLetters() {
        for (int octet = 0; octet < KeyAlphabet.OCTETS; octet++) {
            int expected = octet >= 'A' && octet <= 'Z' ? octet + 32 : octet;
            assertEquals(expected, KeyAlphabet.fold(octet, false), "octet " + octet);
            assertEquals(expected, KeyAlphabet.foldingTable(false)[octet], "octet " + octet);
            assertEquals(octet, KeyAlphabet.fold(octet, true), "octet " + octet);
            assertEquals(octet, KeyAlphabet.foldingTable(true)[octet], "octet " + octet);
        }
    }

    @Test
    void requireLegalNamesTheKeyAndTheCharacter() {
        assertSame("Host: a", KeyAlphabet.requireLegal("Host: a"));
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
            () -> KeyAlphabet.requireLegal("Host:\r\n"));
        assertEquals("illegal index key \"Host:\\u000d\\u000a\": character U+000D at 5 is not visible ASCII, space, tab or obs-text",
            failure.getMessage());
        assertThrows(NullPointerException.class, () -> KeyAlphabet.requireLegal(null));
    }

    @Test
    void quoteEscapesAndShortens() {
        assertEquals("\"a \\\"b\\\" \\\\ \\u00e9\\u20ac\\u0009\"", KeyAlphabet.quote("a \"b\" \\ \u00e9\u20ac\t"));
        assertEquals("\"" + "x".repeat(80) + "\"... (81 characters)", KeyAlphabet.quote("x".repeat(81)));
    }
}
