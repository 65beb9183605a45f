package io.wharf.http.internal;

/**
 * A strict UTF-8 decoder fed one byte at a time, for percent-decoded URI text. It appends
 * what it decodes to a caller's {@link StringBuilder} and refuses everything RFC 3629 does:
 * overlong forms ({@code C0 AE} for {@code '.'}), encoded surrogates, code points above
 * U+10FFFF, stray continuation bytes and sequences cut short. Each refused sequence becomes
 * one U+FFFD in the output and a {@code false} answer, so the caller can count a violation.
 *
 * <p>One instance serves one decoding on one thread; the caller owns the builder.
 */
public final class Utf8Accumulator {

    /** What a refused sequence is replaced with. */
    public static final char REPLACEMENT = '\uFFFD';

    private final StringBuilder out;
    private int codePoint;
    private int continuationsExpected;
    private int smallestAllowed;

    public Utf8Accumulator(StringBuilder out) {
        this.out = out;
    }

    /**
     * @param value a byte, 0-255
     * @return true when the byte is fine so far; false when it broke or ended a bad sequence
     */
    public boolean add(int value) {
        boolean fine = true;
        if (continuationsExpected > 0) {
            if ((value & 0xC0) == 0x80) {
                codePoint = codePoint << 6 | value & 0x3F;
                return --continuationsExpected > 0 || complete();
            }
            // The sequence was cut short: replace it, then read this byte as a new start.
            continuationsExpected = 0;
            out.append(REPLACEMENT);
            fine = false;
        }
        if (value < 0x80) {
            out.append((char) value);
        } else if ((value & 0xE0) == 0xC0) {
            start(value & 0x1F, 1, 0x80);
        } else if ((value & 0xF0) == 0xE0) {
            start(value & 0x0F, 2, 0x800);
        } else if ((value & 0xF8) == 0xF0) {
            start(value & 0x07, 3, 0x10000);
        } else {
            out.append(REPLACEMENT);
            return false;
        }
        return fine;
    }

    /**
     * Ends the bytes: call before appending anything else to the builder.
     *
     * @return true unless a sequence was left incomplete (then one U+FFFD was appended)
     */
    public boolean finish() {
        if (continuationsExpected == 0) {
            return true;
        }
        continuationsExpected = 0;
        out.append(REPLACEMENT);
        return false;
    }

    private void start(int bits, int continuations, int smallest) {
        codePoint = bits;
        continuationsExpected = continuations;
        smallestAllowed = smallest;
    }

    private boolean complete() {
        boolean valid = codePoint >= smallestAllowed && codePoint <= Character.MAX_CODE_POINT
                && (codePoint < Character.MIN_SURROGATE || codePoint > Character.MAX_SURROGATE);
        if (valid) {
            out.appendCodePoint(codePoint);
        } else {
            out.append(REPLACEMENT);
        }
        return valid;
    }
}
