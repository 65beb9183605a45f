package io.wharf.http2.hpack.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.wharf.http.HttpHeader;
import io.wharf.http2.hpack.HpackException;

/**
 * Reads the primitives of one HPACK block (RFC 7541 section 5) — octets, prefixed integers,
 * string literals — from a heap or direct buffer at absolute indexes, and decodes string
 * literals into a scratch array that it reuses from block to block.
 *
 * <p>Every length is checked before anything is sized from it: an integer may not pass
 * 2^31 - 1 nor take more than five continuation octets; a string may not be longer than what
 * is left of the block; and at most {@code max} octets of a string are ever stored, so the
 * scratch array grows only up to the bound the decoder passes (the header list budget or the
 * table capacity), never to a length the peer chose.
 *
 * <p>Not thread-safe: one decoder owns it. It never moves the block's position and keeps the
 * block only between {@link #start} and {@link #finish}.
 */
public final class BlockReader {

    /** More continuation octets than this cannot be part of an integer up to 2^31 - 1. */
    private static final int MAX_CONTINUATION_OCTETS = 5;

    private ByteBuffer block;
    private int position;
    private int end;
    private byte[] scratch = new byte[256];
    private ByteBuffer scratchView = ByteBuffer.wrap(scratch);

    /** Starts reading the bytes between the buffer's position and limit. */
    public void start(ByteBuffer block) {
        this.block = block;
        this.position = block.position();
        this.end = block.limit();
    }

    /** Forgets the block. */
    public void finish() {
        this.block = null;
    }

    /** @return whether octets are left in the block */
    public boolean hasRemaining() {
        return position < end;
    }

    /** @return the octets left in the block */
    public int remaining() {
        return end - position;
    }

    /** @return the next octet, 0..255, without consuming it */
    public int peek() {
        return block.get(position) & 0xFF;
    }

    /** @return the next octet, 0..255 */
    public int readOctet() {
        if (position >= end) {
            throw new HpackException("header block ends inside a field representation");
        }
        return block.get(position++) & 0xFF;
    }

    /**
     * Reads an integer whose prefix is the low {@code prefixBits} of {@code first}, the octet
     * already read (RFC 7541 section 5.1).
     *
     * @throws HpackException when it passes 2^31 - 1, takes too many octets or is cut short
     */
    public int readInteger(int first, int prefixBits) {
        int prefixMax = (1 << prefixBits) - 1;
        int value = first & prefixMax;
        if (value < prefixMax) {
            return value;
        }
        long total = value;
        for (int octets = 0, shift = 0; ; octets++, shift += 7) {
            if (octets == MAX_CONTINUATION_OCTETS) {
                throw new HpackException("integer has more than " + MAX_CONTINUATION_OCTETS + " continuation octets");
            }
            int octet = readOctet();
            total += (long) (octet & 0x7F) << shift;
            if (total > Integer.MAX_VALUE) {
                throw new HpackException("integer exceeds 2^31 - 1");
            }
            if ((octet & 0x80) == 0) {
                return (int) total;
            }
        }
    }

    /**
     * Reads a string literal (RFC 7541 section 5.2) and stores up to {@code max} of its
     * decoded octets in the scratch array from {@code offset}. Octets past {@code max} are
     * not stored, but a Huffman string is still decoded to the end, to validate and count it.
     *
     * @return the decoded length, which exceeds {@code max} when the string was not stored whole
     * @throws HpackException when the string is longer than the rest of the block, or is bad Huffman
     */
    public int readString(int offset, int max) {
        int first = readOctet();
        boolean huffman = (first & 0x80) != 0;
        int length = readInteger(first, 7);
        if (length > end - position) {
            throw new HpackException("string literal of " + length + " octets exceeds the "
                + (end - position) + " left in the header block");
        }
        int start = position;
        position += length;
        if (!huffman) {
            if (length <= max) {
                ensureScratch(offset + length);
                block.get(start, scratch, offset, length);
            }
            return length;
        }
        // A code has at least 5 bits: length octets decode to at most length * 8 / 5 octets.
        int stored = (int) Math.min(Math.max(max, 0), length * 8L / 5);
        if (stored == 0) {
            return HuffmanDecoder.decode(block, start, length, null, 0, 0);
        }
        ensureScratch(offset + stored);
        return HuffmanDecoder.decode(block, start, length, scratch, offset, stored);
    }

    /** @return whether the stored scratch octets are exactly {@code ascii} */
    public boolean spells(int offset, int length, byte[] ascii) {
        return length == ascii.length && Arrays.equals(scratch, offset, offset + length, ascii, 0, length);
    }

    /** @return the known header whose name is spelled by the scratch octets, in any case, or null */
    public HttpHeader header(int offset, int length) {
        return HttpHeader.CACHE.get(scratchView, offset, length);
    }

    /** @return why the scratch octets may not be a field name in HTTP/2 ({@link FieldOctets}), or null */
    public String nameProblem(int offset, int length) {
        return FieldOctets.nameProblem(scratch, offset, length);
    }

    /** @return why the scratch octets may not be a field value in HTTP/2 ({@link FieldOctets}), or null */
    public String valueProblem(int offset, int length) {
        return FieldOctets.valueProblem(scratch, offset, length);
    }

    /** @return the scratch octets as an ISO-8859-1 string */
    public String string(int offset, int length) {
        return length == 0 ? "" : new String(scratch, offset, length, StandardCharsets.ISO_8859_1);
    }

    private void ensureScratch(int capacity) {
        if (capacity > scratch.length) {
            scratch = Arrays.copyOf(scratch, Math.max(capacity, scratch.length * 2));
            scratchView = ByteBuffer.wrap(scratch);
        }
    }
}
