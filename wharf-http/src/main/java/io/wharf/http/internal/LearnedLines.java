package io.wharf.http.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import io.wharf.http.HttpField;

/**
 * The store behind a {@link FieldCache}: whole field lines as exact bytes, each with the
 * {@link HttpField} it stands for, found again straight from a buffer. It costs about one byte
 * per byte of line plus a few words per line: the bytes of every line lie one after another in
 * one array, and three small arrays, grown on demand, hold each line's end, its first eight
 * bytes (a cheap first test) and its field.
 *
 * <p>A lookup compares the buffer with each line, eight bytes at a time, from heap or direct
 * buffers alike, and allocates nothing. It makes no choice of what to keep: the cache decides
 * and bounds it. Owned by the cache's parser and used on its thread; it copies the bytes it is
 * given and keeps no reference to any buffer.
 */
final class LearnedLines {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** One slot at first: most connections that learn anything learn one Host line. */
    private static final int FIRST_SLOTS = 1;

    /** The lines' bytes: line {@code i} is at {@code [ends[i - 1], ends[i])}, the first at {@code [0, ends[0])}. */
    private byte[] bytes;
    private int[] ends;
    /** The first up to eight bytes of each line, big-endian, padded with zeros. */
    private long[] heads;
    private HttpField[] fields;
    private int count;

    /** @return the number of lines */
    int size() {
        return count;
    }

    /** @return the number of bytes of all lines */
    int bytes() {
        return count == 0 ? 0 : ends[count - 1];
    }

    /**
     * Adds the line at absolute indexes {@code [start, end)} of {@code buffer} (not empty)
     * with its field; the caller has checked it is not there yet and that all lines with it
     * take at most {@code maxBytes}, which the array of bytes then never grows past.
     */
    void add(HttpField field, ByteBuffer buffer, int start, int end, int maxBytes) {
        int used = bytes();
        int length = end - start;
        if (bytes == null) {
            bytes = new byte[length];
            ends = new int[FIRST_SLOTS];
            heads = new long[FIRST_SLOTS];
            fields = new HttpField[FIRST_SLOTS];
        } else {
            if (used + length > bytes.length) {
                byte[] grown = new byte[Math.max(used + length, Math.min(maxBytes, bytes.length * 2))];
                System.arraycopy(bytes, 0, grown, 0, used);
                bytes = grown;
            }
            if (count == ends.length) {
                int slots = count * 2;
                ends = Arrays.copyOf(ends, slots);
                heads = Arrays.copyOf(heads, slots);
                fields = Arrays.copyOf(fields, slots);
            }
        }
        buffer.get(start, bytes, used, length);
        ends[count] = used + length;
        heads[count] = head(buffer, start, length, buffer.order() == ByteOrder.BIG_ENDIAN);
        fields[count] = field;
        count++;
    }

    /**
     * @return the field of the longest line that is a prefix of the bytes at absolute
     *     indexes {@code [start, limit)}, or null
     */
    HttpField longestPrefix(ByteBuffer buffer, int start, int limit) {
        int available = limit - start;
        if (count == 0 || available <= 0) {
            return null;
        }
        boolean bigEndian = buffer.order() == ByteOrder.BIG_ENDIAN;
        long head = head(buffer, start, available, bigEndian);
        HttpField best = null;
        int bestLength = 0;
        int lineStart = 0;
        for (int i = 0; i < count; i++) {
            int lineEnd = ends[i];
            int length = lineEnd - lineStart;
            if (length <= available && length > bestLength && (head & headMask(length)) == heads[i]
                    && tailMatches(buffer, start, lineStart, length, bigEndian)) {
                best = fields[i];
                bestLength = length;
            }
            lineStart = lineEnd;
        }
        return best;
    }

    /** @return whether some line is exactly the bytes at absolute indexes {@code [start, end)} */
    boolean contains(ByteBuffer buffer, int start, int end) {
        int length = end - start;
        boolean bigEndian = buffer.order() == ByteOrder.BIG_ENDIAN;
        long head = head(buffer, start, length, bigEndian);
        int lineStart = 0;
        for (int i = 0; i < count; i++) {
            int lineEnd = ends[i];
            if (lineEnd - lineStart == length && head == heads[i]
                    && tailMatches(buffer, start, lineStart, length, bigEndian)) {
                return true;
            }
            lineStart = lineEnd;
        }
        return false;
    }

    /** @return the bits of a head that a line of {@code length} bytes fills */
    private static long headMask(int length) {
        return length >= Long.BYTES ? -1L : -1L << (Long.SIZE - Byte.SIZE * length);
    }

    /** @return the first {@code min(8, available)} bytes at {@code start}, big-endian, padded with zeros */
    private static long head(ByteBuffer buffer, int start, int available, boolean bigEndian) {
        if (available >= Long.BYTES) {
            long value = buffer.getLong(start);
            return bigEndian ? value : Long.reverseBytes(value);
        }
        long value = 0;
        for (int i = 0; i < available; i++) {
            value |= (buffer.get(start + i) & 0xFFL) << (Long.SIZE - Byte.SIZE * (i + 1));
        }
        return value;
    }

    /**
     * @return whether the bytes after the first eight of the line at {@code lineStart} equal
     *     those of the buffer at {@code start}; compared a long at a time, the last long
     *     overlapping the one before it when the length is not a multiple of eight
     */
    private boolean tailMatches(ByteBuffer buffer, int start, int lineStart, int length, boolean bigEndian) {
        if (length <= Long.BYTES) {
            return true;
        }
        int offset = Long.BYTES;
        while (offset + Long.BYTES <= length) {
            if (!longMatches(buffer, start + offset, lineStart + offset, bigEndian)) {
                return false;
            }
            offset += Long.BYTES;
        }
        return offset == length || longMatches(buffer, start + length - Long.BYTES, lineStart + length - Long.BYTES, bigEndian);
    }

    private boolean longMatches(ByteBuffer buffer, int index, int lineIndex, boolean bigEndian) {
        long value = buffer.getLong(index);
        return (bigEndian ? value : Long.reverseBytes(value)) == (long) LONGS.get(bytes, lineIndex);
    }
}
