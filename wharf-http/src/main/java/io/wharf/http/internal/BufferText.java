package io.wharf.http.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Makes Strings from ranges of a heap or direct buffer (one octet per char, ISO-8859-1), and
 * short escaped excerpts of peer bytes that are safe to put in an error reason or a log.
 * An instance keeps a scratch array for copying out of direct buffers, made at the first such
 * copy and grown as needed, so it belongs to one parser and is used on that parser's thread. It never moves a buffer's position and keeps
 * no reference to a buffer.
 */
public final class BufferText {

    private static final int EXCERPT_BYTES = 24;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private static final int FIRST_SCRATCH_BYTES = 32;

    private byte[] scratch;

    /** @return the bytes at absolute indexes {@code [start, end)} as a String, one char per octet */
    public String string(ByteBuffer buffer, int start, int end) {
        int length = end - start;
        if (length == 0) {
            return "";
        }
        if (buffer.hasArray()) {
            return new String(buffer.array(), buffer.arrayOffset() + start, length, StandardCharsets.ISO_8859_1);
        }
        if (scratch == null || scratch.length < length) {
            scratch = new byte[Math.max(length, scratch == null ? FIRST_SCRATCH_BYTES : scratch.length * 2)];
        }
        buffer.get(start, scratch, 0, length);
        return new String(scratch, 0, length, StandardCharsets.ISO_8859_1);
    }

    /**
     * @return at most about two dozen bytes from {@code [start, end)} with every byte other
     *     than a letter, a digit or one of {@code -._/:=;,*} written as {@code \xNN}, and
     *     {@code ...} when cut: safe to show anyone
     */
    public static String excerpt(ByteBuffer buffer, int start, int end) {
        StringBuilder text = new StringBuilder();
        int stop = Math.min(end, start + EXCERPT_BYTES);
        for (int i = start; i < stop; i++) {
            int b = buffer.get(i) & 0xFF;
            if (b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || "-._/:=;,*".indexOf(b) >= 0) {
                text.append((char) b);
            } else {
                text.append("\\x").append(HEX[b >> 4]).append(HEX[b & 0xF]);
            }
        }
        if (stop < end) {
            text.append("...");
        }
        return text.toString();
    }

    /** @return {@link #excerpt(ByteBuffer, int, int)} of a String's chars taken as octets */
    public static String excerpt(String text) {
        byte[] bytes = new byte[Math.min(text.length(), EXCERPT_BYTES + 1)];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) text.charAt(i);
        }
        String excerpt = excerpt(ByteBuffer.wrap(bytes), 0, Math.min(bytes.length, EXCERPT_BYTES));
        return text.length() > EXCERPT_BYTES && !excerpt.endsWith("...") ? excerpt + "..." : excerpt;
    }
}
