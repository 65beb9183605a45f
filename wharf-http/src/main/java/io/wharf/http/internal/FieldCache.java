package io.wharf.http.internal;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;
import io.wharf.util.Index;

/**
 * A connection's learning cache of whole field lines: the long lines a client sends
 * unchanged on every request ({@code User-Agent}, {@code Accept}, {@code Accept-Language},
 * {@code Host}...) are remembered the first time, as the exact bytes of the line, so the
 * next request finds them with one trie walk and gets back the same {@link HttpField}
 * instance, with no String made. {@code Cookie} is learned only when the same value comes
 * again, because a changing cookie would fill the cache with lines never seen twice.
 * Framing fields are never learned.
 *
 * <p>Bounded: the trie holds at most {@code capacity} nodes (about as many bytes of lines);
 * once full it learns nothing more. It is made at the first line learned, so a connection
 * that sends one request pays little. Owned by one parser and used on its thread.
 */
public final class FieldCache {

    private static final Set<HttpHeader> LEARNED = EnumSet.of(HttpHeader.HOST, HttpHeader.USER_AGENT,
            HttpHeader.ACCEPT, HttpHeader.ACCEPT_LANGUAGE, HttpHeader.ACCEPT_ENCODING, HttpHeader.ACCEPT_CHARSET,
            HttpHeader.ORIGIN);

    private final int capacity;
    private final BufferText text;
    private Index.Mutable<HttpField> lines;
    private String lastCookie;
    private boolean full;

    /**
     * @param capacity the bound in trie nodes, at least 1
     * @param text the parser's string maker
     */
    public FieldCache(int capacity, BufferText text) {
        this.capacity = capacity;
        this.text = text;
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
        return lines == null ? null : lines.getBest(buffer, start, limit - start);
    }

    /**
     * Offers a field just parsed from the line at {@code [start, end)} (without CR LF), which
     * the caller has checked is in the form {@code Name: value} with one space and nothing
     * after the value.
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
        if (lines == null) {
            lines = Index.<HttpField>builder().caseSensitive(true).mutable().maxCapacity(capacity).build();
        }
        if (!lines.put(text.string(buffer, start, end), field)) {
            full = true;
        }
    }

    /** @return the number of lines learned */
    public int size() {
        return lines == null ? 0 : lines.size();
    }
}
