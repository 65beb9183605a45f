package io.wharf.http.compression;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;

/**
 * Reads the header of one gzip member (RFC 1952 §2.3) a byte at a time, across as many
 * buffers as it comes in: checks the magic, the method and the reserved flags, skips the
 * modification time, extra flags and operating system, skips the optional extra field, file
 * name and comment within a length limit, and checks the header CRC when there is one. Keeps
 * nothing of the fields it skips.
 *
 * <p>Used by its {@link GzipDecoder}'s thread only; never holds a buffer.
 */
final class GzipHeaderReader {

    // FTEXT (0x01) only hints that the content is text; it changes nothing here.
    private static final int FHCRC = 0x02;
    private static final int FEXTRA = 0x04;
    private static final int FNAME = 0x08;
    private static final int FCOMMENT = 0x10;
    private static final int RESERVED = 0xE0;
    private static final int DEFLATE = 8;

    /** The header field being read. */
    private enum Field {
        MAGIC_1, MAGIC_2, METHOD, FLAGS, MODIFICATION_TIME, EXTRA_FLAGS, OPERATING_SYSTEM,
        EXTRA_LENGTH, EXTRA, NAME, COMMENT, HEADER_CRC, DONE
    }

    private final int maxFieldLength;
    private final CRC32 headerChecksum = new CRC32();
    private Field field = Field.MAGIC_1;
    private int flags;
    /** Bytes of the current field read so far. */
    private int count;
    /** A little-endian number being read: the extra length or the header CRC. */
    private int value;
    /** The length of the extra field being skipped. */
    private int extraLength;

    GzipHeaderReader(int maxFieldLength) {
        this.maxFieldLength = maxFieldLength;
    }

    /** Starts over, for the header of the next member. */
    void reset() {
        field = Field.MAGIC_1;
        flags = 0;
        count = 0;
        value = 0;
        extraLength = 0;
        headerChecksum.reset();
    }

    /** @return whether no byte of a header was read since the last {@link #reset()} */
    boolean isAtStart() {
        return field == Field.MAGIC_1;
    }

    /**
     * Reads header bytes from {@code input}, taking none past the end of the header.
     *
     * @return true when the header is complete
     * @throws BadMessageException 400 when the header is not a valid gzip header, or a field is too long
     */
    boolean read(ByteBuffer input) {
        while (field != Field.DONE) {
            if (!input.hasRemaining()) {
                return false;
            }
            int octet = input.get() & 0xFF;
            if (field != Field.HEADER_CRC) {
                headerChecksum.update(octet);
            }
            accept(octet);
        }
        return true;
    }

    private void accept(int octet) {
        switch (field) {
            case MAGIC_1 -> {
                expectMagic(octet, 0x1f);
                field = Field.MAGIC_2;
            }
            case MAGIC_2 -> {
                expectMagic(octet, 0x8b);
                field = Field.METHOD;
            }
            case METHOD -> {
                if (octet != DEFLATE) {
                    throw bad("gzip compression method " + octet + " is not deflate (8)");
                }
                field = Field.FLAGS;
            }
            case FLAGS -> {
                if ((octet & RESERVED) != 0) {
                    throw bad("gzip header has reserved flag bits set: 0x" + Integer.toHexString(octet));
                }
                flags = octet;
                startField(Field.MODIFICATION_TIME);
            }
            case MODIFICATION_TIME -> {
                if (++count == 4) {
                    field = Field.EXTRA_FLAGS;
                }
            }
            case EXTRA_FLAGS -> field = Field.OPERATING_SYSTEM;
            case OPERATING_SYSTEM -> afterFixedPart();
            case EXTRA_LENGTH -> {
                value |= octet << (8 * count);
                if (++count == 2) {
                    if (value > maxFieldLength) {
                        throw bad("gzip extra field of " + value + " bytes is longer than the limit of " + maxFieldLength);
                    }
                    extraLength = value;
                    if (extraLength == 0) {
                        afterExtra();
                    } else {
                        startField(Field.EXTRA);
                    }
                }
            }
            case EXTRA -> {
                if (++count == extraLength) {
                    afterExtra();
                }
            }
            case NAME -> {
                if (endOfText(octet, "file name")) {
                    afterName();
                }
            }
            case COMMENT -> {
                if (endOfText(octet, "comment")) {
                    afterComment();
                }
            }
            case HEADER_CRC -> {
                value |= octet << (8 * count);
                if (++count == 2) {
                    int expected = (int) (headerChecksum.getValue() & 0xFFFF);
                    if (value != expected) {
                        throw bad("gzip header CRC mismatch");
                    }
                    field = Field.DONE;
                }
            }
            case DONE -> throw new IllegalStateException("gzip header already read");
        }
    }

    private static void expectMagic(int octet, int magic) {
        if (octet != magic) {
            throw bad("not a gzip stream: bad magic bytes");
        }
    }

    /** Counts one byte of a zero-terminated field; @return whether it was the terminator. */
    private boolean endOfText(int octet, String name) {
        if (++count > maxFieldLength) {
            throw bad("gzip " + name + " is longer than the limit of " + maxFieldLength + " bytes");
        }
        return octet == 0;
    }

    private void afterFixedPart() {
        if ((flags & FEXTRA) != 0) {
            startField(Field.EXTRA_LENGTH);
        } else {
            afterExtra();
        }
    }

    private void afterExtra() {
        if ((flags & FNAME) != 0) {
            startField(Field.NAME);
        } else {
            afterName();
        }
    }

    private void afterName() {
        if ((flags & FCOMMENT) != 0) {
            startField(Field.COMMENT);
        } else {
            afterComment();
        }
    }

    private void afterComment() {
        if ((flags & FHCRC) != 0) {
            startField(Field.HEADER_CRC);
        } else {
            field = Field.DONE;
        }
    }

    private void startField(Field next) {
        field = next;
        count = 0;
        value = 0;
    }

    private static BadMessageException bad(String reason) {
        return new BadMessageException(HttpStatus.BAD_REQUEST_400, reason);
    }
}
