package io.wharf.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** Decimal numbers in heads: every digit count, at each power of ten and either side of it. */
class HeadEncoderTest {

    private static String decimal(long value) {
        ByteBuffer buffer = ByteBuffer.allocate(32).put((byte) '>');
        HeadEncoder.putDecimal(buffer, value);
        return new String(buffer.array(), 1, buffer.position() - 1, StandardCharsets.ISO_8859_1);
    }

    @Test
    void writesEveryNumberAsLongAsItsDigits() {
        for (long power = 1; power > 0 && power <= Long.MAX_VALUE / 10 * 10; power *= 10) {
            for (long value : new long[] {power - 1, power, power + 1}) {
                assertEquals(Long.toString(value), decimal(value));
                assertEquals(Long.toString(value).length(), HeadEncoder.digits(value), "digits of " + value);
            }
            if (power > Long.MAX_VALUE / 10) {
                break;
            }
        }
        assertEquals(Long.toString(Long.MAX_VALUE), decimal(Long.MAX_VALUE));
        assertEquals(19, HeadEncoder.digits(Long.MAX_VALUE));
    }

    @Test
    void refusesNegativeNumbersAndWritesNothingPastTheBuffer() {
        assertThrows(IllegalArgumentException.class, () -> HeadEncoder.putDecimal(ByteBuffer.allocate(8), -1));
        ByteBuffer small = ByteBuffer.allocate(4);
        assertThrows(BufferOverflowException.class, () -> HeadEncoder.putDecimal(small, 12345));
        assertEquals(0, small.position());
    }
}
