package io.wharf.http.internal;

import java.nio.ByteBuffer;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpCompliance;

/**
 * The byte-level state machine of chunked framing (RFC 9112 section 7.1): chunk-size lines
 * with optional extensions, the CR LF after each chunk's data, and the last chunk. It
 * consumes framing bytes itself and tells the HTTP/1 parser how many data bytes may be taken
 * from the buffer now; the parser slices them out and calls {@link #consumed(int)}. Trailer
 * lines after the last chunk are the parser's (they are field lines).
 *
 * <p>Strict and bounded: at most 16 hex digits and no overflow of a long; extensions
 * (validated loosely: tokens, {@code ;}, {@code =}, blanks and quoted strings) limited to a
 * configured number of bytes per chunk line, so an unterminated quoted string fails instead
 * of waiting forever; a bare LF where CR LF belongs is the {@code LF_CHUNK_TERMINATION}
 * violation. Extensions are not reported.
 *
 * <p>Owned by one parser, used on its thread; keeps no reference to any buffer.
 */
public final class ChunkParser {

    /** {@link #advance} consumed every byte it was given and needs more. */
    public static final int NEED_MORE = 0;
    /** {@link #advance} consumed the last chunk's size line; trailers follow. */
    public static final int LAST_CHUNK = -1;

    private static final int MAX_HEX_DIGITS = 16;

    private enum Phase {
        SIZE_FIRST_DIGIT, SIZE, EXTENSION, EXTENSION_QUOTED, EXTENSION_QUOTED_ESCAPE, SIZE_LF,
        DATA, DATA_CR, DATA_LF, LAST
    }

    private final int maxExtensionBytes;
    private final ComplianceGate gate;
    private Phase phase = Phase.SIZE_FIRST_DIGIT;
    private long chunkRemaining;
    private int digits;
    private int extensionBytes;

    public ChunkParser(int maxExtensionBytes, ComplianceGate gate) {
        this.maxExtensionBytes = maxExtensionBytes;
        this.gate = gate;
    }

    /** Readies for the chunked content of a new message. */
    public void reset() {
        phase = Phase.SIZE_FIRST_DIGIT;
        chunkRemaining = 0;
        digits = 0;
        extensionBytes = 0;
    }

    /**
     * Consumes framing bytes from the buffer's position until chunk data can be taken, the
     * last chunk's size line ends, or the buffer is empty.
     *
     * @return a positive number of data bytes that start at the buffer's (moved) position and
     *     may be taken now; {@link #NEED_MORE}; or {@link #LAST_CHUNK}
     * @throws BadMessageException when the framing is broken
     */
    public int advance(ByteBuffer buffer) {
        int position = buffer.position();
        int limit = buffer.limit();
        try {
            while (true) {
                if (phase == Phase.DATA) {
                    return position == limit ? NEED_MORE : (int) Math.min(limit - position, chunkRemaining);
                }
                if (phase == Phase.LAST) {
                    return LAST_CHUNK;
                }
                if (position == limit) {
                    return NEED_MORE;
                }
                step(buffer.get(position++));
            }
        } finally {
            buffer.position(position);
        }
    }

    /** Tells that {@code count} data bytes of the current chunk were taken. */
    public void consumed(int count) {
        if (phase != Phase.DATA || count <= 0 || count > chunkRemaining) {
            throw new IllegalStateException("consumed " + count + " bytes in phase " + phase + " with " +
                    chunkRemaining + " left in the chunk");
        }
        chunkRemaining -= count;
        if (chunkRemaining == 0) {
            phase = Phase.DATA_CR;
        }
    }

    private void step(byte b) {
        switch (phase) {
            case SIZE_FIRST_DIGIT -> {
                int value = HttpTokens.hexValue(b);
                if (value < 0) {
                    throw new BadMessageException("chunk size does not start with a hex digit");
                }
                chunkRemaining = value;
                digits = 1;
                phase = Phase.SIZE;
            }
            case SIZE -> size(b);
            case EXTENSION -> extension(b);
            case EXTENSION_QUOTED -> {
                countExtension();
                if (b == '"') {
                    phase = Phase.EXTENSION;
                } else if (b == '\\') {
                    phase = Phase.EXTENSION_QUOTED_ESCAPE;
                } else if (!HttpTokens.isFieldValue(b)) {
                    throw new BadMessageException("control character in a quoted chunk extension (unterminated quote?)");
                }
            }
            case EXTENSION_QUOTED_ESCAPE -> {
                countExtension();
                if (!HttpTokens.isFieldValue(b)) {
                    throw new BadMessageException("control character escaped in a quoted chunk extension");
                }
                phase = Phase.EXTENSION_QUOTED;
            }
            case SIZE_LF -> {
                if (b != '\n') {
                    throw new BadMessageException("chunk size line has CR without LF");
                }
                sizeLineEnded();
            }
            case DATA_CR -> {
                if (b == '\r') {
                    phase = Phase.DATA_LF;
                } else if (b == '\n') {
                    gate.check(HttpCompliance.Violation.LF_CHUNK_TERMINATION, "bare LF after chunk data",
                            "chunk data ended by a bare LF");
                    phase = Phase.SIZE_FIRST_DIGIT;
                } else {
                    throw new BadMessageException("chunk data is longer than its chunk size (no CR LF after it)");
                }
            }
            case DATA_LF -> {
                if (b != '\n') {
                    throw new BadMessageException("chunk data ended by CR without LF");
                }
                phase = Phase.SIZE_FIRST_DIGIT;
            }
            case DATA, LAST -> throw new IllegalStateException("no framing byte expected in phase " + phase);
        }
    }

    private void size(byte b) {
        int value = HttpTokens.hexValue(b);
        if (value >= 0) {
            if (++digits > MAX_HEX_DIGITS) {
                throw new BadMessageException("chunk size has more than " + MAX_HEX_DIGITS + " hex digits");
            }
            if (chunkRemaining > Long.MAX_VALUE >> 4) {
                throw new BadMessageException("chunk size overflows 63 bits");
            }
            chunkRemaining = chunkRemaining << 4 | value;
        } else if (b == '\r') {
            phase = Phase.SIZE_LF;
        } else if (b == '\n') {
            bareLineFeedAfterSize();
        } else if (b == ';' || HttpTokens.isBlank(b)) {
            extensionBytes = 0;
            phase = Phase.EXTENSION;
            countExtension();
        } else {
            throw new BadMessageException("chunk size has an illegal character 0x" + Integer.toHexString(b & 0xFF));
        }
    }

    private void extension(byte b) {
        if (b == '\r') {
            phase = Phase.SIZE_LF;
            return;
        }
        if (b == '\n') {
            bareLineFeedAfterSize();
            return;
        }
        countExtension();
        if (b == '"') {
            phase = Phase.EXTENSION_QUOTED;
        } else if (!HttpTokens.isToken(b) && b != ';' && b != '=' && !HttpTokens.isBlank(b)) {
            throw new BadMessageException("chunk extension has an illegal character 0x" + Integer.toHexString(b & 0xFF));
        }
    }

    private void countExtension() {
        if (++extensionBytes > maxExtensionBytes) {
            throw new BadMessageException("chunk extension longer than " + maxExtensionBytes + " bytes");
        }
    }

    private void bareLineFeedAfterSize() {
        gate.check(HttpCompliance.Violation.LF_CHUNK_TERMINATION, "bare LF after chunk size",
                "chunk size line ended by a bare LF");
        sizeLineEnded();
    }

    private void sizeLineEnded() {
        phase = chunkRemaining == 0 ? Phase.LAST : Phase.DATA;
    }
}
