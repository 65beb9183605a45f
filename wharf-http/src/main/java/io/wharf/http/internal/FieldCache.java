package io.wharf.http.internal;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;

/**
 * A connection's learning cache of whole field lines: the long lines a client sends
 * unchanged on every request ({@code User-Agent}, {@code Accept}, {@code Accept-Language},
 * {@code Host}...) are remembered the first time, as the exact bytes of the line, so the
 * next request finds them by comparing a few lines with the buffer and gets back the same
 * {@link HttpField} instance, with no String made. {@code Cookie} is learned only when the
 * same value comes again, because a changing cookie would fill the cache with lines never
 * seen twice. Framing fields are never learned.
 *
 * <p>Bounded: the lines learned take at most {@code capacity} bytes (plus a few words each,
 * see {@link LearnedLines}); once a line does not fit it learns nothing more. Its store is
 * made at the first line learned, so a connection that sends one request pays little. Owned
 * by one parser and used on its thread; it copies the bytes it learns and keeps no
 * reference to any buffer.
 */
public final class FieldCache {

    /** The default bound, in bytes of learned lines. */
    public static final int DEFAULT_CAPACITY = 1024;
    /** The largest bound allowed, in bytes of learned lines. */
    public static final int MAX_CAPACITY = 1 << 16;

    private static final Set<HttpHeader> LEARNED = EnumSet.of(HttpHeader.HOST, HttpHeader.USER_AGENT,
            HttpHeader.ACCEPT, HttpHeader.ACCEPT_LANGUAGE, HttpHeader.ACCEPT_ENCODING, HttpHeader.ACCEPT_CHARSET,
            HttpHeader.ORIGIN);

    private final int capacity;
    private LearnedLines lines;
    private String lastCookie;
    private boolean full;

    /**
     * @param capacity the bound in bytes of learned lines, from 1 to {@link #MAX_CAPACITY}
     * @throws IllegalArgumentException when {@code capacity} is out of that range
     */
    public FieldCache(int capacity) {
        this.capacity = requireCapacity(capacity);
    }

    /**
     * @return {@code capacity}
     * @throws IllegalArgumentException unless {@code 1 <= capacity <= }{@value #MAX_CAPACITY}
     */
    public static int requireCapacity(int capacity) {
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("field cache capacity must be from 1 to " + MAX_CAPACITY + " bytes: " + capacity);
        }
        return capacity;
    }

    /** @return whether a field of {@code header} may be learned (perhaps on its second sighting) */
    public static boolean isLearnable(HttpHeader header) {
        return header == HttpHeader.COOKIE || LEARNED.contains(header);
    }

    /**
     * @return the learned field whose line is the longest prefix of the bytes at absolute
     *     indexes {@code [start, limit)}, or null; the caller checks the line ends there
     */
    public HttpField lookup(ByteBuffer buffer, int start, int limit) {
        return lines == null ? null : lines.longestPrefix(buffer, start, limit);
    }

    /**
     * Offers a field just parsed from the line at {@code [start, end)} (without CR LF), which
     * the caller has checked is in the form {@code Name: value} with one space and nothing
     * after the value. A line already learned is not learned twice.
     */
    public void offer(HttpField field, ByteBuffer buffer, int start, int end) {
        if (full) {
            return;
        }
        if (field.getHeader() == HttpHeader.COOKIE) {
            String previous = lastCookie;
            lastCookie = field.getValue();
            if (!field.getValue().equals(previous)) {
                return;
            }
        } else if (!LEARNED.contains(field.getHeader())) {
            return;
        }
        if (lines != null && lines.contains(buffer, start, end)) {
            return;
        }
        if (bytes() + (end - start) > capacity) {
            full = true;
            return;
        }
        if (lines == null) {
            lines = new LearnedLines();
        }
        lines.add(field, buffer, start, end, capacity);
    }

    /** @return the number of lines learned */
    public int size() {
        return lines == null ? 0 : lines.size();
    }

    /** @return the number of bytes of the lines learned */
    public int bytes() {
        return lines == null ? 0 : lines.bytes();
    }
}
