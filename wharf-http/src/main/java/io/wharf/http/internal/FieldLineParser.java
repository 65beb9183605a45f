package io.wharf.http.internal;

import java.nio.ByteBuffer;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;
import io.wharf.http.KnownFields;

/**
 * Turns header and trailer field lines into {@link HttpField}s (RFC 9112 section 5). First
 * the fast way, {@link #cached}: the whole line looked up in the static
 * {@link KnownFields#LINES} and then in the connection's learning {@link FieldCache},
 * straight from the buffer. Otherwise {@link #parse}: the name (a token, looked up among
 * the known headers without making a String) and the value (trimmed of blanks, checked for
 * control characters), with the compliance rules for blanks before the colon, a missing
 * colon and folded lines.
 *
 * <p>Because a line starting with a blank continues the previous one (obs-fold, when the
 * mode allows it), each field is held back until the next line shows it is complete: the
 * methods return the field of the <em>previous</em> line, or null, and {@link #flush} returns
 * the last one at the end of the section.
 *
 * <p>Owned by one parser and used on its thread; reads the buffers it is given at absolute
 * indexes and keeps no reference to them.
 */
public final class FieldLineParser {

    private final ComplianceGate gate;
    private final BufferText text;
    private FieldCache cache;
    private HttpField held;

    /**
     * @param cache the connection's learning cache, or null for none
     */
    public FieldLineParser(ComplianceGate gate, BufferText text, FieldCache cache) {
        this.gate = gate;
        this.text = text;
        this.cache = cache;
    }

    /** Looks up and learns lines in {@code cache} from now on; null for none. */
    public void useCache(FieldCache cache) {
        this.cache = cache;
    }

    /** Forgets a held field, for a new section. */
    public void reset() {
        held = null;
    }

    /**
     * @return the static or learned field whose line is exactly the bytes from {@code start}
     *     up to a CR LF that lies before {@code limit}, or null
     */
    public HttpField cached(ByteBuffer buffer, int start, int limit) {
        // The connection's learned lines first: a few eight-byte comparisons, and in steady
        // state most lines are there; the static lines' trie walk only for the rest.
        HttpField field;
        if (cache != null) {
            field = cache.lookup(buffer, start, limit);
            if (field != null && endsWithLine(buffer, start, limit, field)) {
                return field;
            }
        }
        field = KnownFields.LINES.getBest(buffer, start, limit - start);
        if (field != null && endsWithLine(buffer, start, limit, field)) {
            return field;
        }
        return null;
    }

    private static boolean endsWithLine(ByteBuffer buffer, int start, int limit, HttpField field) {
        int end = start + KnownFields.lineLength(field);
        return end + 1 < limit && buffer.get(end) == '\r' && buffer.get(end + 1) == '\n';
    }

    /** Holds a field found by {@link #cached}. @return the previous field, now complete, or null */
    public HttpField hold(HttpField field) {
        HttpField previous = held;
        held = field;
        return previous;
    }

    /** @return the held field, now complete, or null; nothing is held afterwards */
    public HttpField flush() {
        return hold(null);
    }

    /**
     * Parses the field line at absolute indexes {@code [start, end)} (without its line end,
     * not empty).
     *
     * @param crlf whether the line ended with CR LF (only such lines are learned)
     * @param learn whether the line may be offered to the learning cache
     * @return the previous field, now complete, or null
     * @throws BadMessageException when the line is malformed or breaks a rule the mode enforces
     */
    public HttpField parse(ByteBuffer buffer, int start, int end, boolean crlf, boolean learn) {
        if (HttpTokens.isBlank(buffer.get(start))) {
            fold(buffer, start, end);
            return null;
        }
        int nameEnd = start;
        while (nameEnd < end && HttpTokens.isToken(buffer.get(nameEnd))) {
            nameEnd++;
        }
        int colon = nameEnd;
        if (colon < end && HttpTokens.isBlank(buffer.get(colon))) {
            while (colon < end && HttpTokens.isBlank(buffer.get(colon))) {
                colon++;
            }
            if (colon == end || buffer.get(colon) != ':') {
                throw new BadMessageException("field name has a blank inside it");
            }
            gate.check(HttpCompliance.Violation.WHITESPACE_AFTER_FIELD_NAME, BufferText.excerpt(buffer, start, colon),
                    "whitespace between a field name and its colon");
        }
        if (nameEnd == start) {
            throw new BadMessageException(colon < end && buffer.get(colon) == ':' ? "field line with an empty name"
                    : "field name has an illegal character 0x" + Integer.toHexString(buffer.get(start) & 0xFF));
        }
        if (colon == end) {
            gate.check(HttpCompliance.Violation.NO_COLON_AFTER_FIELD_NAME, BufferText.excerpt(buffer, start, end),
                    "field line without a colon");
        } else if (buffer.get(colon) != ':') {
            throw new BadMessageException("field name has an illegal character 0x" +
                    Integer.toHexString(buffer.get(colon) & 0xFF));
        }
        HttpHeader header = HttpHeader.CACHE.get(buffer, start, nameEnd - start);
        String name = header != null ? header.asString() : text.string(buffer, start, nameEnd);
        int valueStart = Math.min(colon + 1, end);
        while (valueStart < end && HttpTokens.isBlank(buffer.get(valueStart))) {
            valueStart++;
        }
        int valueEnd = valueEnd(buffer, valueStart, end, name);
        HttpField field = new HttpField(header, name, text.string(buffer, valueStart, valueEnd));
        if (learn && cache != null && crlf && header != null && FieldCache.isLearnable(header) &&
                nameEnd == colon && valueStart == colon + 2 && buffer.get(colon + 1) == ' ' && valueEnd == end) {
            cache.offer(field, buffer, start, end);
        }
        return hold(field);
    }

    private void fold(ByteBuffer buffer, int start, int end) {
        if (held == null) {
            throw new BadMessageException("first field line starts with a blank");
        }
        gate.check(HttpCompliance.Violation.MULTILINE_FIELD_VALUE, BufferText.excerpt(buffer, start, end),
                "field value folded onto a line starting with a blank (obs-fold)");
        int valueStart = start;
        while (valueStart < end && HttpTokens.isBlank(buffer.get(valueStart))) {
            valueStart++;
        }
        int valueEnd = valueEnd(buffer, valueStart, end, held.getName());
        if (valueEnd > valueStart) {
            String more = text.string(buffer, valueStart, valueEnd);
            held = held.withValue(held.getValue().isEmpty() ? more : held.getValue() + " " + more);
        }
    }

    /** Checks the value's characters. @return the end of the value without trailing blanks */
    private static int valueEnd(ByteBuffer buffer, int valueStart, int end, String name) {
        int valueEnd = valueStart;
        for (int i = valueStart; i < end; i++) {
            byte b = buffer.get(i);
            if (!HttpTokens.isFieldValue(b)) {
                throw new BadMessageException("value of field " + BufferText.excerpt(name) +
                        " has an illegal character 0x" + Integer.toHexString(b & 0xFF));
            }
            if (!HttpTokens.isBlank(b)) {
                valueEnd = i + 1;
            }
        }
        return valueEnd;
    }
}
